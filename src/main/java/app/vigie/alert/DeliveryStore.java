package app.vigie.alert;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The SQL of deliveries: the next due one found and claimed ({@code FOR UPDATE SKIP LOCKED}, a tenant's oldest first
 * on each channel), held by its claim, its outcome recorded under that claim; alerts' bodies made once; unacknowledged
 * alerts escalated.
 */
final class DeliveryStore {
    private DeliveryStore() {
    }

    /** A claimed delivery held by {@code claim} until {@code until} (the lease). */
    static void hold(Connection c, long id, UUID claim, Instant until) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "update alert_delivery set next_attempt_at = ?, claim_id = ?, updated_at = now() where id = ?")) {
            ps.setTimestamp(1, Timestamp.from(until));
            ps.setObject(2, claim);
            ps.setLong(3, id);
            ps.executeUpdate();
        }
    }

    /** The pending deliveries of an alert that cannot be prepared: one more attempt counted, due again later. */
    static void postpone(Connection c, long alertId, String error, Instant next) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                update alert_delivery set attempts = attempts + 1, last_error = ?, next_attempt_at = ?,
                  updated_at = now() where alert_id = ? and status = 'PENDING'""")) {
            ps.setString(1, error);
            ps.setTimestamp(2, Timestamp.from(next));
            ps.setLong(3, alertId);
            ps.executeUpdate();
        }
    }

    /**
     * The next due delivery, of {@code d} joined to its alert {@code a}: pending, due by the first parameter, not in a
     * busy lane (the second, tenant|channel), and the oldest pending one of its tenant on its channel (order kept).
     */
    private static final String NEXT_DUE = """
            from alert_delivery d join customer_alert a on a.id = d.alert_id
            where d.status = 'PENDING' and d.next_attempt_at <= ? and a.tenant || '|' || d.channel <> all(?)
              and not exists (select 1 from alert_delivery e join customer_alert b on b.id = e.alert_id
                where b.tenant = a.tenant and e.channel = d.channel and e.status = 'PENDING' and e.id < d.id)
            order by d.next_attempt_at, d.id limit 1""";

    /** The alert of the next due delivery, if any. */
    static Optional<Long> nextDue(Connection c, Instant now, String[] busy) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("select d.alert_id " + NEXT_DUE)) {
            ps.setTimestamp(1, Timestamp.from(now));
            ps.setArray(2, c.createArrayOf("text", busy));
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(rs.getLong(1)) : Optional.empty();
            }
        }
    }

    /** The next due delivery, locked (skipped when another worker holds it). */
    static Optional<AlertDelivery.Due> claim(Connection c, Instant now, String[] busy) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                select d.id, d.alert_id, d.channel, d.target, d.attempts, a.incident_id, a.tenant, a.phase,
                       a.idempotency_key, a.body, a.trace_parent""" + " " + NEXT_DUE + " for update of d skip locked")) {
            ps.setTimestamp(1, Timestamp.from(now));
            ps.setArray(2, c.createArrayOf("text", busy));
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                return Optional.of(new AlertDelivery.Due(rs.getLong(1), rs.getLong(2), rs.getString(3), rs.getString(4),
                        rs.getInt(5), rs.getObject(6, UUID.class), rs.getString(7), rs.getString(8), rs.getString(9),
                        rs.getString(10), null, null, rs.getString(11)));
            }
        }
    }

    /** An alert whose body is not made yet, locked for the one worker that makes it. */
    record Unfixed(UUID incident, String tenant, String phase, String key, Instant createdAt) {
    }

    static Optional<Unfixed> unfixed(Connection c, long alertId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                select incident_id, tenant, phase, idempotency_key, created_at from customer_alert
                where id = ? and body is null and body_purged_at is null for update skip locked""")) {
            ps.setLong(1, alertId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(new Unfixed(rs.getObject(1, UUID.class), rs.getString(2),
                        rs.getString(3), rs.getString(4), rs.getTimestamp(5).toInstant())) : Optional.empty();
            }
        }
    }

    /** The alert's body, kept once: every attempt sends the same bytes. */
    static void setBody(Connection c, long alertId, String body) throws SQLException {
        try (PreparedStatement up = c.prepareStatement(
                "update customer_alert set body = ? where id = ? and body is null and body_purged_at is null")) {
            up.setString(1, body);
            up.setLong(2, alertId);
            up.executeUpdate();
        }
    }

    /**
     * Records an attempt's outcome, unless the delivery changed meanwhile (its claim lapsed and another attempt was
     * recorded, or the DPO acted): true when recorded.
     */
    static boolean record(Connection c, AlertDelivery.Due d, String status, int attempts, Instant next, String error,
            Instant deliveredAt) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                update alert_delivery set status = ?, attempts = ?, next_attempt_at = ?, last_error = ?,
                  delivered_at = ?, claim_id = null, updated_at = now()
                where id = ? and status = 'PENDING' and claim_id = ?""")) {
            ps.setString(1, status);
            ps.setInt(2, attempts);
            ps.setTimestamp(3, Timestamp.from(next));
            ps.setString(4, error);
            ps.setTimestamp(5, deliveredAt == null ? null : Timestamp.from(deliveredAt));
            ps.setLong(6, d.id());
            ps.setObject(7, d.claim());
            return ps.executeUpdate() == 1;
        }
    }

    /** An alert escalated to the DPO for want of an acknowledgement. */
    record Escalated(long alertId, UUID incident, String tenant) {
    }

    /** Marks escalated, now, every alert created by {@code createdBy} and still unacknowledged (FINAL ones aside). */
    static List<Escalated> escalate(Connection c, Instant now, Instant createdBy) throws SQLException {
        List<Escalated> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                update customer_alert set escalated_at = ? where acknowledged_at is null and escalated_at is null
                  and phase <> 'FINAL' and created_at <= ? returning id, incident_id, tenant""")) {
            ps.setTimestamp(1, Timestamp.from(now));
            ps.setTimestamp(2, Timestamp.from(createdBy));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new Escalated(rs.getLong(1), rs.getObject(2, UUID.class), rs.getString(3)));
                }
            }
        }
        return out;
    }
}
