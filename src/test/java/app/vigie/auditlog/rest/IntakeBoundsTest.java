package app.vigie.auditlog.rest;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;

import app.vigie.runtime.log.AuditLogWriter;
import app.vigie.runtime.log.PageRun;
import app.vigie.testing.Api;
import app.vigie.testing.Logs;

/**
 * Issue 41, point 1: a runtime cannot make Vigie keep an unbounded number of boots for a deployment. With the bound
 * at 3 here, a fourth (stream, boot) of one deployment is rejected line by line with the reason and kept in the
 * quarantine, while the deployment's known boots and other deployments go on. With the detectors' budget at 1 MiB
 * here, a pool larger than it is not judged, and pools that fit it but not now are asked again (503), never left
 * unjudged.
 */
@QuarkusTest
@TestProfile(IntakeBoundsTest.ThreeBoots.class)
class IntakeBoundsTest {
    public static class ThreeBoots implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("vigie.ingest.max-boots-per-deployment", "3", "vigie.detection.memory-budget", "1M");
        }
    }

    private static final Instant T = Instant.parse("2026-12-06T09:00:00Z");

    private static List<String> boot(String prefix, String stream, String boot, int records) {
        List<String> lines = new ArrayList<>();
        AuditLogWriter w = new AuditLogWriter(prefix + "/" + stream, prefix + "/dep", boot, lines::add);
        w.config(T, 4, 16, 64, 60);
        for (int i = 1; i < records; i++) {
            w.alloc(T, prefix + stream + boot + i, "acme", List.of(new PageRun(i % 16, 1)), "PREFILL", null);
        }
        return lines;
    }

    @Test
    void aFourthBootOfADeploymentIsRejectedAndKeptWhileTheOthersGoOn() {
        String p = Api.uniquePrefix();
        List<String> first = new ArrayList<>();
        first.addAll(boot(p, "s1", "b1", 3));
        first.addAll(boot(p, "s1", "b2", 3));
        first.addAll(boot(p, "s2", "b1", 3));
        Api.post(Logs.body(first)).then().statusCode(200).extract().jsonPath();

        List<String> more = new ArrayList<>(boot(p, "s3", "b1", 4));
        JsonPath a = Api.post(Logs.body(more)).then().statusCode(200).extract().jsonPath();
        assertThat(a.getInt("accepted")).isZero();
        assertThat(a.getList("rejected.reason", String.class)).hasSize(4).allSatisfy(reason -> assertThat(reason)
                .contains("deployment '" + p + "/dep' has 3 (stream, boot) pairs already",
                        "vigie.ingest.max-boots-per-deployment", "boot 'b1' of stream '" + p + "/s3'"));
        String batch = a.getString("batch_id");
        List<Map<String, Object>> kept = JsonPath.from(Api.admin().get("/api/quarantine?size=500").then()
                .statusCode(200).extract().asString()).getList("items");
        assertThat(kept).filteredOn(m -> batch.equals(m.get("source_name"))).hasSize(4);

        // a known boot goes on: its next records are accepted
        List<String> again = boot(p, "s1", "b1", 5);
        assertThat(Api.post(Logs.body(again)).then().statusCode(200).extract().jsonPath().getInt("accepted"))
                .isEqualTo(2);
        // another deployment is not concerned
        String q = Api.uniquePrefix();
        assertThat(Api.post(Logs.body(boot(q, "s1", "b1", 3))).then().statusCode(200).extract().jsonPath()
                .getInt("accepted")).isEqualTo(3);
    }

    /** A boot whose CONFIG declares {@code pages} pages of 16 slots, and one ALLOC. */
    private static List<String> pool(String prefix, String stream, int pages) {
        List<String> lines = new ArrayList<>();
        AuditLogWriter w = new AuditLogWriter(prefix + "/" + stream, prefix + "/dep", "b1", lines::add);
        w.config(T, 16, pages, 16 * pages, 16 * pages);
        w.alloc(T, prefix + stream + "r", "acme", List.of(new PageRun(0, 1)), "PREFILL", null);
        return lines;
    }

    @Test
    void aPoolAboveTheBudgetIsNotJudgedAndPoolsThatDoNotFitNowAreAskedAgain() throws Exception {
        String p = Api.uniquePrefix();
        // 1.5 MiB of pool model: more than the whole budget, never judged
        Api.post(Logs.body(pool(p, "big", 24_000))).then().statusCode(200);
        String id = Api.admin().get("/api/incidents").then().statusCode(200).extract().jsonPath()
                .getString("find { it.deployment == '" + p + "/dep' }.id");
        assertThat(Api.admin().get("/api/incidents/" + id + "/findings").then().statusCode(200).extract().jsonPath()
                .getString("[0].detail")).contains("more than the detectors' whole budget of 1 MiB");

        // three pools of 960 KiB each in one batch: the third goes past twice the budget while the others are in use
        String q = Api.uniquePrefix();
        List<String> three = new ArrayList<>();
        for (String s : List.of("s1", "s2", "s3")) {
            three.addAll(pool(q, s, 12_000));
        }
        Response busy = Api.post(Logs.body(three));
        assertThat(busy.statusCode()).isEqualTo(503);
        assertThat(busy.header("Retry-After")).isEqualTo("5");
        assertThat(busy.jsonPath().getString("detail")).contains("does not fit now", "nothing of this batch");

        // asked again once the first ones are idle: each is taken, none left unjudged
        for (String s : List.of("s1", "s2", "s3")) {
            Thread.sleep(2_100);
            Api.post(Logs.body(pool(q, s, 12_000))).then().statusCode(200);
        }
        assertThat(Api.admin().get("/api/incidents").then().statusCode(200).extract().jsonPath()
                .getString("find { it.deployment == '" + q + "/dep' }.id")).as("no finding: all three judged").isNull();
    }
}
