package app.vigie.compliance.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import jakarta.inject.Inject;

import org.hamcrest.Matchers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;

import app.vigie.db.Transactions;
import app.vigie.testing.Api;
import app.vigie.testing.MovableClock;
import app.vigie.web.DashboardActionsTest;

/** Obligations through the API: planned from the directory and the case facts recorded, audited, escalated. */
@QuarkusTest
class ObligationApiTest {
    private static final String JSON = "application/json";

    @Inject
    AgroalDataSource dataSource;

    @Inject
    EscalationScheduler escalations;

    @Inject
    ObligationService plans;

    @Inject
    ComplianceRules rules;

    @AfterEach
    void resetClock() {
        MovableClock.INSTANCE.reset();
    }

    static void tenant(String id, String country, String sectors, String delay) {
        Api.admin().contentType(JSON).body("{\"legal_name\":\"" + id + " SA\",\"country\":\"" + country + "\","
                + "\"sectors\":" + sectors + (delay == null ? "" : ",\"alert_delay\":\"" + delay + "\"") + "}")
                .put("/api/tenants/" + id).then().statusCode(200);
    }

    static Instant detectedAt(String id) {
        return Instant.parse(Api.admin().get("/api/incidents/" + id).then().statusCode(200).extract().jsonPath()
                .getString("detected_at"));
    }

    static JsonPath obligations(String id) {
        return Api.admin().get("/api/incidents/" + id + "/obligations").then().statusCode(200).extract().jsonPath();
    }

    static String of(String tenant, String rule, String recipient) {
        return "find { it.tenant " + (tenant == null ? "== null" : "== '" + tenant + "'") + " && it.rule == '" + rule
                + "' && it.recipient == '" + recipient + "' }";
    }

    static RequestSpecification put(String body) {
        return Api.admin().contentType(JSON).body(body);
    }

    @Test
    void obligationsFollowTheDirectoryAndTheFactsRecordedAndEveryChangeIsAudited() throws Exception {
        String p = Api.uniquePrefix();
        String bank = p + "-bank";
        String ghost = p + "-ghost";
        tenant(bank, "FR", "[\"financial\"]", "PT12H");
        String id = Api.leakingIncident(p, bank, ghost);
        Instant detected = detectedAt(id);
        MovableClock.INSTANCE.set(detected.plus(Duration.ofHours(1)));
        String base = "/api/incidents/" + id;

        JsonPath o = obligations(id);
        // NIS2 x7 for the provider (with its customers' notice), GDPR x5 (with Art. 34(3)(c)) + DORA x5 (with
        // Art. 19(3)), the alert to ghost
        assertThat(o.getList("rule")).hasSize(18);
        assertThat(o.getString(of(bank, "gdpr-33-2", "controller") + ".due_at"))
                .isEqualTo(detected.plus(Duration.ofHours(12)).toString());
        assertThat(o.getString(of(bank, "gdpr-33-2", "controller") + ".due_basis")).isEqualTo("CONTRACT");
        assertThat(o.getString(of(bank, "gdpr-33-1", "supervisory_authority:FR") + ".due_at")).isNull();
        assertThat(o.getString(of(bank, "gdpr-33-1", "supervisory_authority:FR") + ".reason"))
                .contains("has not been delivered to the controller");
        assertThat(o.getString(of(bank, "gdpr-33-1", "supervisory_authority:FR") + ".recipient_name"))
                .contains("CNIL");
        assertThat(o.getString(of(ghost, "gdpr-33-2", "controller") + ".due_basis")).isEqualTo("TARGET");
        assertThat(o.getString(of(null, "nis2-23-4a", "csirt:FR") + ".condition")).isEqualTo("UNDECIDED");
        assertThat(Api.admin().get(base + "/tenants/" + ghost + "/obligations").then().statusCode(200).extract()
                .jsonPath().getList("rule")).containsExactly("gdpr-33-2");
        Api.admin().get(base + "/tenants/nobody/obligations").then().statusCode(404)
                .contentType("application/problem+json").body("detail", containsString("no exposure"));
        Api.admin().get("/api/incidents/" + UUID.randomUUID() + "/obligations").then().statusCode(404);

        // the controller's awareness recorded (told by telephone): checked, then it starts its 72 hours; our alert
        // stays due until it is delivered (GDPR Art. 33(2))
        Instant aware = detected.plus(Duration.ofMinutes(30));
        put("{\"aware_at\":\"" + detected.minusSeconds(60) + "\",\"evidence\":\"ack\"}")
                .put(base + "/tenants/" + bank + "/awareness").then().statusCode(400)
                .body("detail", containsString("before the incident was detected"));
        put("{\"aware_at\":\"" + detected.plus(Duration.ofDays(2)) + "\",\"evidence\":\"ack\"}")
                .put(base + "/tenants/" + bank + "/awareness").then().statusCode(400)
                .body("detail", containsString("in the future"));
        put("{\"aware_at\":\"yesterday\"}").put(base + "/tenants/" + bank + "/awareness").then().statusCode(400)
                .body("detail", containsString("RFC 3339"));
        put("{\"aware_at\":\"" + aware + "\",\"evidence\":\"acknowledged by the DPO's e-mail\"}")
                .put(base + "/tenants/" + bank + "/awareness").then().statusCode(200)
                .body("controller_aware_at", equalTo(aware.toString()))
                .body("decisions_allowed", Matchers.hasItems("major", "unlikely_risk"));
        o = obligations(id);
        assertThat(o.getString(of(bank, "gdpr-33-2", "controller") + ".status")).isEqualTo("PENDING");
        assertThat(o.getString(of(bank, "gdpr-33-1", "supervisory_authority:FR") + ".due_at"))
                .isEqualTo(aware.plus(Duration.ofHours(72)).toString());

        // decisions: only those of the case's rules, with a justification
        put("{\"value\":true,\"justification\":\"x\"}").put(base + "/tenants/" + bank + "/decisions/bogus").then()
                .statusCode(400).body("detail", containsString("one of disproportionate_effort, "
                        + "financial_interests_affected, high_risk_no_longer_likely, major,"));
        put("{\"justification\":\"x\"}").put(base + "/tenants/" + bank + "/decisions/major").then().statusCode(400)
                .body("detail", containsString("'value'"));
        put("{\"value\":true}").put(base + "/tenants/" + bank + "/decisions/major").then().statusCode(400)
                .body("detail", containsString("'justification' is required"));
        Instant major = detected.plus(Duration.ofMinutes(50));
        put("{\"value\":true,\"decided_at\":\"" + major + "\",\"justification\":\"clients' data, 2 countries\"}")
                .put(base + "/tenants/" + bank + "/decisions/major").then().statusCode(200)
                .body("decisions[0].name", equalTo("major"));
        assertThat(obligations(id).getString(of(bank, "dora-19-initial", "financial_authority:FR") + ".due_at"))
                .isEqualTo(major.plus(Duration.ofHours(4)).toString());

        // severity: ENISA's inputs checked and scored; the controller's override wins, with its reasons
        put("{\"inputs\":{\"category\":\"secret\",\"adjustment\":0,\"ei\":\"limited\",\"confidentiality\":"
                + "\"unknown_recipients\",\"integrity\":\"none\",\"availability\":\"none\"},"
                + "\"override\":{\"level\":\"HUGE\"}}").put(base + "/tenants/" + bank + "/severity").then()
                .statusCode(400).body("detail", containsString("'category' must be one of"))
                .body("detail", containsString("'override.level' must be one of"))
                .body("detail", containsString("'override.justification' is required"));
        put("{\"inputs\":{\"category\":\"financial\",\"adjustment\":0,\"ei\":\"significant\",\"confidentiality\":"
                + "\"unknown_recipients\",\"integrity\":\"none\",\"availability\":\"none\"}}")
                .put(base + "/tenants/" + bank + "/severity").then().statusCode(200)
                .body("severity.suggested.score", equalTo(2.75f)).body("severity.level", equalTo("MEDIUM"));
        assertThat(obligations(id).getString(of(bank, "gdpr-34", "data_subjects") + ".status"))
                .isEqualTo("NOT_REQUIRED");
        put("{\"inputs\":{\"category\":\"financial\",\"adjustment\":0,\"ei\":\"significant\",\"confidentiality\":"
                + "\"unknown_recipients\",\"integrity\":\"none\",\"availability\":\"none\"},"
                + "\"override\":{\"level\":\"high\",\"justification\":\"IBANs of vulnerable clients\"}}")
                .put(base + "/tenants/" + bank + "/severity").then().statusCode(200)
                .body("severity.level", equalTo("HIGH")).body("severity.suggested.level", equalTo("MEDIUM"))
                .body("severity.basis", containsString("IBANs of vulnerable clients"));
        assertThat(obligations(id).getString(of(bank, "gdpr-34", "data_subjects") + ".status")).isEqualTo("PENDING");

        // completions: late ones give their reasons; a phased notification goes INITIAL then COMPLEMENTARY
        MovableClock.INSTANCE.set(aware.plus(Duration.ofHours(80)));
        String cnil = base + "/tenants/" + bank + "/obligations/gdpr-33-1/supervisory_authority:FR/completions";
        String late = aware.plus(Duration.ofHours(79)).toString();
        put("{\"done_at\":\"" + late + "\",\"evidence\":\"CNIL-2026-0042\"}").post(cnil).then().statusCode(400)
                .body("detail", containsString("'late_reasons' is required"));
        put("{\"done_at\":\"" + late + "\"}").post(cnil).then().statusCode(400)
                .body("detail", containsString("'evidence' is required"));
        put("{\"done_at\":\"" + late + "\",\"evidence\":\"CNIL-2026-0042\",\"late_reasons\":\"the scope took 3 days\"}")
                .post(cnil).then().statusCode(201).body("status", equalTo("DONE")).body("done_late", equalTo(true))
                .body("completions[0].phase", equalTo("INITIAL"));
        put("{\"done_at\":\"" + late + "\",\"evidence\":\"again\",\"phase\":\"INITIAL\",\"late_reasons\":\"x\"}")
                .post(cnil).then().statusCode(409);
        put("{\"done_at\":\"" + late + "\",\"evidence\":\"CNIL-2026-0042-2\"}").post(cnil).then().statusCode(201)
                .body("completions[1].phase", equalTo("COMPLEMENTARY"));
        String register = base + "/tenants/" + bank + "/obligations/gdpr-33-5/register/completions";
        put("{\"done_at\":\"" + late + "\",\"evidence\":\"register entry 12\"}").post(register).then()
                .statusCode(201);
        put("{\"done_at\":\"" + late + "\",\"evidence\":\"register entry 13\"}").post(register).then()
                .statusCode(409).body("detail", containsString("already recorded done"));
        put("{\"done_at\":\"" + late + "\",\"evidence\":\"x\"}")
                .post(base + "/tenants/" + bank + "/obligations/gdpr-33-1/ico/completions").then().statusCode(404)
                .body("detail", containsString("gdpr-33-1 toward supervisory_authority:FR"));
        put("{\"done_at\":\"" + detected.plus(Duration.ofHours(20)) + "\",\"evidence\":\"CERT-FR 7731\"}")
                .post(base + "/obligations/nis2-23-4a/csirt:FR/completions").then().statusCode(201)
                .body("status", equalTo("DONE")).body("tenant", equalTo(null));
        put("{\"value\":false,\"justification\":\"below the thresholds of Implementing Regulation 2024/2690\"}")
                .put(base + "/decisions/significant").then().statusCode(200);
        o = obligations(id);
        assertThat(o.getString(of(null, "nis2-23-4b", "csirt:FR") + ".status")).isEqualTo("NOT_REQUIRED");
        assertThat(o.getString(of(bank, "dora-19-intermediate", "financial_authority:FR") + ".status"))
                .isEqualTo("LATE");

        // roles
        Api.account("auditor5", "auditor", null);
        Api.as("auditor5", "auditor5-password").get(base + "/obligations").then().statusCode(200);
        Api.as("auditor5", "auditor5-password").contentType(JSON).body("{\"value\":true,\"justification\":\"x\"}")
                .put(base + "/tenants/" + bank + "/decisions/major").then().statusCode(403);
        RestAssured.given().get(base + "/obligations").then().statusCode(401);

        // (the customer alerts' own events, alert.*, are AlertDeliveryTest's; this moved clock escalates them too)
        Map<String, Long> actions = new HashMap<>(auditActions(id));
        actions.keySet().removeIf(a -> a.startsWith("alert."));
        assertThat(actions).containsExactlyInAnyOrderEntriesOf(Map.of("case.awareness", 1L,
                "case.decision", 2L, "case.severity", 2L, "obligation.completion", 4L));
    }

    @Test
    void escalationsAreWrittenOnceEachAsTheClockMovesEvenFromSeveralCheckersAtOnce() throws Exception {
        String p = Api.uniquePrefix();
        String acme = p + "-acme";
        tenant(acme, "FR", "[]", null);
        String id = Api.leakingIncident(p, acme, p + "-ghost");
        Instant detected = detectedAt(id);
        String alert = of(acme, "gdpr-33-2", "controller");
        MovableClock.INSTANCE.set(detected.plus(Duration.ofMinutes(10)));
        put("{\"value\":true,\"decided_at\":\"" + detected + "\",\"justification\":\"customers' prompts\"}")
                .put("/api/incidents/" + id + "/decisions/significant").then().statusCode(200);

        tick(detected.plus(Duration.ofHours(1)));
        assertThat(steps(id, acme, "gdpr-33-2")).containsExactly("T-24H");
        tick(detected.plus(Duration.ofHours(2)));
        tick(detected.plus(Duration.ofHours(17)).plusSeconds(59 * 60));
        assertThat(steps(id, acme, "gdpr-33-2")).containsExactly("T-24H");
        tick(detected.plus(Duration.ofHours(18)));
        assertThat(steps(id, acme, "gdpr-33-2")).containsExactly("T-24H", "T-6H");

        // four checkers at the same moment, as four instances would: each step written once
        Instant oneHourBefore = detected.plus(Duration.ofHours(23)).plusSeconds(30);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Integer>> runs = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                runs.add(pool.submit(() -> escalations.tick(oneHourBefore)));
            }
            for (Future<Integer> f : runs) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
        assertThat(steps(id, acme, "gdpr-33-2")).containsExactly("T-24H", "T-6H", "T-1H");
        assertThat(steps(id, null, "nis2-23-4a")).containsExactly("T-24H", "T-6H", "T-1H");

        MovableClock.INSTANCE.set(detected.plus(Duration.ofHours(25)));
        assertThat(obligations(id).getString(alert + ".status")).isEqualTo("LATE");
        // past a target the law does not bound (no contract, "without undue delay"), the page does not say "late"
        assertThat(obligations(id).getString(alert + ".due_basis")).isEqualTo("TARGET");
        Api.account(p + "-dpo", "dpo", null);
        String page = DashboardActionsTest.signIn(p + "-dpo", p + "-dpo-password", "/incidents/" + id)
                .page("/incidents/" + id + "?lang=fr");
        assertThat(page).contains("<td>objectif dépassé</td>");
        tick(detected.plus(Duration.ofHours(25)));
        List<Map<String, Object>> rows = Api.admin().get("/api/incidents/" + id + "/escalations").then()
                .statusCode(200).extract().jsonPath().getList("findAll { it.tenant == '" + acme
                        + "' && it.rule == 'gdpr-33-2' }");
        assertThat(rows).extracting(r -> r.get("step")).containsExactly("T-24H", "T-6H", "T-1H", "OVERDUE");
        assertThat(rows.get(3).get("status")).isEqualTo("LATE");
        assertThat(rows.get(1).get("fire_at")).isEqualTo(detected.plus(Duration.ofHours(18)).toString());

        // the controller's awareness recorded: its own clock starts (our alert, past its last step, stays late)
        Instant aware = detected.plus(Duration.ofHours(26));
        MovableClock.INSTANCE.set(aware.plusSeconds(60));
        put("{\"aware_at\":\"" + aware + "\",\"evidence\":\"webhook 200\"}")
                .put("/api/incidents/" + id + "/tenants/" + acme + "/awareness").then().statusCode(200);
        tick(aware.plus(Duration.ofHours(48)));
        assertThat(steps(id, acme, "gdpr-33-1")).containsExactly("T-24H");
        assertThat(steps(id, acme, "gdpr-33-2")).hasSize(4);
        long feed = Api.admin().get("/api/escalations?after=0&limit=1000").then().statusCode(200).extract()
                .jsonPath().getList("findAll { it.incident_id == '" + id + "' }").size();
        assertThat(feed).isEqualTo(Api.admin().get("/api/incidents/" + id + "/escalations").then().extract()
                .jsonPath().getList("id").size());
        // the incident report's timeline shows each reminder sent once (a step skipped at a check that sent a later
        // one of its deadline is named in that one's event)
        long sent = Api.admin().get("/api/incidents/" + id + "/escalations").then().extract().jsonPath()
                .getList("findAll { !it.skipped }").size();
        assertThat(sent).isPositive().isLessThan(feed);
        List<Object> reminders = Api.admin().get("/api/incidents/" + id + "/documents/incident-report.json").then()
                .statusCode(200).extract().jsonPath().getList("timeline.findAll { it.action == 'obligation.escalation' }");
        assertThat(reminders).hasSize((int) sent);
        // a database of before issue 45 also holds one audit event per reminder: the timeline, which reads the
        // reminders from their rows, does not show them twice
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(
                "insert into audit_event (at, actor, action, target, after) values (now(), 'system',"
                        + " 'obligation.escalation', ?, '{\"step\":\"T-24H\"}'::jsonb)")) {
            ps.setString(1, "incident:" + id + "/tenant:" + acme + "/gdpr-33-2/controller");
            ps.executeUpdate();
        }
        assertThat(Api.admin().get("/api/incidents/" + id + "/documents/incident-report.json").then().statusCode(200)
                .extract().jsonPath().getList("timeline.findAll { it.action == 'obligation.escalation' }"))
                .as("an older per-reminder event beside the rows").hasSize((int) sent);
        Api.admin().get("/api/escalations?limit=0").then().statusCode(400);
        Api.admin().get("/api/escalations?after=abc").then().statusCode(400)
                .contentType("application/problem+json").body("detail", containsString("'after' must be"));
    }

    @Test
    void plansMadeManyAtOnceEqualPlansMadeOneByOne() throws Exception {
        String p = Api.uniquePrefix();
        String bank = p + "-bank";
        tenant(bank, "FR", "[\"financial\"]", "PT12H");
        String rich = Api.leakingIncident(p + "r", bank, p + "-ghost");
        Api.leakingIncident(p + "s", p + "-other", bank);
        Instant detected = detectedAt(rich);
        String base = "/api/incidents/" + rich;
        MovableClock.INSTANCE.set(detected.plus(Duration.ofHours(3)));
        put("{\"aware_at\":\"" + detected.plus(Duration.ofMinutes(30)) + "\",\"evidence\":\"telephone\"}")
                .put(base + "/tenants/" + bank + "/awareness").then().statusCode(200);
        put("{\"value\":true,\"justification\":\"clients' data\"}")
                .put(base + "/tenants/" + bank + "/decisions/major").then().statusCode(200);
        put("{\"inputs\":{\"category\":\"financial\",\"adjustment\":0,\"ei\":\"significant\",\"confidentiality\":"
                + "\"unknown_recipients\",\"integrity\":\"none\",\"availability\":\"none\"}}")
                .put(base + "/tenants/" + bank + "/severity").then().statusCode(200);
        put("{\"done_at\":\"" + detected.plus(Duration.ofHours(2)) + "\",\"evidence\":\"CERT-FR 7731\"}")
                .post(base + "/obligations/nis2-23-4a/csirt:FR/completions").then().statusCode(201);

        // every running incident of the database (the other tests' too), in batches smaller than their number
        Instant now = detected.plus(Duration.ofHours(5));
        Transactions.run(dataSource, c -> {
            List<CaseStore.IncidentRow> running = CaseStore.running(c);
            List<ObligationService.Plan> many = plans.plans(c, running, now, (i, e) -> {
                throw e;
            }, 3);
            List<ObligationService.Plan> one = new ArrayList<>();
            for (CaseStore.IncidentRow i : running) {
                one.add(plans.plan(c, i.id(), now, false).orElseThrow());
            }
            assertThat(running).extracting(i -> i.id().toString()).contains(rich);
            assertThat(many).hasSize(running.size()).isEqualTo(one);
            ObligationService.Plan planned = many.stream().filter(x -> x.incident().id().toString().equals(rich))
                    .findFirst().orElseThrow();
            assertThat(planned.awareness()).containsKey(bank);
            assertThat(planned.decisions().get(bank)).containsKey("major");
            assertThat(planned.severity().get(bank).level()).isEqualTo("MEDIUM");
            assertThat(planned.obligations()).filteredOn(o -> o.rule().equals("nis2-23-4a")).singleElement()
                    .extracting(o -> o.status().name()).isEqualTo("DONE");
            return null;
        });
    }

    @Test
    void anIncidentThatCannotBePlannedDoesNotHoldBackTheOthersReminders() throws Exception {
        String p = Api.uniquePrefix();
        String broken = Api.leakingIncident(p + "x", p + "-acme", p + "-ghost");
        String fine = Api.leakingIncident(p + "y", p + "-bank", p + "-ghost");
        // ENISA inputs stored that no longer read (a number that is not one): this incident's plan fails
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(
                "insert into case_severity (incident_id, tenant, inputs, recorded_by, recorded_at) "
                        + "values (?, ?, '{\"adjustment\":\"many\"}'::jsonb, 'test', now())")) {
            ps.setObject(1, UUID.fromString(broken));
            ps.setString(2, p + "-acme");
            ps.executeUpdate();
        }
        try {
            Instant at = detectedAt(fine).plus(Duration.ofHours(1));
            tick(at);
            assertThat(steps(fine, p + "-bank", "gdpr-33-2")).containsExactly("T-24H");
            assertThat(steps(broken, p + "-acme", "gdpr-33-2")).isEmpty();
        } finally {
            try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(
                    "delete from case_severity where incident_id = ?")) {
                ps.setObject(1, UUID.fromString(broken));
                ps.executeUpdate();
            }
        }
        tick(detectedAt(broken).plus(Duration.ofHours(1)));
        assertThat(steps(broken, p + "-acme", "gdpr-33-2")).containsExactly("T-24H");
    }

    @Test
    void anIncidentDismissedWhileACheckRunsGetsNoReminder() throws Exception {
        String p = Api.uniquePrefix();
        String dismissed = Api.leakingIncident(p + "d", p + "-acme", p + "-ghost");
        String open = Api.leakingIncident(p + "o", p + "-bank", p + "-ghost");
        Instant at = detectedAt(open).plus(Duration.ofHours(1));
        MovableClock.INSTANCE.set(at.minusSeconds(60));
        // the list of running incidents is made, then one of them is dismissed before its batch is checked
        List<UUID> listed = List.of(UUID.fromString(dismissed), UUID.fromString(open));
        Api.admin().contentType(JSON).body("{\"status\":\"DISMISSED\",\"reason\":\"a test harness, no data\"}")
                .post("/api/incidents/" + dismissed + "/status").then().statusCode(200);
        MovableClock.INSTANCE.set(at);
        int written = Transactions.run(dataSource, c -> escalations.check(c, listed, at, Map.of(),
                rules.plannedWith()));
        assertThat(written).isPositive();
        assertThat(steps(open, p + "-bank", "gdpr-33-2")).containsExactly("T-24H");
        assertThat(Api.admin().get("/api/incidents/" + dismissed + "/escalations").then().statusCode(200).extract()
                .jsonPath().getList("step")).isEmpty();
    }

    /**
     * The service down across several steps of one deadline: at the next check only the latest step reached is sent
     * (a reminder in the audit trail naming the steps passed); the earlier ones are recorded as skipped, once.
     */
    @Test
    void afterDowntimeOnlyTheLatestStepIsSentAndTheOthersAreRecordedSkipped() throws Exception {
        String p = Api.uniquePrefix();
        String acme = p + "-acme";
        tenant(acme, "FR", "[]", null);
        String id = Api.leakingIncident(p, acme, p + "-ghost");
        Instant detected = detectedAt(id);
        tick(detected.plus(Duration.ofHours(1)));
        assertThat(steps(id, acme, "gdpr-33-2")).containsExactly("T-24H");
        // no check from 1 h to 25 h after the detection: T-6H, T-1H and the deadline itself passed meanwhile
        tick(detected.plus(Duration.ofHours(25)));
        List<Map<String, Object>> rows = Api.admin().get("/api/incidents/" + id + "/escalations").then()
                .statusCode(200).extract().jsonPath().getList("findAll { it.tenant == '" + acme
                        + "' && it.rule == 'gdpr-33-2' }");
        assertThat(rows).extracting(r -> r.get("step") + (Boolean.TRUE.equals(r.get("skipped")) ? " skipped" : ""))
                .containsExactly("T-24H", "T-6H skipped", "T-1H skipped", "OVERDUE");
        // the audit trail: one event per batch of a check, with its counts and the ids it wrote as runs (issue 45: not
        // one per reminder); the event that wrote the OVERDUE row wrote T-6H and T-1H too (skipped), not T-24H
        Map<String, Long> ids = new HashMap<>();
        rows.forEach(r -> ids.put((String) r.get("step"), ((Number) r.get("id")).longValue()));
        String holds = "exists (select 1 from jsonb_array_elements(after->'ids') r"
                + " where (r->>0)::bigint <= ? and (r->>1)::bigint >= ?)";
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(
                "select id, (after->>'sent')::int, (after->>'skipped')::int from audit_event"
                        + " where action = 'obligation.escalations' and actor = 'system' and " + holds);
                PreparedStatement in = c.prepareStatement("select " + holds + " from audit_event where id = ?");
                PreparedStatement perReminder = c.prepareStatement(
                        "select count(*) from audit_event where action = 'obligation.escalation' and target like ?")) {
            ps.setLong(1, ids.get("OVERDUE"));
            ps.setLong(2, ids.get("OVERDUE"));
            List<long[]> events = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    events.add(new long[] {rs.getLong(1), rs.getInt(2), rs.getInt(3)});
                }
            }
            assertThat(events).as("the one event of the batch that wrote the OVERDUE reminder").hasSize(1);
            assertThat(events.get(0)[1]).as("sent").isPositive();
            assertThat(events.get(0)[2]).as("skipped: T-6H and T-1H at least").isGreaterThanOrEqualTo(2);
            for (String step : List.of("T-24H", "T-6H", "T-1H", "OVERDUE")) {
                in.setLong(1, ids.get(step));
                in.setLong(2, ids.get(step));
                in.setLong(3, events.get(0)[0]);
                try (ResultSet rs = in.executeQuery()) {
                    rs.next();
                    assertThat(rs.getBoolean(1)).as(step + " among the event's ids").isEqualTo(!"T-24H".equals(step));
                }
            }
            perReminder.setString(1, "incident:" + id + "/%");
            try (ResultSet rs = perReminder.executeQuery()) {
                rs.next();
                assertThat(rs.getLong(1)).as("no audit event per reminder").isZero();
            }
        }
        // a check again: nothing more, the skipped steps are not sent later
        tick(detected.plus(Duration.ofHours(26)));
        assertThat(steps(id, acme, "gdpr-33-2")).hasSize(4);
    }

    private void tick(Instant at) throws Exception {
        MovableClock.INSTANCE.set(at);
        escalations.tick(at);
    }

    static List<String> steps(String id, String tenant, String rule) {
        return Api.admin().get("/api/incidents/" + id + "/escalations").then().statusCode(200).extract().jsonPath()
                .getList("findAll { it.tenant " + (tenant == null ? "== null" : "== '" + tenant + "'")
                        + " && it.rule == '" + rule + "' }.step");
    }

    private Map<String, Long> auditActions(String id) throws Exception {
        Map<String, Long> out = new HashMap<>();
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(
                "select action, count(*) from audit_event where target like ? and action <> "
                        + "'obligation.escalation' group by action")) {
            ps.setString(1, "incident:" + id + "%");
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getString(1), rs.getLong(2));
                }
            }
        }
        return out;
    }
}
