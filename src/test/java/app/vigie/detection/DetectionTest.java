package app.vigie.detection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import jakarta.inject.Inject;

import org.hamcrest.Matchers;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;

import app.vigie.runtime.log.AuditLogWriter;
import app.vigie.runtime.log.PageRun;
import app.vigie.testing.Api;
import app.vigie.testing.Logs;
import app.vigie.testing.Projection;
import app.vigie.testing.ResultDigest;

/** Detection through the service: any arrival order, duplicates, several deployments, restarts, the lifecycle. */
@QuarkusTest
class DetectionTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    DetectionService detection;

    @Inject
    AgroalDataSource dataSource;

    static JsonNode incident(String deployment) throws Exception {
        return Api.incident(deployment);
    }

    /** The expected incident of an example, renamed under the prefix as {@link Api#renamed} renames its log. */
    static JsonNode expected(String example, String deployment, String prefix) throws Exception {
        String text = Api.example(example + ".expected.json");
        JsonNode wanted = JSON.readTree(text).get("incidents").get(deployment);
        String renamed = wanted.toString().replace("\"reader_request\":\"", "\"reader_request\":\"" + prefix + "/")
                .replace("\"victim_request\":\"", "\"victim_request\":\"" + prefix + "/")
                .replace("\"deployment\":\"", "\"deployment\":\"" + prefix + "/");
        return JSON.readTree(renamed);
    }

    static void assertMatches(JsonNode actual, JsonNode expected) {
        assertThat(Projection.onto(actual, expected)).isEqualTo(expected);
    }

    @Test
    void anyArrivalOrderWithDuplicatesInManyBatchesGivesTheSameIncident() throws Exception {
        String prefix = Api.uniquePrefix();
        List<String> lines = new ArrayList<>(Api.lines(Api.renamed(Api.example("03-pd-rejected-prompt.ndjson"),
                prefix)));
        lines.addAll(lines.subList(0, 60));
        Collections.shuffle(lines, new Random(7));
        for (int from = 0; from < lines.size(); from += 37) {
            Api.post(Logs.body(lines.subList(from, Math.min(lines.size(), from + 37)))).then().statusCode(200);
        }
        assertMatches(incident(prefix + "/glm-5.3/prod-eu"), expected("03-pd-rejected-prompt",
                "glm-5.3/prod-eu", prefix));
    }

    /**
     * The per-tenant exposure counters detection keeps (for alert planning) equal a count over the exposures, after
     * many deployments' records posted in shuffled batches by four clients at once, duplicates included.
     */
    @Test
    void exposureCountersEqualACountOverTheExposuresUnderConcurrentBatches() throws Exception {
        List<String> lines = new ArrayList<>();
        for (int k = 0; k < 4; k++) {
            String prefix = Api.uniquePrefix();
            lines.addAll(Api.lines(Api.renamed(Api.example("03-pd-rejected-prompt.ndjson"), prefix)));
            lines.addAll(Api.lines(Api.renamed(Api.example("02-partial-overwrite.ndjson"), prefix)));
        }
        lines.addAll(lines.subList(0, 100));
        Collections.shuffle(lines, new Random(5));
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Integer>> posts = new ArrayList<>();
            for (int from = 0; from < lines.size(); from += 53) {
                String body = Logs.body(lines.subList(from, Math.min(lines.size(), from + 53)));
                posts.add(pool.submit(() -> Api.post(body).statusCode()));
            }
            for (Future<Integer> f : posts) {
                assertThat(f.get()).isEqualTo(200);
            }
        } finally {
            pool.shutdownNow();
        }
        try (Connection c = dataSource.getConnection()) {
            List<List<String>> counts = ResultDigest.exposureCounts(c);
            assertThat(counts.get(0)).isNotEmpty().isEqualTo(counts.get(1));
        }
    }

    @Test
    void severalDeploymentsInOneBatchEachGetTheirIncident() throws Exception {
        String prefix = Api.uniquePrefix();
        List<String> lines = new ArrayList<>(Api.lines(Api.renamed(Api.example("02-partial-overwrite.ndjson"),
                prefix)));
        lines.addAll(Api.lines(Api.renamed(Api.example("03-pd-rejected-prompt.ndjson"), prefix)));
        lines.addAll(Api.lines(Api.renamed(Api.example("01-benign-colocated.ndjson"), prefix)));
        lines.add(3, "this line is not JSON");
        Collections.shuffle(lines, new Random(11));
        Api.post(Logs.body(lines)).then().statusCode(200).body("accepted", equalTo(97 + 242 + 321))
                .body("rejected.size()", equalTo(1));

        assertMatches(incident(prefix + "/mistral-24b/prod-eu"), expected("02-partial-overwrite",
                "mistral-24b/prod-eu", prefix));
        assertMatches(incident(prefix + "/glm-5.3/prod-eu"), expected("03-pd-rejected-prompt",
                "glm-5.3/prod-eu", prefix));
        assertThat(incident(prefix + "/llama-8b/prod")).isNull();
    }

    @Test
    void forgettingTheDetectorsMidScenarioChangesNothing() throws Exception {
        String prefix = Api.uniquePrefix();
        List<String> lines = Api.lines(Api.renamed(Api.example("03-pd-rejected-prompt.ndjson"), prefix));
        Api.post(Logs.body(lines.subList(0, 120))).then().statusCode(200);
        assertThat(detection.evictIdle(Duration.ZERO)).isPositive();
        assertThat(detection.detectorsInMemory()).isZero();
        Api.post(Logs.body(lines.subList(120, lines.size()))).then().statusCode(200);
        assertMatches(incident(prefix + "/glm-5.3/prod-eu"), expected("03-pd-rejected-prompt",
                "glm-5.3/prod-eu", prefix));
    }

    @Test
    void overTheMemoryBudgetTheLeastRecentlyUsedDetectorsLeaveAndComeBackUnchanged() throws Exception {
        String older = Api.uniquePrefix();
        String newer = Api.uniquePrefix();
        List<String> lines = Api.lines(Api.renamed(Api.example("03-pd-rejected-prompt.ndjson"), older));
        Api.post(Logs.body(lines.subList(0, 120))).then().statusCode(200);
        Thread.sleep(20);
        Api.post(Api.renamed(Api.example("01-benign-colocated.ndjson"), newer)).then().statusCode(200);
        String newerStream = newer + "/par1/n1/colo/dp0";
        assertThat(detection.inMemory(older + "/eu-par1/n21/decode/dp0", "b1")).isTrue();
        assertThat(detection.inMemory(newerStream, "b1")).as("the benign example's stream").isTrue();
        long total = detection.bytesInMemory();
        assertThat(total).isPositive();

        assertThat(detection.evictOverBudget(total, Duration.ZERO)).as("within budget").isZero();
        assertThat(detection.evictOverBudget(0, Duration.ofHours(1))).as("none idle long enough")
                .isZero();
        // Just over budget: the oldest leave first, the one used last stays.
        assertThat(detection.evictOverBudget(total - 1, Duration.ZERO)).isPositive();
        assertThat(detection.inMemory(newerStream, "b1")).isTrue();
        assertThat(detection.bytesInMemory()).isLessThanOrEqualTo((total - 1) * 8 / 10);
        // A budget of nothing empties memory; the scenario then goes on as if nothing happened.
        detection.evictOverBudget(0, Duration.ZERO);
        assertThat(detection.detectorsInMemory()).isZero();
        Api.post(Logs.body(lines.subList(120, lines.size()))).then().statusCode(200);
        assertMatches(incident(older + "/glm-5.3/prod-eu"), expected("03-pd-rejected-prompt",
                "glm-5.3/prod-eu", older));
    }

    @Test
    void theLifecycleIsEnforcedAuditedAndAClosedIncidentIsNotJoined() throws Exception {
        String prefix = Api.uniquePrefix();
        List<String> lines = Api.lines(Api.renamed(Api.example("02-partial-overwrite.ndjson"), prefix));
        Api.post(Logs.body(lines.subList(0, 60))).then().statusCode(200);
        String deployment = prefix + "/mistral-24b/prod-eu";
        String id = id(deployment);

        Api.admin().contentType("application/json").body("{\"status\":\"CLOSED\",\"reason\":\"x\"}")
                .post("/api/incidents/" + id + "/status").then().statusCode(409)
                .contentType("application/problem+json").body("detail", containsString("cannot become CLOSED"));
        Api.admin().contentType("application/json").body("{\"status\":\"DISMISSED\"}")
                .post("/api/incidents/" + id + "/status").then().statusCode(400)
                .body("detail", containsString("reason is required"));
        Api.admin().contentType("application/json").body("{\"status\":\"TRIAGED\"}")
                .post("/api/incidents/" + id + "/status").then().statusCode(200).body("status", equalTo("TRIAGED"));
        Api.admin().contentType("application/json").body("{\"status\":\"CONFIRMED\",\"reason\":\"stale pages read\"}")
                .post("/api/incidents/" + id + "/status").then().statusCode(200).body("status", equalTo("CONFIRMED"));
        Api.account("auditor1", "auditor", null);
        Api.as("auditor1", "auditor1-password").contentType("application/json").body("{\"status\":\"CLOSED\"}")
                .post("/api/incidents/" + id + "/status").then().statusCode(403);
        Api.admin().contentType("application/json").body("{\"status\":\"CLOSED\",\"reason\":\"customers told\"}")
                .post("/api/incidents/" + id + "/status").then().statusCode(200).body("status", equalTo("CLOSED"))
                .body("status_reason", equalTo("customers told"));

        Api.post(Logs.body(lines.subList(60, lines.size()))).then().statusCode(200);
        String second = id(deployment);
        assertThat(second).isNotEqualTo(id);
        Api.admin().get("/api/incidents/" + id).then().body("status", equalTo("CLOSED"));
        Api.admin().get("/api/incidents/" + second).then().body("status", equalTo("OPEN"));
        Api.admin().get("/api/incidents?status=CLOSED").then().body("id", Matchers.hasItem(id));

        Api.admin().get("/api/incidents/" + UUID.randomUUID()).then().statusCode(404)
                .contentType("application/problem+json");
        Api.admin().get("/api/incidents/not-a-uuid/exposures").then().statusCode(404);
        Api.admin().get("/api/incidents?status=SOMETIMES").then().statusCode(400);
    }

    /**
     * A finding that joins facts of two streams (a rejection on the prefill node, the delivered output on the decode
     * node) says the same whichever stream is read first: instances of a consumer group read partitions in no set
     * order. Found by ScaleOutIT, where the first detail stayed.
     */
    @Test
    void aFindingJoiningTwoStreamsSaysTheSameWhicheverStreamIsReadFirst() throws Exception {
        List<List<String>> details = new ArrayList<>();
        for (boolean prefillFirst : new boolean[] {true, false}) {
            String prefix = Api.uniquePrefix();
            List<String> lines = Api.lines(Api.renamed(Api.example("03-pd-rejected-prompt.ndjson"), prefix));
            List<String> prefill = lines.stream().filter(l -> l.contains("/n17/prefill/")).toList();
            List<String> decode = lines.stream().filter(l -> !l.contains("/n17/prefill/")).toList();
            Api.post(Logs.body(prefillFirst ? prefill : decode)).then().statusCode(200);
            Api.post(Logs.body(prefillFirst ? decode : prefill)).then().statusCode(200);
            JsonNode findings = JSON.readTree(Api.admin().get("/api/incidents/" + id(prefix + "/glm-5.3/prod-eu")
                    + "/findings").then().statusCode(200).extract().asString());
            List<String> served = new ArrayList<>();
            for (JsonNode f : findings) {
                if (f.get("rule").asText().equals("REJECTED_REQUEST_SERVED")) {
                    served.add(f.get("detail").asText().replace(prefix + "/", ""));
                }
            }
            Collections.sort(served);
            details.add(served);
        }
        assertThat(details.get(0)).isNotEmpty().anyMatch(d -> d.endsWith(
                "then allocated or attended, and finished delivered with output"));
        assertThat(details.get(1)).isEqualTo(details.get(0));
    }

    @Test
    void findingsCarryTheirEvidence() throws Exception {
        String prefix = Api.uniquePrefix();
        Api.post(Api.renamed(Api.example("03-pd-rejected-prompt.ndjson"), prefix)).then().statusCode(200);
        String id = id(prefix + "/glm-5.3/prod-eu");
        JsonNode findings = JSON.readTree(Api.admin().get("/api/incidents/" + id + "/findings").then()
                .statusCode(200).extract().asString());
        assertThat(findings).hasSize(10);
        JsonNode read = null;
        for (JsonNode f : findings) {
            assertThat(f.get("stream").asText()).startsWith(prefix + "/");
            assertThat(f.get("first_seq").asLong()).isPositive();
            if (f.get("rule").asText().equals("CROSS_TENANT_READ") && read == null) {
                read = f;
            }
        }
        assertThat(read.get("subject").asText()).isEqualTo(prefix + "/gw-0006");
        assertThat(read.get("detail").asText()).contains("last written by " + prefix + "/gw-0005 of tenant acme",
                "on pages");
    }

    @Test
    void recordsImpossibleInTheirStreamAreAcceptedThenKeptWithTheirReason() {
        String p = Api.uniquePrefix();
        List<String> lines = new ArrayList<>();
        AuditLogWriter w = new AuditLogWriter(p + "/s", p + "/d", "b1",
                lines::add);
        Instant t = Instant.parse("2026-08-27T09:00:00Z");
        w.config(t, 4, 16, 64, 60);
        w.alloc(t, "r1", "acme", List.of(new PageRun(15, 2)), "PREFILL", null);
        w.free(t, "r2", List.of(new PageRun(0, 1)), "FINISH");
        Api.post(Logs.body(lines)).then().statusCode(200).body("accepted", equalTo(3))
                .body("rejected.size()", equalTo(0));

        JsonPath q = Api.admin().get("/api/quarantine?source=apply&size=500").then()
                .statusCode(200).extract().jsonPath();
        assertThat(q.getString("items.find { it.source_name == '" + p + "/s@b1' && it.position == 2 }.reason"))
                .isEqualTo("ALLOC: pages 15-16 lie outside the pool of 16 pages; no effect");
        assertThat(q.getString("items.find { it.source_name == '" + p + "/s@b1' && it.position == 3 }.reason"))
                .isEqualTo("FREE: page 0 is not owned by r2; no effect");
    }

    /** limit/offset page the incident list in its own order; without them it is whole, as before; bad values 400. */
    @Test
    void theIncidentListPagesOnRequest() {
        Api.leakingIncident(Api.uniquePrefix(), "p-acme", "p-globex");
        Api.leakingIncident(Api.uniquePrefix(), "p-acme", "p-globex");
        List<String> all = Api.admin().get("/api/incidents").then().statusCode(200).extract().jsonPath()
                .getList("id");
        assertThat(all.size()).isGreaterThanOrEqualTo(2);
        List<String> first = Api.admin().get("/api/incidents?limit=1").then().statusCode(200).extract().jsonPath()
                .getList("id");
        List<String> second = Api.admin().get("/api/incidents?limit=1&offset=1").then().statusCode(200).extract()
                .jsonPath().getList("id");
        assertThat(first).containsExactly(all.get(0));
        assertThat(second).containsExactly(all.get(1));
        JsonNode paged = Api.admin().get("/api/incidents?limit=1").then().extract().as(JsonNode.class);
        assertThat(paged.get(0).get("leaked_responses").asLong()).isEqualTo(1);
        for (String bad : List.of("limit=0", "limit=1001", "limit=x", "offset=-1")) {
            Api.admin().get("/api/incidents?" + bad).then().statusCode(400)
                    .body("detail", containsString(bad.substring(0, bad.indexOf('='))));
        }
    }

    @Test
    void readsNeedARoleAndCustomersSeeNoIncidentList() {
        Api.account("cust1", "customer", "acme");
        Api.as("cust1", "cust1-password").get("/api/incidents").then().statusCode(403);
        RestAssured.given().get("/api/incidents").then().statusCode(401);
        Api.account("analyst1", "analyst", null);
        Api.as("analyst1", "analyst1-password").get("/api/incidents").then().statusCode(200);
    }

    private static String id(String deployment) throws Exception {
        JsonNode all = JSON.readTree(Api.admin().get("/api/incidents").then().statusCode(200).extract().asString());
        for (JsonNode i : all) {
            if (i.get("deployment").asText().equals(deployment)) {
                return i.get("id").asText();
            }
        }
        throw new AssertionError("no incident for " + deployment);
    }
}
