package app.vigie.detection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.startsWith;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.test.junit.QuarkusTest;

import app.vigie.runtime.log.AuditLogWriter;
import app.vigie.runtime.log.PageRun;
import app.vigie.testing.Api;
import app.vigie.testing.Logs;

/**
 * The spec's "Clarifications (2026-12-03)", each through the service's HTTP API: a use after free is judged, a
 * position counts once per (reader, victim) across streams, unknown delivery is null, late records after a loss are
 * refused, the first rejection gives REJECTED_REQUEST_SERVED its deployment, and the two new bounds.
 */
@QuarkusTest
class ClarificationsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant T = Instant.parse("2026-08-27T09:00:00Z");

    private static List<PageRun> pages(int first, int count) {
        return List.of(new PageRun(first, count));
    }

    private static JsonNode exposure(JsonNode incident, String reader, String victim) {
        for (JsonNode e : incident.get("exposures")) {
            if (e.get("reader_request").asText().equals(reader) && e.get("victim_request").asText().equals(victim)) {
                return e;
            }
        }
        throw new AssertionError("no exposure " + reader + " <- " + victim + " in " + incident);
    }

    @Test
    void aUseAfterFreeIsAppliedAndJudged() throws Exception {
        String p = Api.uniquePrefix();
        List<String> lines = new ArrayList<>();
        AuditLogWriter w = new AuditLogWriter(p + "/decode", p + "/m/prod", "b1", lines::add);
        w.config(T, 4, 16, 64, 60);
        w.alloc(T, p + "a", "acme", pages(0, 2), "PREFILL", null);
        w.write(T, p + "a", "acme", 0, 8, "COMPUTE", null);
        w.free(T, p + "a", pages(0, 2), "ABORT");
        w.alloc(T, p + "b", "globex", pages(0, 2), "PREFILL", null);
        w.write(T, p + "b", "globex", 0, 8, "COMPUTE", null);
        w.write(T.plusSeconds(1), p + "a", "acme", 6, 2, "COMPUTE", null);
        w.attach(T.plusSeconds(1), p + "a", "acme", 8);
        w.attach(T.plusSeconds(2), p + "b", "globex", 8);
        Api.post(Logs.body(lines)).then().statusCode(200).body("accepted", equalTo(lines.size()))
                .body("rejected", hasSize(0));
        JsonNode incident = Api.incident(p + "/m/prod");
        assertThat(incident.get("findings").get("CROSS_TENANT_READ").asInt()).isEqualTo(2);
        assertThat(exposure(incident, p + "a", p + "b").get("tokens").asInt()).isEqualTo(6);
        assertThat(exposure(incident, p + "b", p + "a").get("tokens").asInt()).isEqualTo(2);
        String quarantine = Api.admin().get("/api/quarantine?size=500").then().statusCode(200).extract().asString();
        assertThat(quarantine).doesNotContain(p + "/decode");
    }

    /** Two tensor-parallel ranks, each its own stream, attend the same stale positions of one victim. */
    @Test
    void aPositionReadOnTwoStreamsCountsOnceAndUnknownDeliveryIsNull() throws Exception {
        String p = Api.uniquePrefix();
        List<String> lines = new ArrayList<>();
        List<String> rank0 = new ArrayList<>();
        List<AuditLogWriter> ranks = List.of(new AuditLogWriter(p + "/tp0", p + "/m/prod", "b1", rank0::add),
                new AuditLogWriter(p + "/tp1", p + "/m/prod", "b1", lines::add));
        for (AuditLogWriter w : ranks) {
            w.config(T, 4, 16, 64, 60);
            w.alloc(T, p + "a", "acme", pages(0, 2), "PREFILL", null);
            w.write(T, p + "a", "acme", 0, 8, "COMPUTE", null);
            w.free(T, p + "a", pages(0, 2), "FINISH");
            w.alloc(T, p + "b", "globex", pages(0, 2), "PREFILL", null);
            w.write(T, p + "b", "globex", 0, 2, "COMPUTE", null);
        }
        ranks.get(0).attach(T, p + "b", "globex", 6);
        ranks.get(1).attach(T.plusSeconds(1), p + "b", "globex", 8);
        // rank 1 (positions 2-7) in one transaction, then rank 0 (2-5) in another: united, not replaced
        Api.post(Logs.body(lines)).then().statusCode(200).body("rejected", hasSize(0));
        Api.post(Logs.body(rank0)).then().statusCode(200).body("rejected", hasSize(0));
        JsonNode incident = Api.incident(p + "/m/prod");
        JsonNode e = exposure(incident, p + "b", p + "a");
        assertThat(e.get("tokens").asInt()).as("positions 2-5 on both ranks and 6-7 on one").isEqualTo(6);
        assertThat(incident.get("exposures")).hasSize(1);
        assertThat(e.get("delivered").isNull()).as("no FINISH yet: " + e).isTrue();
        assertThat(incident.get("leaked_responses").asInt()).isZero();
        JsonNode globex = incident.get("tenants").get(1);
        assertThat(globex.get("tenant").asText()).isEqualTo("globex");
        assertThat(globex.get("received_tokens").asInt()).isEqualTo(6);
        assertThat(incident.get("tenants").get(0).get("exposed_tokens").asInt()).isEqualTo(6);

        // one rank says not delivered, the other delivered: the response left, so it is delivered
        lines.clear();
        rank0.clear();
        ranks.get(0).finish(T.plusSeconds(2), p + "b", "globex", "STOP", 200, 3, false);
        Api.post(Logs.body(rank0)).then().statusCode(200);
        incident = Api.incident(p + "/m/prod");
        assertThat(exposure(incident, p + "b", p + "a").get("delivered").asBoolean(true)).isFalse();
        lines.clear();
        ranks.get(1).finish(T.plusSeconds(2), p + "b", "globex", "STOP", 200, 3, true);
        Api.post(Logs.body(lines)).then().statusCode(200);
        incident = Api.incident(p + "/m/prod");
        assertThat(exposure(incident, p + "b", p + "a").get("delivered").asBoolean()).isTrue();
        assertThat(incident.get("leaked_responses").asInt()).isEqualTo(1);
    }

    /** A reader with no FINISH: its exposure's delivery is unknown, null in the API, never false. */
    @Test
    void anExposureWhoseReaderHasNotFinishedIsNeitherDeliveredNorUndelivered() throws Exception {
        String p = Api.uniquePrefix();
        List<String> lines = new ArrayList<>();
        AuditLogWriter w = new AuditLogWriter(p + "/s", p + "/m/prod", "b1", lines::add);
        w.config(T, 4, 16, 64, 60);
        w.alloc(T, p + "a", "acme", pages(0, 1), "PREFILL", null);
        w.write(T, p + "a", "acme", 0, 4, "COMPUTE", null);
        w.free(T, p + "a", pages(0, 1), "FINISH");
        w.alloc(T, p + "b", "globex", pages(0, 1), "PREFILL", null);
        w.attach(T, p + "b", "globex", 4);
        Api.post(Logs.body(lines)).then().statusCode(200).body("rejected", hasSize(0));
        JsonNode e = exposure(Api.incident(p + "/m/prod"), p + "b", p + "a");
        assertThat(e.has("delivered")).isTrue();
        assertThat(e.get("delivered").isNull()).as(e.toString()).isTrue();
    }

    @Test
    void aRecordOfALostRangeIsRefusedAsLate() {
        String p = Api.uniquePrefix();
        List<String> lines = new ArrayList<>();
        AuditLogWriter w = new AuditLogWriter(p + "/s", p + "/m/prod", "b1", lines::add);
        w.config(T, 4, 16, 64, 60);
        w.heartbeat(T);
        w.heartbeat(T);
        w.heartbeat(T);
        Api.post(Logs.body(List.of(lines.get(0), lines.get(1), lines.get(3)))).then().statusCode(200)
                .body("pending", equalTo(1));
        Api.admin().post("/api/audit-log/flush").then().statusCode(200);
        Api.post(Logs.body(List.of(lines.get(2)))).then().statusCode(200).body("accepted", equalTo(0))
                .body("rejected", hasSize(1)).body("rejected[0].reason", startsWith("late"));
    }

    /** The rejection with the smallest (ts, stream, boot, seq) gives the finding its deployment, in either order. */
    @Test
    void theFirstRejectionGivesTheFindingItsDeploymentWhicheverArrivesFirst() throws Exception {
        for (boolean earlierFirst : List.of(true, false)) {
            String p = Api.uniquePrefix();
            List<String> late = new ArrayList<>();
            List<String> early = new ArrayList<>();
            AuditLogWriter a = new AuditLogWriter(p + "/a", p + "/late/prod", "b1", late::add);
            a.config(T, 4, 16, 64, 60);
            a.admit(T.plusSeconds(5), p + "r", "acme", 900, false, "too long");
            a.alloc(T.plusSeconds(6), p + "r", "acme", pages(0, 1), "PREALLOC", null);
            AuditLogWriter b = new AuditLogWriter(p + "/b", p + "/early/prod", "b1", early::add);
            b.config(T, 4, 16, 64, 60);
            b.admit(T.plusSeconds(1), p + "r", "acme", 900, false, "too long");
            for (List<String> batch : earlierFirst ? List.of(early, late) : List.of(late, early)) {
                Api.post(Logs.body(batch)).then().statusCode(200).body("rejected", hasSize(0));
            }
            JsonNode incident = Api.incident(p + "/early/prod");
            assertThat(incident).as("order " + earlierFirst).isNotNull();
            assertThat(incident.get("findings").get("REJECTED_REQUEST_SERVED").asInt()).isEqualTo(1);
            String id = JSON.readTree(Api.admin().get("/api/incidents").then().extract().asString()).findParents(
                    "deployment").stream().filter(i -> i.get("deployment").asText().equals(p + "/early/prod"))
                    .findFirst().orElseThrow().get("id").asText();
            JsonNode finding = JSON.readTree(Api.admin().get("/api/incidents/" + id + "/findings").then()
                    .statusCode(200).extract().asString()).get(0);
            assertThat(finding.toString()).contains(p + "/b").contains("(seq 2)");
            JsonNode other = Api.incident(p + "/late/prod");
            assertThat(other == null || !other.get("findings").has("REJECTED_REQUEST_SERVED"))
                    .as("not counted in the later rejection's deployment: " + other).isTrue();
        }
    }

    @Test
    void anHttpStatusOutside100To599AndACoverageAboveTheClaimAreInvalid() {
        String p = Api.uniquePrefix();
        List<String> lines = new ArrayList<>();
        AuditLogWriter w = new AuditLogWriter(p + "/s", p + "/m/prod", "b1", lines::add);
        w.config(T, 4, 16, 64, 60);
        w.finish(T, p + "r", "acme", "STOP", 600, 1, true);
        w.finish(T, p + "q", "acme", "STOP", 99, 1, true);
        w.xferCommit(T, p + "r", "acme", 4, 5, true);
        w.finish(T, p + "s", "acme", "STOP", 599, 1, true);
        Api.post(Logs.body(lines)).then().statusCode(200).body("accepted", equalTo(2))
                .body("rejected", hasSize(3)).body("rejected[0].line", equalTo(2))
                .body("rejected[2].line", equalTo(4));
    }
}
