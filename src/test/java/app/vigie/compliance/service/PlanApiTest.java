package app.vigie.compliance.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.startsWith;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.response.Response;

import app.vigie.testing.Api;
import app.vigie.testing.MovableClock;

/**
 * {@code POST /api/obligations/plan} (docs/obligations-plan.md): the shared contract's example answered, bad
 * fields refused by name, roles, and the answer equal to a live incident's plan for the same facts.
 */
@QuarkusTest
class PlanApiTest {
    private static final String JSON = "application/json";
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @AfterEach
    void resetClock() {
        MovableClock.INSTANCE.reset();
    }

    @Test
    void theContractsExampleIsAnsweredWithEveryFieldAndNothingIsStored() throws Exception {
        String body = Files.readString(Path.of("src/test/resources/compliance/plan-example.json"));
        long incidentsBefore = Api.admin().get("/api/incidents").then().statusCode(200).extract().jsonPath()
                .getList("$").size();
        JsonNode answer = MAPPER.readTree(Api.admin().contentType(JSON).body(body).post("/api/obligations/plan")
                .then().statusCode(200).contentType(JSON).extract().asString());
        assertThat(answer.path("rules_version").asText()).startsWith("sha256:");
        List<String> fields = List.of("tenant", "regime", "rule", "holder", "recipient", "recipient_name",
                "condition", "condition_note", "clock", "clock_started_at", "due_at", "due_basis", "outer_limit_at",
                "status", "reason_code", "reason", "done_at", "done_late", "source");
        assertThat(answer.path("obligations").size()).isGreaterThan(5);
        for (JsonNode o : answer.path("obligations")) {
            for (String f : fields) {
                assertThat(o.has(f)).as(f + " in " + o).isTrue();
            }
        }
        // the provider's NIS2 early warning, from its decision (recital 31 of Implementing Regulation 2024/2690)
        JsonNode early = find(answer, null, "nis2-23-4a");
        assertThat(Instant.parse(early.path("clock_started_at").asText())).isEqualTo("2026-08-28T10:00:00Z");
        assertThat(Instant.parse(early.path("due_at").asText())).isEqualTo("2026-08-29T10:00:00Z");
        assertThat(early.path("status").asText()).isEqualTo("DONE");
        // the tenant's awareness is the alert's delivery: 72 h from it
        JsonPathless.assertDue(find(answer, "s1", "gdpr-33-1"), "2026-04-01T00:45:00Z", "STATUTORY");
        // classified major after 24 h from awareness: 4 h from the classification (2025/301 Art. 5(2))
        JsonPathless.assertDue(find(answer, "s1", "dora-19-initial"), "2026-10-25T05:30:00Z", "STATUTORY");
        assertThat(Api.admin().get("/api/incidents").then().extract().jsonPath().getList("$")).hasSize(
                (int) incidentsBefore);
    }

    @Test
    void aBadFieldIsNamedAndNothingAnswers500() {
        String ok = "{\"incident\":{\"detected_at\":\"2026-03-28T23:30:00Z\"},\"tenants\":[{\"id\":\"a\",\"country\":\"FR\"}]}";
        post(ok).then().statusCode(200);
        Map<String, String> bad = Map.of(
                "{\"tenants\":[]}", "incident",
                "{\"incident\":{\"detected_at\":\"yesterday\"}}", "incident.detected_at",
                "{\"incident\":{\"detected_at\":\"2026-03-28T23:30:00\"}}", "incident.detected_at",
                "{\"incident\":{\"detected_at\":\"2026-03-28T23:30:00Z\"},\"tenants\":[{\"id\":\"a\",\"exposure\":\"seen\"}]}",
                "tenants[0].exposure",
                "{\"incident\":{\"detected_at\":\"2026-03-28T23:30:00Z\"},\"tenants\":[{\"id\":\"a\",\"country\":\"FR\",\"decisions\":{\"major\":{\"value\":true,\"decided_at\":\"2026-03-29T00:00:00Z\"}}}]}",
                "tenants[0].decisions.major",
                "{\"incident\":{\"detected_at\":\"2026-03-28T23:30:00Z\"},\"tenants\":[{\"id\":\"a\",\"severity\":\"huge\"}]}",
                "tenants[0].severity",
                "{\"incident\":{\"detected_at\":\"2026-03-28T23:30:00Z\"},\"provider\":{\"regimes\":[\"nis3\"]}}",
                "provider.regimes",
                "{\"incident\":{\"detected_at\":\"2026-03-28T23:30:00Z\"},\"tenants\":[{\"id\":\"a\",\"contry\":\"FR\"}]}",
                "tenants[0].contry",
                "{\"incident\":{\"detected_at\":\"2026-03-28T23:30:00Z\"},\"tenants\":[{\"id\":\"a\"},{\"id\":\"a\"}]}",
                "tenants[1].id");
        bad.forEach((body, field) -> post(body).then().statusCode(400).contentType("application/problem+json")
                .body("detail", startsWith("field '" + field + "'")));
        Map<String, String> facts = Map.of(
                "{\"incident\":{\"detected_at\":\"2026-03-28T23:30:00Z\"},\"tenants\":[{\"id\":\"a\",\"country\":\"UK\"}]}",
                "tenants[0].country",
                "{\"incident\":{\"detected_at\":\"2026-03-28T23:30:00Z\"},\"tenants\":[{\"id\":\"a\",\"country\":\"FR\","
                        + "\"alert_delivered_at\":\"2026-03-28T22:00:00Z\"}]}", "tenants[0].alert_delivered_at",
                "{\"incident\":{\"detected_at\":\"2026-03-28T23:30:00Z\"},\"tenants\":[{\"id\":\"a\",\"mapped\":false,"
                        + "\"country\":\"FR\"}]}", "tenants[0].country",
                "{\"incident\":{\"detected_at\":\"2026-03-28T23:30:00Z\"},\"tenants\":[{\"id\":\"a\",\"country\":\"FR\","
                        + "\"completions\":[{\"rule\":\"gdpr-33-1\",\"recipient\":\"ico\",\"done_at\":\"2026-03-29T00:00:00Z\"}]}]}",
                "tenants[0].completions[0]");
        facts.forEach((body, field) -> post(body).then().statusCode(400)
                .body("detail", startsWith("field '" + field + "'")));
        post("{\"incident\":").then().statusCode(400);
        post("[1, 2]").then().statusCode(400).body("detail", containsString("JSON object"));
    }

    @Test
    void rolesThatMayPlan() {
        String body = "{\"incident\":{\"detected_at\":\"2026-03-28T23:30:00Z\"}}";
        Api.account("plan-auditor", "auditor", null);
        Api.as("plan-auditor", "plan-auditor-password").contentType(JSON).body(body).post("/api/obligations/plan")
                .then().statusCode(200);
        Api.account("plan-customer", "customer", "acme");
        Api.as("plan-customer", "plan-customer-password").contentType(JSON).body(body)
                .post("/api/obligations/plan").then().statusCode(403);
        RestAssured.given().contentType(JSON).body(body).post("/api/obligations/plan").then()
                .statusCode(401);
    }

    /**
     * A live incident with a directory entry, a tenant missing from it, decisions, a severity, an awareness and
     * completions recorded through the API; the same facts posted to the plan give the same obligations.
     */
    @Test
    void theAnswerEqualsTheLiveIncidentsPlanForTheSameFacts() throws Exception {
        String p = Api.uniquePrefix();
        String bank = p + "-bank";
        String reader = p + "-reader";
        ObligationApiTest.tenant(bank, "FR", "[\"financial\"]", "PT12H");
        String id = Api.leakingIncident(p, bank, reader);
        Instant detected = ObligationApiTest.detectedAt(id);
        String base = "/api/incidents/" + id;
        MovableClock.INSTANCE.set(detected.plus(Duration.ofHours(2)));
        Instant aware = detected.plus(Duration.ofMinutes(30));
        Instant major = detected.plus(Duration.ofMinutes(50));
        Instant significant = detected.plus(Duration.ofMinutes(20));
        ObligationApiTest.put("{\"aware_at\":\"" + aware + "\",\"evidence\":\"telephone\"}")
                .put(base + "/tenants/" + bank + "/awareness").then().statusCode(200);
        ObligationApiTest.put("{\"value\":true,\"decided_at\":\"" + major + "\",\"justification\":\"x\"}")
                .put(base + "/tenants/" + bank + "/decisions/major").then().statusCode(200);
        ObligationApiTest.put("{\"value\":true,\"decided_at\":\"" + significant + "\",\"justification\":\"y\"}")
                .put(base + "/decisions/significant").then().statusCode(200);
        ObligationApiTest.put("{\"override\":{\"level\":\"HIGH\",\"justification\":\"IBANs\"}}")
                .put(base + "/tenants/" + bank + "/severity").then().statusCode(200);
        Instant initial = detected.plus(Duration.ofMinutes(90));
        ObligationApiTest.put("{\"done_at\":\"" + initial + "\",\"evidence\":\"ACPR 1\"}")
                .post(base + "/tenants/" + bank + "/obligations/dora-19-initial/financial_authority:FR/completions")
                .then().statusCode(201);
        ObligationApiTest.put("{\"done_at\":\"" + initial + "\",\"evidence\":\"CERT-FR 2\"}")
                .post(base + "/obligations/nis2-23-4a/csirt:FR/completions").then().statusCode(201);

        JsonNode live = MAPPER.readTree(Api.admin().get(base + "/obligations").then().statusCode(200).extract()
                .asString());
        JsonNode kase = MAPPER.readTree(Api.admin().get(base + "/tenants/" + bank + "/case").then().statusCode(200)
                .extract().asString());
        assertThat(kase.path("exposure").asText()).isEqualTo("victim");

        ObjectNode request = MAPPER.createObjectNode();
        request.put("now", MovableClock.INSTANCE.instant().toString());
        request.putObject("incident").put("detected_at", detected.toString());
        ObjectNode provider = request.putObject("provider");
        provider.put("country", "FR").putArray("regimes").add("nis2");
        provider.putObject("decisions").putObject("significant").put("value", true)
                .put("decided_at", significant.toString()).put("justification", "y");
        provider.putArray("completions").addObject().put("rule", "nis2-23-4a").put("recipient", "csirt:FR")
                .put("done_at", initial.toString());
        ArrayNode tenants = request.putArray("tenants");
        ObjectNode b = tenants.addObject();
        b.put("id", bank).put("legal_name", bank + " SA").put("country", "FR").put("alert_delay", "PT12H")
                .put("exposure", "victim").put("aware_at", aware.toString()).put("severity", "HIGH");
        b.putArray("sectors").add("financial");
        b.putObject("decisions").putObject("major").put("value", true).put("decided_at", major.toString())
                .put("justification", "x");
        b.putArray("completions").addObject().put("rule", "dora-19-initial").put("recipient", "financial_authority:FR")
                .put("done_at", initial.toString());
        tenants.addObject().put("id", reader).put("mapped", false).put("exposure", "recipient");

        JsonNode planned = MAPPER.readTree(post(MAPPER.writeValueAsString(request)).then().statusCode(200).extract()
                .asString()).path("obligations");
        assertThat(comparable(planned)).isEqualTo(comparable(live));
        assertThat(live.size()).as("the provider's 7, the bank's 10, the reader's alert").isEqualTo(18);
    }

    /** Every field, the completions reduced to their times (who recorded them, and when, is the live side's). */
    private static List<Map<String, Object>> comparable(JsonNode obligations) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (JsonNode o : obligations) {
            @SuppressWarnings("unchecked")
            Map<String, Object> m = MAPPER.convertValue(o, Map.class);
            List<String> done = new ArrayList<>();
            o.path("completions").forEach(c -> done.add(c.path("done_at").asText()));
            m.put("completions", done);
            out.add(m);
        }
        out.sort((x, y) -> String.valueOf(x.get("tenant") + "|" + x.get("rule") + "|" + x.get("recipient"))
                .compareTo(String.valueOf(y.get("tenant") + "|" + y.get("rule") + "|" + y.get("recipient"))));
        return out;
    }

    private static Response post(String body) {
        return Api.admin().contentType(JSON).body(body).post("/api/obligations/plan");
    }

    private static JsonNode find(JsonNode answer, String tenant, String rule) {
        for (Iterator<JsonNode> it = answer.path("obligations").elements(); it.hasNext(); ) {
            JsonNode o = it.next();
            if (o.path("rule").asText().equals(rule) && (tenant == null ? o.path("tenant").isNull()
                    : tenant.equals(o.path("tenant").asText()))) {
                return o;
            }
        }
        throw new AssertionError("no " + rule + " for " + tenant + " in " + answer);
    }

    /** Assertions on one obligation of an answer. */
    private static final class JsonPathless {
        static void assertDue(JsonNode o, String due, String basis) {
            assertThat(Instant.parse(o.path("due_at").asText())).as(o.toString()).isEqualTo(due);
            assertThat(o.path("due_basis").asText()).as(o.toString()).isEqualTo(basis);
        }
    }
}
