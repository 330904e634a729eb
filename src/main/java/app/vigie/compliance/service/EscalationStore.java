package app.vigie.compliance.service;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import app.vigie.db.Micros;

/**
 * The reminders of a reminder check written by one statement per batch of incidents (issue 45: 200,000 steps falling
 * due in the same minute took 289 s as one insert, one audit event and one log line each).
 */
final class EscalationStore {
    private EscalationStore() {
    }

    /** A reminder to write: its key, when it was due to fire, the obligation's status, and whether it is skipped. */
    record Pending(Escalation.Key key, Instant fireAt, String status, boolean skipped) {
    }

    /**
     * Inserts these reminders at {@code now}, each unless its (obligation, step, deadline) is already there (written
     * by another instance meanwhile); returns the ids of those written, by key.
     */
    static Map<Escalation.Key, Long> insert(Connection c, List<Pending> rows, Instant now) throws SQLException {
        Map<Escalation.Key, Long> written = new HashMap<>();
        if (rows.isEmpty()) {
            return written;
        }
        int n = rows.size();
        Object[] incident = new Object[n];
        String[] tenant = new String[n];
        String[] rule = new String[n];
        String[] recipient = new String[n];
        String[] step = new String[n];
        // as microseconds since the epoch: a java.sql.Timestamp in an array goes as text in the JVM's zone, without
        // an offset, and the session's zone (UTC) would read it shifted wherever the JVM's is not UTC
        Long[] dueAt = new Long[n];
        Long[] fireAt = new Long[n];
        String[] status = new String[n];
        Boolean[] skipped = new Boolean[n];
        for (int i = 0; i < n; i++) {
            Pending p = rows.get(i);
            incident[i] = p.key().incident();
            tenant[i] = p.key().tenant();
            rule[i] = p.key().rule();
            recipient[i] = p.key().recipient();
            step[i] = p.key().step();
            dueAt[i] = Micros.of(p.key().dueAt());
            fireAt[i] = Micros.of(p.fireAt());
            status[i] = p.status();
            skipped[i] = p.skipped();
        }
        try (PreparedStatement ps = c.prepareStatement("""
                insert into escalation (incident_id, tenant, rule, recipient, step, due_at, fire_at, fired_at, status,
                  skipped)
                select u.i, u.t, u.r, u.rc, u.s, timestamptz 'epoch' + u.d * interval '1 microsecond',
                  timestamptz 'epoch' + u.f * interval '1 microsecond', ?, u.st, u.sk
                from unnest(?::uuid[], ?::text[], ?::text[], ?::text[], ?::text[], ?::bigint[], ?::bigint[],
                  ?::text[], ?::boolean[]) as u(i, t, r, rc, s, d, f, st, sk)
                on conflict (incident_id, tenant, rule, recipient, step, due_at) do nothing
                returning id, incident_id, tenant, rule, recipient, step, due_at""")) {
            ps.setTimestamp(1, Timestamp.from(now));
            ps.setArray(2, c.createArrayOf("uuid", incident));
            ps.setArray(3, c.createArrayOf("text", tenant));
            ps.setArray(4, c.createArrayOf("text", rule));
            ps.setArray(5, c.createArrayOf("text", recipient));
            ps.setArray(6, c.createArrayOf("text", step));
            ps.setArray(7, c.createArrayOf("bigint", dueAt));
            ps.setArray(8, c.createArrayOf("bigint", fireAt));
            ps.setArray(9, c.createArrayOf("text", status));
            ps.setArray(10, c.createArrayOf("boolean", skipped));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    written.put(new Escalation.Key(rs.getObject(2, UUID.class), rs.getString(3),
                            rs.getString(4), rs.getString(5), rs.getString(6), rs.getTimestamp(7).toInstant()
                                    .truncatedTo(ChronoUnit.MICROS)), rs.getLong(1));
                }
            }
        }
        return written;
    }
}
