package app.vigie.compliance.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.inject.Inject;

import org.hamcrest.Matchers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;

import app.vigie.runtime.log.AuditLogWriter;
import app.vigie.runtime.log.PageRun;
import app.vigie.testing.Api;
import app.vigie.testing.Logs;
import app.vigie.testing.MovableClock;

/**
 * The reminder check plans only the incidents whose plan may have changed (V26): each kind of fact a plan reads,
 * changed by its own path, marks the incident; nothing else does; the time it saves to look again is the next step;
 * and a full check run right after each incremental one finds nothing more to write or save.
 */
@QuarkusTest
class IncrementalCheckTest {
    private static final String JSON = "application/json";

    @Inject
    AgroalDataSource dataSource;

    @Inject
    EscalationScheduler escalations;

    @AfterEach
    void resetClock() {
        MovableClock.INSTANCE.reset();
    }

    @Test
    void eachFactChangedPlansItsIncidentAgainAndAFullCheckAfterwardsFindsNothingMore() throws Exception {
        String p = Api.uniquePrefix();
        String bank = p + "-bank";
        String other = p + "-other";
        ObligationApiTest.tenant(bank, "FR", "[\"financial\"]", "PT12H");
        ObligationApiTest.tenant(other, "FR", "[]", null);
        String id = Api.leakingIncident(p, bank, p + "-ghost");
        UUID uuid = UUID.fromString(id);
        String base = "/api/incidents/" + id;
        Instant detected = ObligationApiTest.detectedAt(id);

        Instant at = detected.plus(Duration.ofHours(1));
        check(at, true);
        assertThat(deadline(uuid).plannedAt()).isEqualTo(at);
        assertThat(deadline(uuid).checkAt()).as("a step is ahead").isAfter(at);
        assertThat(changes(uuid)).isZero();

        // nothing changed, no step reached: not planned
        at = at.plusSeconds(60);
        check(at, false);
        assertThat(deadline(uuid).plannedAt()).isEqualTo(at.minusSeconds(60));
        fullCheckFindsNothingMore(uuid, at);
        assertThat(deadline(uuid).plannedAt()).isEqualTo(at);

        // each fact a plan reads, changed by its own path, marks the incident (a row of plan_change)
        Instant aware = detected.plus(Duration.ofMinutes(30));
        at = changed(uuid, at, () -> ObligationApiTest.put("{\"aware_at\":\"" + aware
                + "\",\"evidence\":\"telephone\"}").put(base + "/tenants/" + bank + "/awareness").then()
                .statusCode(200));
        at = changed(uuid, at, () -> ObligationApiTest.put("{\"value\":true,\"justification\":\"clients' data\"}")
                .put(base + "/tenants/" + bank + "/decisions/major").then().statusCode(200));
        at = changed(uuid, at, () -> ObligationApiTest.put("{\"inputs\":{\"category\":\"financial\","
                + "\"adjustment\":0,\"ei\":\"significant\",\"confidentiality\":\"unknown_recipients\","
                + "\"integrity\":\"none\",\"availability\":\"none\"}}").put(base + "/tenants/" + bank + "/severity")
                .then().statusCode(200));
        Instant done = at;
        at = changed(uuid, at, () -> ObligationApiTest.put("{\"done_at\":\"" + done.minusSeconds(60)
                + "\",\"evidence\":\"CERT-FR 7731\"}").post(base + "/obligations/nis2-23-4a/csirt:FR/completions")
                .then().statusCode(201));
        at = changed(uuid, at, () -> ObligationApiTest.tenant(bank, "FR", "[\"financial\"]", "PT6H"));
        // a tenant of the incident becomes exposed: the counters the intake keeps (V13) get its row (a financial
        // entity: DORA's initial notification is due 24 hours after its awareness while it has not classified the
        // incident, and that cap lapses when they pass undecided, time alone changing its plan)
        String late = p + "-late";
        notChanged(uuid, () -> ObligationApiTest.tenant(late, "FR", "[\"financial\"]", null));
        at = changed(uuid, at, () -> leak(p, "s2", late, p + "-ghost"));
        assertThat(ObligationApiTest.obligations(id).getList("findAll { it.tenant == '" + late + "' }"))
                .isNotEmpty();
        // an alert of the incident delivered: the controller's clock starts (the intake planned the tenant's first
        // alert; a delivery held for the DPO, then recorded delivered, as the delivery worker records it)
        sql("""
                insert into alert_delivery (alert_id, channel, target, status, attempts, next_attempt_at, updated_at)
                select id, 'webhook', 'https://late.example/hook', 'HELD', 0, now(), now() from customer_alert
                where incident_id = ?::uuid and tenant = ? and phase = 'INITIAL'""", id, late);
        assertThat(changes(uuid)).as("an alert not delivered changes no plan").isZero();
        Instant delivered = at;
        at = changed(uuid, at, () -> sql("update alert_delivery set status = 'DELIVERED', delivered_at = ?"
                + " where target = 'https://late.example/hook' and alert_id = (select id from customer_alert"
                + " where incident_id = ?::uuid and tenant = ? and phase = 'INITIAL')", Timestamp.from(delivered), id,
                late));

        // what a plan does not read leaves the incident alone
        notChanged(uuid, () -> ObligationApiTest.tenant(other, "FR", "[\"health\"]", null));
        // another request of the same tenant read: its counts grow, it was exposed already
        notChanged(uuid, () -> leak(p, "s3", late, p + "-ghost"));
        assertThat(Api.admin().get("/api/incidents/" + id + "/tenants").then().statusCode(200).extract().jsonPath()
                .getInt("find { it.tenant == '" + late + "' }.exposed_requests")).isEqualTo(2);

        // time alone: planned again exactly at the next step, which is written then, and so on
        int stepsWritten = 0;
        String dora = ObligationApiTest.of(late, "dora-19-initial", "financial_authority:FR");
        assertThat(ObligationApiTest.obligations(id).getString(dora + ".due_at"))
                .isEqualTo(delivered.plus(Duration.ofHours(24)).toString());
        for (int i = 0; i < 60; i++) {
            Instant next = deadline(uuid).checkAt();
            if (next == null || next.isAfter(delivered.plus(Duration.ofHours(30)))) {
                break;
            }
            Instant before = deadline(uuid).plannedAt();
            if (next.equals(before)) {
                // a status judged at its very instant (late only past it): planned again just after
                next = next.plusMillis(1);
                check(next, false);
                assertThat(deadline(uuid).plannedAt()).isEqualTo(next);
                assertThat(deadline(uuid).checkAt()).isNotEqualTo(next);
                fullCheckFindsNothingMore(uuid, next);
                at = next;
                continue;
            }
            check(next.minusMillis(1), false);
            assertThat(deadline(uuid).plannedAt()).as("not before its step").isEqualTo(before);
            // and nothing was due before it: a full check just before writes nothing either
            fullCheckFindsNothingMore(uuid, next.minusMillis(1));
            int steps = escalationsOf(id).size();
            check(next, false);
            assertThat(deadline(uuid).plannedAt()).isEqualTo(next);
            assertThat(escalationsOf(id).size()).as("a step written at " + next).isGreaterThan(steps);
            fullCheckFindsNothingMore(uuid, next);
            stepsWritten++;
            at = next;
        }
        assertThat(stepsWritten).as("steps reached one after the other").isGreaterThanOrEqualTo(3);
        assertThat(at).isAfter(delivered.plus(Duration.ofHours(24)));
        MovableClock.INSTANCE.set(at);
        assertThat(ObligationApiTest.obligations(id).getString(dora + ".due_at")).as("the cap lapsed").isNull();

        // dismissed: marked, then no longer planned, and its marks are deleted
        at = at.plusSeconds(60);
        MovableClock.INSTANCE.set(at);
        Api.admin().contentType(JSON).body("{\"status\":\"DISMISSED\",\"reason\":\"a test harness, no data\"}")
                .post(base + "/status").then().statusCode(200);
        assertThat(changes(uuid)).isPositive();
        Instant last = deadline(uuid).plannedAt();
        check(at, false);
        assertThat(changes(uuid)).isZero();
        assertThat(deadline(uuid).plannedAt()).isEqualTo(last);
    }

    /** Runs a change at a minute past {@code at}; checks it marked the incident, then that a check plans it. */
    private Instant changed(UUID id, Instant at, Change change) throws Exception {
        Instant now = at.plusSeconds(60);
        MovableClock.INSTANCE.set(now);
        change.run();
        assertThat(changes(id)).as("the change marked the incident").isPositive();
        check(now, false);
        assertThat(deadline(id).plannedAt()).isEqualTo(now);
        assertThat(changes(id)).isZero();
        fullCheckFindsNothingMore(id, now);
        return now;
    }

    /**
     * Through the intake, on a stream of its own in the incident's deployment: a request of {@code victim} written,
     * then read by a request of {@code reader}.
     */
    private static void leak(String p, String stream, String victim, String reader) {
        Instant t = Instant.parse("2026-08-27T10:00:00Z");
        List<String> lines = new ArrayList<>();
        AuditLogWriter w = new AuditLogWriter(p + "/" + stream, p + "/dep", "b1", lines::add);
        List<PageRun> pages = List.of(new PageRun(0, 2));
        w.config(t, 4, 16, 64, 60);
        w.alloc(t, p + stream + "v", victim, pages, "PREFILL", null);
        w.write(t, p + stream + "v", victim, 0, 8, "COMPUTE", null);
        w.free(t, p + stream + "v", pages, "FINISH");
        w.alloc(t, p + stream + "r", reader, pages, "PREFILL", null);
        w.attach(t, p + stream + "r", reader, 8);
        w.finish(t, p + stream + "r", reader, "STOP", 200, 3, true);
        Api.post(Logs.body(lines)).then().statusCode(200).body("accepted", Matchers.equalTo(lines.size()));
    }

    private void notChanged(UUID id, Change change) throws Exception {
        change.run();
        assertThat(changes(id)).isZero();
    }

    /**
     * A full check at the same instant writes no step and saves the same deadlines as the incremental one (and the
     * same time to look again).
     */
    private void fullCheckFindsNothingMore(UUID id, Instant at) throws Exception {
        List<Map<String, Object>> steps = escalationsOf(id.toString());
        Deadline saved = deadline(id);
        check(at, true);
        assertThat(escalationsOf(id.toString())).isEqualTo(steps);
        assertThat(deadline(id)).usingRecursiveComparison().ignoringFields("plannedAt").isEqualTo(saved);
    }

    private void check(Instant at, boolean full) throws Exception {
        MovableClock.INSTANCE.set(at);
        escalations.tick(at, full);
    }

    private static List<Map<String, Object>> escalationsOf(String id) {
        return Api.admin().get("/api/incidents/" + id + "/escalations").then().statusCode(200).extract()
                .jsonPath().getList("");
    }

    record Deadline(Instant plannedAt, Instant checkAt, String dueAt, String lateAfter, String plannedWith) {
    }

    private Deadline deadline(UUID id) throws SQLException {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(
                "select planned_at, check_at, due_at::text, late_after::text, planned_with from incident_deadline"
                        + " where incident_id = ?")) {
            ps.setObject(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.next()).as("deadlines saved").isTrue();
                Timestamp check = rs.getTimestamp(2);
                return new Deadline(rs.getTimestamp(1).toInstant(), check == null ? null : check.toInstant(),
                        rs.getString(3), rs.getString(4), rs.getString(5));
            }
        }
    }

    private long changes(UUID id) throws SQLException {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(
                "select count(*) from plan_change where incident_id = ?")) {
            ps.setObject(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private void sql(String sql, Object... params) {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @FunctionalInterface
    private interface Change {
        void run() throws Exception;
    }
}
