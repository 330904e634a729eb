package app.vigie.retention;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import jakarta.inject.Inject;

import org.hamcrest.Matchers;
import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

import app.vigie.runtime.log.AuditLogWriter;
import app.vigie.runtime.log.PageRun;
import app.vigie.testing.Api;
import app.vigie.testing.Logs;

/**
 * The retention job (docs/operations.md, "Retention") against the real intake and detection: what it deletes, what it
 * keeps as an incident's evidence, and that a kept incident's findings and exposures are judged again from what is
 * left (the evidence check), while one whose evidence period ended shows that its records are gone. Ages rows by SQL
 * (the periods are days and years) and runs at the real time: the other tests' rows, all recent, are never due.
 */
@QuarkusTest
class RetentionTest {
    private static final Instant T = Instant.parse("2026-08-27T09:00:00Z");

    @Inject
    AgroalDataSource dataSource;

    @Inject
    RetentionService retention;

    @Test
    void aPurgeKeepsEveryIncidentsEvidenceAndItsFindingsReVerifiable() throws Exception {
        String p = Api.uniquePrefix();
        // K: a prefill/decode breach (a rejected prompt served, cross-tenant reads on the decode pool), closed a day
        // ago after 60 days; one boot of its deployment went silent long before it was detected
        String k = p + "k";
        Api.post(Api.renamed(Api.example("03-pd-rejected-prompt.ndjson"), k)).then().statusCode(200);
        String kDeployment = k + "/glm-5.3/prod-eu";
        String kId = incidentOf(kDeployment);
        close(kId);
        benign(k + "/old", kDeployment);
        // W: a prompt served on a decode pool, then, in a later batch, found rejected on the prefill pool: the
        // finding names the prefill boot; the decode boot, silent since before the incident was detected, is its
        // evidence too
        String w = p + "w";
        String wId = rejectedThenServed(w);
        close(wId);
        // T: a reader attending on two tensor-parallel pools, other positions leaked on each; its finding names
        // one pool, the other pool's reads are evidence of the exposure's size
        String tp = p + "t";
        String tId = readOnTwoPools(tp);
        close(tId);
        // D: a breach dismissed (not closed): its deployment's other boots go, its evidence stays
        String d = p + "d";
        String dId = Api.leakingIncident(d, d + "-acme", d + "-globex");
        Api.admin().contentType("application/json").body("{\"status\": \"DISMISSED\", \"reason\": \"a test\"}")
                .post("/api/incidents/" + dId + "/status").then().statusCode(200);
        benign(d + "/quiet", d + "/dep");
        // O: a breach closed six years ago (its evidence period, five years, has ended)
        String o = p + "o";
        String oId = Api.leakingIncident(o, o + "-acme", o + "-globex");
        close(oId);
        // A: a breach still open; B and C: deployments without incident, B silent for 60 days, C active
        String a = p + "a";
        String aId = Api.leakingIncident(a, a + "-acme", a + "-globex");
        benign(a + "/quiet", a + "/dep");
        benign(p + "b/s", p + "b/dep");
        benign(p + "c/s", p + "c/dep");

        sql("update stream_boot set first_seen_at = now() - interval '61 days', last_seen_at = now() - interval '60 days'"
                + " where stream like ? or stream like ? or stream like ? or stream like ? or stream like ?"
                + " or stream like ?", k + "/eu-par1/%", a + "/%", p + "b/%", w + "/prefill", tp + "/%", d + "/%");
        sql("update stream_boot set first_seen_at = now() - interval '70 days', last_seen_at = now() - interval '69 days'"
                + " where stream = ?", w + "/decode");
        sql("update stream_boot set first_seen_at = now() - interval '200 days', last_seen_at = now() - interval '199 days'"
                + " where stream = ?", k + "/old");
        sql("update incident set detected_at = now() - interval '61 days', closed_at = now() - interval '1 day'"
                + " where id = ?::uuid", kId);
        sql("update incident set detected_at = now() - interval '61 days', closed_at = now() - interval '2 days'"
                + " where id in (?::uuid, ?::uuid)", wId, tId);
        // C's boot as one made before V25: its deployment is read from its first record
        sql("update stream_boot set deployment = null where stream = ?", p + "c/s");
        sql("update stream_boot set first_seen_at = now() - interval '6 years 2 days',"
                + " last_seen_at = now() - interval '6 years 1 day' where stream like ?", o + "/%");
        sql("update incident set detected_at = now() - interval '6 years 2 days', closed_at = now() - interval '6 years'"
                + " where id = ?::uuid", oId);
        sql("update request_fact set touched_at = now() - interval '60 days' where request like ?", p + "%");
        // the quarantine: one rejected line from 100 days ago, one from today
        Api.post("{\"v\": 1, \"old\": \"" + p + "-q-old\"}\n{\"v\": 1, \"new\": \"" + p + "-q-new\"}\n")
                .then().statusCode(200);
        sql("update quarantine set received_at = now() - interval '100 days' where position(convert_to(?, 'UTF8') in raw) > 0",
                p + "-q-old");
        // alerts of K: one delivered 100 days ago, one given up (its text stays for the DPO to send again)
        String deliveredBody = "{\"notice\": \"" + p + " delivered\"}";
        alert(kId, p + "-delivered", deliveredBody, "DELIVERED");
        alert(kId, p + "-dead", "{\"notice\": \"" + p + " dead\"}", "DEAD");
        alert(kId, p + "-mixed", "{\"notice\": \"" + p + " mixed\"}", "DELIVERED");
        sql("""
                insert into alert_delivery (alert_id, channel, target, status, attempts, next_attempt_at, updated_at)
                select id, 'email', 'dpo@acme.example', 'HELD', 0, now(), now() from customer_alert
                where idempotency_key = ?""", p + "-mixed");

        RetentionService.Run run = retention.run(Instant.now(), "test");
        assertThat(run.skipped()).isFalse();

        // records: K's two pools kept (cited by its findings, alive while it ran), A's kept (open incident on its
        // deployment, the quiet boot too); K's boot from before it, O's, B's deleted; C's recent one kept
        assertThat(purged(k + "/eu-par1/n17/prefill/dp0")).isFalse();
        assertThat(purged(k + "/eu-par1/n21/decode/dp0")).isFalse();
        assertThat(purged(a + "/s")).isFalse();
        assertThat(purged(a + "/quiet")).isFalse();
        assertThat(purged(p + "c/s")).isFalse();
        assertThat(purged(w + "/prefill")).isFalse();
        assertThat(purged(w + "/decode")).isFalse();
        assertThat(purged(tp + "/tp0")).isFalse();
        assertThat(purged(tp + "/tp1")).isFalse();
        assertThat(purged(d + "/s")).isFalse();
        assertThat(purged(d + "/quiet")).isTrue();
        assertThat(string("select deployment from stream_boot where stream = ?", p + "c/s")).isEqualTo(p + "c/dep");
        assertThat(purged(k + "/old")).isTrue();
        // what a purged boot sent and read of received positions goes with it; a kept boot keeps its own
        assertThat(string("select count(*) from transfer_send where stream = ?", p + "b/s")).isEqualTo("0");
        assertThat(string("select count(*) from transfer_read where stream = ?", p + "b/s")).isEqualTo("0");
        assertThat(string("select count(*) from transfer_send where stream = ?", p + "c/s")).isEqualTo("1");
        assertThat(string("select count(*) from transfer_read where stream = ?", p + "c/s")).isEqualTo("1");
        assertThat(purged(o + "/s")).isTrue();
        assertThat(purged(p + "b/s")).isTrue();
        assertThat(count("select count(*) from record_segment g join stream_boot s on s.id = g.stream_boot_id"
                + " where s.stream in (?, ?, ?)", k + "/old", o + "/s", p + "b/s")).isZero();
        assertThat(run.boots()).isGreaterThanOrEqualTo(4);
        assertThat(run.records()).isGreaterThanOrEqualTo(3 * 6 + 7);  // B's, K's old boot, D's quiet one, O's
        assertThat(run.segments()).isGreaterThanOrEqualTo(4);
        assertThat(run.deploymentsFound()).isGreaterThanOrEqualTo(1);

        // the evidence of K and A is judged again: every finding and exposure follows from what was kept
        JsonPath kCheck = check(kId);
        assertThat(kCheck.getBoolean("reproduced")).as(kCheck.prettify()).isTrue();
        assertThat(kCheck.getInt("boots")).isEqualTo(2);
        assertThat(kCheck.getInt("findings")).isGreaterThanOrEqualTo(3);
        assertThat(kCheck.getInt("exposures")).isGreaterThanOrEqualTo(2);
        assertThat(kCheck.getList("findings_not_reproduced")).isEmpty();
        JsonPath wCheck = check(wId);
        assertThat(wCheck.getBoolean("reproduced")).as(wCheck.prettify()).isTrue();
        assertThat(wCheck.getInt("boots")).isEqualTo(2);
        assertThat(wCheck.getInt("findings")).isEqualTo(1);
        JsonPath tCheck = check(tId);
        assertThat(tCheck.getBoolean("reproduced")).as(tCheck.prettify()).isTrue();
        assertThat(tCheck.getInt("boots")).isEqualTo(2);
        assertThat(tCheck.getInt("exposures")).isEqualTo(1);
        JsonPath dCheck = check(dId);
        assertThat(dCheck.getBoolean("reproduced")).as(dCheck.prettify()).isTrue();
        JsonPath aCheck = check(aId);
        assertThat(aCheck.getBoolean("reproduced")).as(aCheck.prettify()).isTrue();
        assertThat(aCheck.getInt("exposures")).isEqualTo(1);
        // O's records are gone: its finding and exposure stay stored, but nothing left proves them
        JsonPath oCheck = check(oId);
        assertThat(oCheck.getBoolean("reproduced")).isFalse();
        assertThat(oCheck.getInt("boots_purged")).isEqualTo(1);
        assertThat(oCheck.getList("findings_not_reproduced", String.class))
                .anySatisfy(s -> assertThat(s).startsWith("CROSS_TENANT_READ " + o + "b"));
        assertThat(oCheck.getList("exposures_not_reproduced", String.class))
                .containsExactly(o + "a read by " + o + "b: 8 tokens stored, 0 judged again from the kept records");

        // a late record of a deleted boot is rejected with why, and kept
        List<String> late = new ArrayList<>();
        new AuditLogWriter(p + "b/s", p + "b/dep", "b1", late::add).heartbeat(T);
        String lateLine = late.get(0).replace("\"seq\":1", "\"seq\":7").replace("\"seq\": 1", "\"seq\": 7");
        Api.post(lateLine + "\n").then().statusCode(200).body("rejected[0].reason",
                Matchers.allOf(Matchers.containsString("its records were deleted on"),
                        Matchers.containsString("retention policy")));

        // request facts: those K's and A's findings and exposures cite stay; the rest of the aged ones go
        assertThat(fact(k + "/gw-0006")).isTrue();   // a reader of K
        assertThat(fact(a + "b")).isTrue();          // A's reader
        assertThat(fact(a + "a")).isFalse();         // A's victim: cited by no finding of its own
        assertThat(fact(o + "b")).isFalse();         // O's reader: O's evidence period ended
        assertThat(fact(p + "b/s-r0")).isFalse();
        assertThat(fact(p + "c/s-r0")).isFalse();    // aged too: facts are not records
        assertThat(run.requestFacts()).isGreaterThanOrEqualTo(5);

        // the quarantine keeps today's line only
        assertThat(count("select count(*) from quarantine where position(convert_to(?, 'UTF8') in raw) > 0",
                p + "-q-old"))
                .isZero();
        assertThat(count("select count(*) from quarantine where position(convert_to(?, 'UTF8') in raw) > 0",
                p + "-q-new"))
                .isEqualTo(1);

        // the delivered alert keeps the SHA-256 of its text, not the text; the one given up keeps its text
        assertThat(string("select coalesce(body, '') || '|' || body_sha256 from customer_alert where idempotency_key = ?",
                p + "-delivered")).isEqualTo("|" + sha256(deliveredBody));
        assertThat(string("select body from customer_alert where idempotency_key = ?", p + "-dead")).contains(" dead");
        assertThat(string("select body from customer_alert where idempotency_key = ?", p + "-mixed")).contains(" mixed");

        // one audit event says what the run deleted and under which policy
        JsonPath event = JsonPath.from(string("select after::text from audit_event where action = 'retention.purge'"
                + " and actor = 'test' order by id desc limit 1"));
        assertThat(event.getLong("boots")).isEqualTo(run.boots());
        assertThat(event.getString("policy.incident_evidence")).isEqualTo("P1826D");

        // a second run finds nothing more of these
        RetentionService.Run again = retention.run(Instant.now(), "test");
        assertThat(purged(k + "/eu-par1/n21/decode/dp0")).isFalse();
        assertThat(check(kId).getBoolean("reproduced")).isTrue();
        assertThat(again.boots()).isZero();
    }

    @Test
    void instancesRunningAtOnceDeleteEachBootOnce() throws Exception {
        String p = Api.uniquePrefix();
        for (int i = 0; i < 8; i++) {
            benign(p + "/s" + i, p + "/dep");
        }
        sql("update stream_boot set first_seen_at = now() - interval '41 days', last_seen_at = now() - interval '40 days'"
                + " where stream like ?", p + "/%");
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<RetentionService.Run>> runs = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                runs.add(pool.submit(() -> {
                    go.await();
                    return retention.run(Instant.now(), "test-at-once");
                }));
            }
            go.countDown();
            long boots = 0;
            for (Future<RetentionService.Run> r : runs) {
                boots += r.get().boots();
            }
            assertThat(count("select count(*) from stream_boot where stream like ? and purged_at is not null",
                    p + "/%")).isEqualTo(8);
            // every boot deleted by exactly one of the runs (none is counted twice)
            assertThat(boots).isEqualTo(8);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void thePolicyAndTheStorageAreShownToTheDpoAndARunIsForAdmins() {
        String p = Api.uniquePrefix();
        benign(p + "/s", p + "/dep");
        String leak = Api.uniquePrefix();
        Api.leakingIncident(leak, leak + "-acme", leak + "-globex");
        Api.account(p + "-dpo", "dpo", null);
        JsonPath state = Api.as(p + "-dpo", p + "-dpo-password").get("/api/retention").then().statusCode(200)
                .extract().jsonPath();
        assertThat(state.getString("policy.records")).isEqualTo("P30D");
        assertThat(state.getString("policy.basis")).contains("Art. 5(1)(e)").contains("no article sets these periods");
        assertThat(state.getLong("storage.records")).isPositive();
        assertThat(state.getDouble("storage.bytes_per_record")).isPositive();
        // where an exposure's bytes are: its rows and indexes, within the table's total (which adds the free space
        // and visibility maps)
        long heap = state.getLong("storage.exposure_parts.heap_bytes");
        long indexes = state.getLong("storage.exposure_parts.index_bytes");
        assertThat(heap).isPositive();
        assertThat(indexes).isPositive();
        assertThat(heap + indexes + state.getLong("storage.exposure_parts.toast_bytes"))
                .isLessThanOrEqualTo(state.getLong("storage.exposure_bytes"));
        Api.as(p + "-dpo", p + "-dpo-password").contentType("application/json").body("{}")
                .post("/api/retention/run").then().statusCode(403);
        Api.admin().contentType("application/json").body("{}").post("/api/retention/run").then().statusCode(200)
                .body("skipped", Matchers.is(false));
    }

    private static String incidentOf(String deployment) {
        return Api.admin().get("/api/incidents").then().statusCode(200).extract().jsonPath()
                .getString("find { it.deployment == '" + deployment + "' }.id");
    }

    private static void close(String id) {
        Api.admin().contentType("application/json").body("{\"status\": \"CONFIRMED\", \"reason\": \"seen\"}")
                .post("/api/incidents/" + id + "/status").then().statusCode(200);
        Api.admin().contentType("application/json").body("{\"status\": \"CLOSED\", \"reason\": \"done\"}")
                .post("/api/incidents/" + id + "/status").then().statusCode(200);
    }

    private static JsonPath check(String id) {
        return Api.admin().get("/api/incidents/" + id + "/evidence-check").then().statusCode(200).extract().jsonPath();
    }

    /**
     * A boot serving one tenant, each request reading only what it wrote or received by a transfer whose sender wrote
     * XFER_SEND (spec v1.1, here on the same stream): twelve records, no finding.
     */
    private static void benign(String stream, String deployment) {
        List<String> lines = new ArrayList<>();
        AuditLogWriter w = new AuditLogWriter(stream, deployment, "b1", lines::add);
        List<PageRun> pages = List.of(new PageRun(0, 1));
        String r = stream + "-r0";
        w.config(T, 16, 8, 128, 100);
        w.alloc(T, r, "acme", pages, "PREFILL", null);
        w.write(T, r, "acme", 0, 16, "COMPUTE", null);
        w.attach(T, r, "acme", 16);
        w.finish(T, r, "acme", "STOP", 200, 1, true);
        w.free(T, r, pages, "FINISH");
        String received = stream + "-r1";
        List<PageRun> second = List.of(new PageRun(1, 1));
        w.alloc(T, received, "acme", second, "PREALLOC", 16);
        w.write(T, received, "acme", 0, 16, "TRANSFER", "t1", null);
        w.xferSend(T, received, "acme", "t1", 0, 16);
        w.attach(T, received, "acme", 16);
        w.finish(T, received, "acme", "STOP", 200, 1, true);
        w.free(T, received, second, "FINISH");
        Api.post(Logs.body(lines)).then().statusCode(200).body("accepted", Matchers.equalTo(12));
    }

    /**
     * A request allocated and answered on a decode pool, posted first; then, in another batch, its rejection at
     * admission on a prefill pool.
     */
    private static String rejectedThenServed(String prefix) {
        String deployment = prefix + "/dep";
        String r = prefix + "-r";
        List<String> served = new ArrayList<>();
        AuditLogWriter decode = new AuditLogWriter(prefix + "/decode", deployment, "b1", served::add);
        List<PageRun> pages = List.of(new PageRun(0, 1));
        decode.config(T, 16, 8, 128, 100);
        decode.alloc(T, r, "acme", pages, "DECODE", null);
        decode.write(T, r, "acme", 0, 16, "TRANSFER", null);
        decode.attach(T, r, "acme", 16);
        decode.finish(T, r, "acme", "STOP", 200, 5, true);
        decode.free(T, r, pages, "FINISH");
        Api.post(Logs.body(served)).then().statusCode(200).body("accepted", Matchers.equalTo(6));
        List<String> rejected = new ArrayList<>();
        AuditLogWriter prefill = new AuditLogWriter(prefix + "/prefill", deployment, "b1", rejected::add);
        prefill.config(T, 16, 8, 128, 100);
        prefill.admit(T, r, "acme", 500, false, "too long");
        Api.post(Logs.body(rejected)).then().statusCode(200).body("accepted", Matchers.equalTo(2));
        return incidentOf(deployment);
    }

    /**
     * Two tensor-parallel pools of one deployment, posted in one batch: a victim writes 8 positions on each, at the
     * start of its page on tp1 and at the end on tp0; a reader of another tenant attends 16 on both, so each pool
     * leaks it other positions: 16 tokens in all. The transaction raises the reader's finding once, on one pool.
     */
    private static String readOnTwoPools(String prefix) {
        List<String> lines = new ArrayList<>();
        for (String rank : List.of("tp1", "tp0")) {
            AuditLogWriter w = new AuditLogWriter(prefix + "/" + rank, prefix + "/dep", "b1", lines::add);
            List<PageRun> page = List.of(new PageRun(0, 1));
            w.config(T, 16, 8, 128, 100);
            w.alloc(T, prefix + "-v", "acme", page, "PREFILL", null);
            w.write(T, prefix + "-v", "acme", rank.equals("tp1") ? 0 : 8, 8, "COMPUTE", null);
            w.free(T, prefix + "-v", page, "FINISH");
            w.alloc(T, prefix + "-r", "globex", page, "PREFILL", null);
            w.write(T, prefix + "-r", "globex", rank.equals("tp1") ? 8 : 0, 8, "COMPUTE", null);
            w.attach(T, prefix + "-r", "globex", 16);
            w.finish(T, prefix + "-r", "globex", "STOP", 200, 3, true);
            w.free(T, prefix + "-r", page, "FINISH");
        }
        Api.post(Logs.body(lines)).then().statusCode(200).body("accepted", Matchers.equalTo(18));
        String id = incidentOf(prefix + "/dep");
        Api.admin().get("/api/incidents/" + id + "/exposures").then().statusCode(200)
                .body("[0].tokens", Matchers.equalTo(16));
        return id;
    }

    /**
     * An alert of 100 days ago and its delivery. Already escalated then: the delivery worker's escalation of
     * unacknowledged alerts would otherwise update (and lock) it while the retention job runs, whose purge skips
     * locked rows (a run later takes them).
     */
    private void alert(String incident, String key, String body, String status) throws SQLException {
        sql("""
                with a as (insert into customer_alert (incident_id, tenant, phase, idempotency_key, created_at,
                  exposed_requests, received_requests, body, ack_token, escalated_at)
                  values (?::uuid, 'acme', 'UPDATE', ?, now() - interval '100 days', 1, 0, ?, ?,
                    now() - interval '99 days') returning id)
                insert into alert_delivery (alert_id, channel, target, status, attempts, next_attempt_at, delivered_at,
                  updated_at)
                select id, 'webhook', 'https://acme.example/hook', ?, 1, now(),
                  case when ? = 'DELIVERED' then now() - interval '100 days' end, now() from a""",
                incident, key, body, key + "-token", status, status);
    }

    private boolean purged(String stream) throws SQLException {
        return count("select count(*) from stream_boot where stream = ? and purged_at is not null", stream) == 1;
    }

    private boolean fact(String request) throws SQLException {
        return count("select count(*) from request_fact where request = ?", request) == 1;
    }

    private void sql(String sql, Object... args) throws SQLException {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = bound(c, sql, args)) {
            assertThat(ps.executeUpdate()).as(sql).isPositive();
        }
    }

    private static PreparedStatement bound(Connection c, String sql, Object... args) throws SQLException {
        PreparedStatement ps = c.prepareStatement(sql);
        for (int i = 0; i < args.length; i++) {
            ps.setObject(i + 1, args[i]);
        }
        return ps;
    }

    private long count(String sql, Object... args) throws SQLException {
        return Long.parseLong(string(sql, args));
    }

    private String string(String sql, Object... args) throws SQLException {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = bound(c, sql, args)) {
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.next()).as(sql).isTrue();
                return rs.getString(1);
            }
        }
    }

    private static String sha256(String s) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
    }
}
