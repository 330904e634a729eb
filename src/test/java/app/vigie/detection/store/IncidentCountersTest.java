package app.vigie.detection.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;

import app.vigie.detection.core.ExposureKind;
import app.vigie.detection.core.ExposureRead;
import app.vigie.detection.core.Ranges;
import app.vigie.detection.core.RequestFact;
import app.vigie.testing.Api;

/**
 * The incident counters the list reads (V23) against the same counts made over the rows, when the two halves of a
 * leaked response (the reader's cross-tenant exposure and its delivered FINISH) are written by two transactions at
 * once, in both orders: the second must wait for the first and count the response; without the reader's facts row
 * held by both, each would miss the other's uncommitted row and the response would never be counted.
 */
@QuarkusTest
class IncidentCountersTest {
    private static final Instant AT = Instant.parse("2026-08-03T10:00:00Z");

    @Inject
    AgroalDataSource dataSource;

    private TwoWriters two;

    @AfterEach
    void stop() {
        if (two != null) {
            two.close();
        }
    }

    @Test
    void aFinishWrittenWhileTheExposureCommitsIsCounted() throws Exception {
        String p = Api.uniquePrefix();
        String deployment = p + "/prod";
        String reader = p + "-reader";
        assertCountedOnce(deployment, exposureOf(deployment, reader, p), finishOf(deployment, reader), reader);
    }

    @Test
    void anExposureWrittenWhileTheFinishCommitsIsCounted() throws Exception {
        String p = Api.uniquePrefix();
        String deployment = p + "/prod";
        String reader = p + "-reader";
        // an exposure whose reader's ATTACH fact is not in the same transaction (judged later than the ATTACH was
        // applied): the store holds the reader's facts row all the same
        DetectionBuffer exposure = exposureOf(deployment, reader, p);
        exposure.facts.clear();
        assertCountedOnce(deployment, finishOf(deployment, reader), exposure, reader);
    }

    @Test
    void aVictimBroughtByTwoTransactionsAtOnceIsCountedOnce() throws Exception {
        String p = Api.uniquePrefix();
        String deployment = p + "/prod";
        // two readers of two tenants read the same victim request, judged on two streams, stored at once
        DetectionBuffer first = exposureOf(deployment, p + "-reader-1", p);
        DetectionBuffer second = new DetectionBuffer();
        second.exposure(new ExposureRead(deployment, ExposureKind.CROSS_TENANT, p + "-reader-2", p + "-initech",
                p + "-victim", p + "-acme", Ranges.of(0, 8), AT, AT, "decode-1", "b1", 3));
        // the second waits for the first (the incident's row, held to its commit), then finds the victim counted
        writeAtOnce(first, second);
        assertThat(tenantCounts(deployment)).isEqualTo(p + "-acme:1/0," + p + "-globex:0/1," + p + "-initech:0/1");
    }

    @Test
    void findingsMovedOrDeletedStayCounted() throws Exception {
        String p = Api.uniquePrefix();
        String deployment = p + "/prod";
        write(exposureOf(deployment, p + "-reader", p));
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement("""
                insert into finding (incident_id, rule, deployment, subject, stream, boot, first_seq, last_seq, detail,
                  seen_at, recorded_at)
                select id, r, deployment, ? || k, 's', 'b', 1, 1, 'd', now(), now()
                from incident, unnest(array['CROSS_TENANT_READ', 'STREAM_GAP', 'STREAM_GAP']) with ordinality u(r, k)
                where deployment = ?""")) {
            ps.setString(1, p + "-subject");
            ps.setString(2, deployment);
            assertThat(ps.executeUpdate()).isEqualTo(3);
        }
        assertThat(findingCounts(deployment)).isEqualTo("CROSS_TENANT_READ=1,STREAM_GAP=2");
        sql("update finding set rule = 'CROSS_TENANT_READ' where subject = ? || 2", p + "-subject");
        assertThat(findingCounts(deployment)).isEqualTo("CROSS_TENANT_READ=2,STREAM_GAP=1");
        sql("delete from finding where subject = ? || 1", p + "-subject");
        assertThat(findingCounts(deployment)).isEqualTo("CROSS_TENANT_READ=1,STREAM_GAP=1");
    }

    @Test
    void aRecountBringsCountersChangedByHandBackToTheRows() throws Exception {
        String p = Api.uniquePrefix();
        String id = Api.leakingIncident(p, p + "-acme", p + "-globex");
        String before = Api.admin().get("/api/incidents/" + id).then().statusCode(200).extract().asString();
        assertThat(before).contains("\"leaked_responses\":1");
        Api.account(p + "-dpo", "dpo", null);
        Api.as(p + "-dpo", p + "-dpo-password").post("/api/incidents/counters/recount").then().statusCode(403);

        // the counters alone changed by hand
        sql("update incident_counter set leaked_responses = 5, victim_tenants = '{}' where incident_id = ?::uuid", id);
        sql("update incident_finding_count set findings = 99 where incident_id = ?::uuid", id);
        assertThat(Api.admin().get("/api/incidents/" + id).then().extract().asString()).isNotEqualTo(before)
                .contains("\"leaked_responses\":5");
        JsonNode fixed = recount();
        assertThat(fixed.get("counters_corrected").asLong()).isGreaterThanOrEqualTo(1);
        assertThat(fixed.get("finding_counts_corrected").asLong()).isGreaterThanOrEqualTo(1);
        assertThat(Api.admin().get("/api/incidents/" + id).then().extract().asString()).isEqualTo(before);

        // as if an instance without the counters had written the incident: its rows missing
        sql("delete from incident_leaked_response where incident_id = ?::uuid", id);
        sql("update incident_tenant_exposure set recipient = false where incident_id = ?::uuid", id);
        sql("update incident_counter set leaked_responses = 0, recipient_tenants = '{}' where incident_id = ?::uuid",
                id);
        assertThat(Api.admin().get("/api/incidents/" + id).then().extract().asString())
                .contains("\"leaked_responses\":0");
        fixed = recount();
        assertThat(fixed.get("leaked_responses_added").asLong()).isGreaterThanOrEqualTo(1);
        assertThat(fixed.get("recipients_marked").asLong()).isGreaterThanOrEqualTo(1);
        assertThat(Api.admin().get("/api/incidents/" + id).then().extract().asString()).isEqualTo(before);
        // nothing left to correct; the recount is in the audit trail
        JsonNode again = recount();
        assertThat(again.get("counters_corrected").asLong()).isZero();
        assertThat(again.get("finding_counts_corrected").asLong()).isZero();
        Api.admin().get("/api/audit-trail?action=incident.counters-recount&limit=1").then().statusCode(200)
                .body("[0].after.leaked_responses_added", equalTo(0));
    }

    private static JsonNode recount() {
        return Api.admin().post("/api/incidents/counters/recount").then().statusCode(200).extract().as(JsonNode.class);
    }

    private void assertCountedOnce(String deployment, DetectionBuffer first, DetectionBuffer then, String reader)
            throws Exception {
        // the second transaction waits on a lock the first holds (the reader's facts row)
        writeAtOnce(first, then);
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement("""
                select (select count(*) from incident_leaked_response l where l.incident_id = i.id),
                  (select count(distinct e.reader_request) from exposure e join request_fact f
                     on f.request = e.reader_request
                   where e.incident_id = i.id and e.kind = 'CROSS_TENANT' and f.delivered)
                from incident i where i.deployment = ?""")) {
            ps.setString(1, deployment);
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getLong(2)).as("recounted over the rows").isEqualTo(1);
                assertThat(rs.getLong(1)).as("the counter of " + reader).isEqualTo(1);
            }
        }
    }

    /** The second waits on a lock the first holds. */
    private void writeAtOnce(DetectionBuffer first, DetectionBuffer then) throws Exception {
        two = new TwoWriters(dataSource, AT, null);
        two.writeAtOnce(first, then);
    }

    /**
     * The deployment's open incident's tenants as tenant:exposed/received, sorted, after checking that the counts
     * equal those made over its exposures.
     */
    private String tenantCounts(String deployment) throws SQLException {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement("""
                select string_agg(x.tenant || ':' || x.exposed_requests || '/' || x.received_requests, ','
                    order by x.tenant),
                  bool_and(x.exposed_requests = (select count(distinct e.victim_request) from exposure e
                      where e.incident_id = i.id and e.victim_tenant = x.tenant)
                    and x.received_requests = (select count(distinct e.reader_request) from exposure e
                      where e.incident_id = i.id and e.reader_tenant = x.tenant and e.kind = 'CROSS_TENANT'))
                from incident i join incident_tenant_exposure x on x.incident_id = i.id
                where i.deployment = ? and i.status <> 'CLOSED'""")) {
            ps.setString(1, deployment);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                assertThat(rs.getBoolean(2)).as("the counts equal those over the exposures").isTrue();
                return rs.getString(1);
            }
        }
    }

    private static DetectionBuffer exposureOf(String deployment, String reader, String p) {
        DetectionBuffer b = new DetectionBuffer();
        // the reader's ATTACH: served, and it read 4 of another tenant's tokens
        b.requestFact(new RequestFact(RequestFact.Kind.SERVED, reader, p + "-globex", deployment, AT, "decode-0",
                "b1", 7, false, 0));
        b.exposure(new ExposureRead(deployment, ExposureKind.CROSS_TENANT, reader, p + "-globex", p + "-victim",
                p + "-acme", Ranges.of(0, 4), AT, AT, "decode-0", "b1", 7));
        return b;
    }

    private static DetectionBuffer finishOf(String deployment, String reader) {
        DetectionBuffer b = new DetectionBuffer();
        b.requestFact(new RequestFact(RequestFact.Kind.FINISHED, reader, null, deployment, AT.plusSeconds(1),
                "decode-1", "b1", 9, true, 12));
        return b;
    }

    private void write(DetectionBuffer b) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            DetectionStore.write(c, b, AT);
            c.commit();
        }
    }

    private void sql(String statement, String param) throws SQLException {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(statement)) {
            ps.setString(1, param);
            ps.executeUpdate();
        }
    }

    /** The counters of the deployment's incident, rule=count sorted, those at zero left out. */
    private String findingCounts(String deployment) throws SQLException {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement("""
                select string_agg(n.rule || '=' || n.findings, ',' order by n.rule) from incident_finding_count n
                join incident i on i.id = n.incident_id where i.deployment = ? and n.findings > 0""")) {
            ps.setString(1, deployment);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        }
    }
}
