package app.vigie.warmup;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;

import app.vigie.detection.DetectionService;

/**
 * The warm-up runs the whole intake on the reference runtime's leaking log (records stored, findings, exposures and
 * alerts written: seen inside each transaction before its rollback) and leaves nothing: no row of any table names a
 * warm-up stream, request or deployment afterwards, and no detector of it stays in memory.
 */
@QuarkusTest
class IntakeWarmUpTest {
    @Inject
    IntakeWarmUp warmUp;

    @Inject
    AgroalDataSource dataSource;

    @Inject
    DetectionService detection;

    @Test
    void runsTheWholeIntakeAndKeepsNothing() throws Exception {
        AtomicLong records = new AtomicLong();
        AtomicLong findings = new AtomicLong();
        AtomicLong crossTenant = new AtomicLong();
        AtomicLong alerts = new AtomicLong();
        AtomicLong chunks = new AtomicLong();

        IntakeWarmUp.Result r = warmUp.run(2_000, 2, Long.MAX_VALUE, c -> {
            chunks.incrementAndGet();
            records.addAndGet(count(c, "select count(*) from stream_boot where stream like 'vigie-warm-up/%'"
                    + " and next_seq > 1"));
            findings.addAndGet(count(c, "select count(*) from finding f join incident i on i.id = f.incident_id"
                    + " where i.deployment like 'vigie-warm-up/%'"));
            crossTenant.addAndGet(count(c, "select count(*) from exposure e join incident i on i.id = e.incident_id"
                    + " where i.deployment like 'vigie-warm-up/%' and e.kind = 'CROSS_TENANT'"));
            alerts.addAndGet(count(c, "select count(*) from customer_alert a join incident i on i.id = a.incident_id"
                    + " where i.deployment like 'vigie-warm-up/%'"));
            return null;
        });

        assertThat(r.records()).isGreaterThanOrEqualTo(2_000);
        assertThat(r.applied()).as("every record applied in order: each simulation fits one chunk")
                .isEqualTo(r.records());
        assertThat(r.leakingResponses()).isPositive();
        assertThat(chunks.get()).isGreaterThan(1);
        assertThat(records.get()).as("streams stored, per chunk").isPositive();
        assertThat(findings.get()).isPositive();
        assertThat(crossTenant.get()).isPositive();
        assertThat(alerts.get()).as("customer alerts planned").isPositive();

        List<String> naming = new ArrayList<>();
        try (Connection c = dataSource.getConnection()) {
            for (String[] tc : textColumns(c)) {
                long n = count(c, "select count(*) from \"" + tc[0] + "\" where \"" + tc[1]
                        + "\"::text like '%vigie-warm-up/%'");
                if (n > 0) {
                    naming.add(tc[0] + "." + tc[1] + ": " + n);
                }
            }
        }
        assertThat(naming).as("rows naming the warm-up's streams, requests or deployment").isEmpty();
        assertThat(detection.detectorsInMemory("vigie-warm-up/")).as("the warm-up's detectors in memory").isZero();
    }

    /** Every text, varchar and jsonb column of the application's tables, as {table, column}. */
    private static List<String[]> textColumns(Connection c) throws SQLException {
        List<String[]> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                select c.table_name, c.column_name from information_schema.columns c
                join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
                where c.table_schema = current_schema() and t.table_type = 'BASE TABLE'
                  and c.data_type in ('text', 'character varying', 'jsonb', 'json')
                order by 1, 2""");
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                out.add(new String[] {rs.getString(1), rs.getString(2)});
            }
        }
        assertThat(out).as("the schema's text columns").hasSizeGreaterThan(20);
        return out;
    }

    private static long count(Connection c, String sql) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql); ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
