package app.vigie.testing;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What intake and detection concluded in a Vigie database, without what depends on when or where it ran
 * (generated ids, times of processing, snapshots, duplicates received): two runs over the same records must give
 * equal digests.
 */
public final class ResultDigest {
    /** Each table's rows, as text, in a fixed order. */
    private static final Map<String, String> QUERIES = new LinkedHashMap<>();

    static {
        QUERIES.put("streams", "select stream, boot, next_seq, max_seq, accepted from stream_boot order by 1, 2");
        // segments group the records of one transaction: how they are cut depends on the batches, not what they hold
        QUERIES.put("records", "select b.stream, b.boot, sum(r.records), min(r.first_seq), max(r.last_seq),"
                + " sum(r.raw_length) from record_segment r join stream_boot b on b.id = r.stream_boot_id"
                + " group by 1, 2 order by 1, 2");
        QUERIES.put("gaps", "select b.stream, b.boot, g.from_seq, g.to_seq from stream_gap g"
                + " join stream_boot b on b.id = g.stream_boot_id order by 1, 2, 3");
        QUERIES.put("quarantine", "select source, source_name, position, reason from quarantine order by 1, 2, 3");
        QUERIES.put("incidents", "select deployment, status, first_exposure_at, last_exposure_at from incident"
                + " order by 1");
        QUERIES.put("findings", "select i.deployment, f.rule, f.subject, f.stream, f.boot, f.first_seq, f.last_seq,"
                + " f.detail, f.seen_at from finding f join incident i on i.id = f.incident_id order by 1, 2, 3");
        QUERIES.put("exposures", "select i.deployment, e.kind, e.reader_request, e.reader_tenant, e.victim_request,"
                + " e.victim_tenant, e.positions, e.tokens, e.first_seen_at, e.last_seen_at from exposure e"
                + " join incident i on i.id = e.incident_id order by 1, 3, 5");
        QUERIES.put("exposure counts", "select i.deployment, x.tenant, x.exposed_requests, x.received_requests"
                + " from incident_tenant_exposure x join incident i on i.id = x.incident_id order by 1, 2");
        QUERIES.put("requests", "select request, tenant, rejected, rejected_deployment, rejected_stream,"
                + " rejected_boot, rejected_seq, rejected_at, served, finished, delivered, delivered_output,"
                + " served_finding from request_fact order by 1");
    }

    private ResultDigest() {
    }

    /** Each part's rows. */
    public static Map<String, List<String>> of(Connection c) throws SQLException {
        Map<String, List<String>> out = new LinkedHashMap<>();
        try (Statement s = c.createStatement()) {
            for (Map.Entry<String, String> q : QUERIES.entrySet()) {
                List<String> rows = new ArrayList<>();
                try (ResultSet rs = s.executeQuery(q.getValue())) {
                    ResultSetMetaData md = rs.getMetaData();
                    while (rs.next()) {
                        StringBuilder row = new StringBuilder();
                        for (int i = 1; i <= md.getColumnCount(); i++) {
                            row.append(i > 1 ? " | " : "").append(rs.getString(i));
                        }
                        rows.add(row.toString());
                    }
                }
                out.put(q.getKey(), rows);
            }
        }
        return out;
    }

    /**
     * The exposure counts kept by detection, and the same counted from the exposures: equal when the counters were
     * kept right (also under concurrent writers).
     */
    public static List<List<String>> exposureCounts(Connection c) throws SQLException {
        List<String> kept = new ArrayList<>();
        List<String> counted = new ArrayList<>();
        try (Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("select incident_id, tenant, exposed_requests, received_requests"
                    + " from incident_tenant_exposure where exposed_requests > 0 or received_requests > 0"
                    + " order by 1, 2")) {
                while (rs.next()) {
                    kept.add(rs.getString(1) + " " + rs.getString(2) + " " + rs.getLong(3) + " " + rs.getLong(4));
                }
            }
            try (ResultSet rs = s.executeQuery("""
                    select incident_id, tenant, sum(exposed), sum(received) from (
                      select incident_id, victim_tenant as tenant, count(distinct victim_request) as exposed,
                        0 as received from exposure group by 1, 2
                      union all
                      select incident_id, reader_tenant, 0, count(distinct reader_request) from exposure
                      where kind = 'CROSS_TENANT' group by 1, 2) x group by 1, 2 order by 1, 2""")) {
                while (rs.next()) {
                    counted.add(rs.getString(1) + " " + rs.getString(2) + " " + rs.getLong(3) + " " + rs.getLong(4));
                }
            }
        }
        return List.of(kept, counted);
    }

    /** How many records are stored. */
    /**
     * The incident counters of V23 as kept (first list) and as recounted from the rows with api.md's definitions
     * (second): per incident its leaked responses, victim and recipient tenants, and findings per rule.
     */
    public static List<List<String>> incidentCounters(Connection c) throws SQLException {
        String[][] queries = {{"""
                select i.id, coalesce(n.leaked_responses, 0), coalesce(n.victim_tenants, '{}'),
                  coalesce(n.recipient_tenants, '{}'),
                  (select coalesce(string_agg(x.rule || '=' || x.findings, ',' order by x.rule), '')
                   from incident_finding_count x where x.incident_id = i.id and x.findings > 0)
                from incident i left join incident_counter n on n.incident_id = i.id order by 1""", """
                select i.id,
                  (select count(distinct e.reader_request) from exposure e join request_fact f
                     on f.request = e.reader_request
                   where e.incident_id = i.id and e.kind = 'CROSS_TENANT' and f.delivered),
                  (select coalesce(array_agg(distinct e.victim_tenant order by e.victim_tenant), '{}')
                   from exposure e where e.incident_id = i.id),
                  (select coalesce(array_agg(distinct e.reader_tenant order by e.reader_tenant), '{}')
                   from exposure e where e.incident_id = i.id),
                  (select coalesce(string_agg(r.rule || '=' || r.n, ',' order by r.rule), '')
                   from (select rule, count(*) as n from finding f where f.incident_id = i.id group by rule) r)
                from incident i order by 1"""}};
        List<List<String>> out = new ArrayList<>();
        try (Statement s = c.createStatement()) {
            for (String q : queries[0]) {
                List<String> rows = new ArrayList<>();
                try (ResultSet rs = s.executeQuery(q)) {
                    while (rs.next()) {
                        rows.add(rs.getString(1) + " " + rs.getLong(2) + " " + rs.getString(3) + " "
                                + rs.getString(4) + " " + rs.getString(5));
                    }
                }
                out.add(rows);
            }
        }
        return out;
    }

    public static long records(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("select coalesce(sum(records), 0) from record_segment")) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
