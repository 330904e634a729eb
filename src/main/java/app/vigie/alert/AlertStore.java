package app.vigie.alert;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/** The SQL of customer alerts and their deliveries, as people read and act on them. */
public final class AlertStore {
    private AlertStore() {
    }

    /** The alerts of {@code tenant} in an incident it has not acknowledged yet (FINAL ones ask for nothing). */
    public static int unacknowledged(Connection c, UUID incident, String tenant) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                select count(*) from customer_alert where incident_id = ? and tenant = ? and acknowledged_at is null
                  and phase <> 'FINAL'""")) {
            ps.setObject(1, incident);
            ps.setString(2, tenant);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    /** Each alert's acknowledgement link, as the hash of its token (the token itself is never stored). */
    static void setAckTokenHashes(Connection tx, Map<Long, String> hashes) throws SQLException {
        if (hashes.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = tx.prepareStatement("update customer_alert set ack_token = ? where id = ?")) {
            for (Map.Entry<Long, String> h : hashes.entrySet()) {
                ps.setString(1, h.getValue());
                ps.setLong(2, h.getKey());
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    /** An alert by {@code where} ("id = ?" or "ack_token = ?") and its key. */
    static Optional<AlertService.AlertRef> find(Connection c, String where, Object key) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("select id, incident_id, tenant, phase, created_at, "
                + "acknowledged_at, acknowledged_by from customer_alert where " + where)) {
            ps.setObject(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                Timestamp ack = rs.getTimestamp(6);
                return Optional.of(new AlertService.AlertRef(rs.getLong(1), rs.getObject(2, UUID.class),
                        rs.getString(3), rs.getString(4), rs.getTimestamp(5).toInstant(),
                        ack == null ? null : ack.toInstant(),
                        rs.getString(7)));
            }
        }
    }

    static void acknowledged(Connection c, long alertId, String by, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "update customer_alert set acknowledged_at = ?, acknowledged_by = ? where id = ?")) {
            ps.setTimestamp(1, Timestamp.from(now));
            ps.setString(2, by);
            ps.setLong(3, alertId);
            ps.executeUpdate();
        }
    }

    /** Alerts, newest first, with their deliveries: of an incident, or with a delivery in {@code status}, or all. */
    static List<AlertService.AlertView> list(Connection c, UUID incident, String status, int limit)
            throws SQLException {
        List<AlertService.AlertView> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                select id, incident_id, tenant, phase, idempotency_key, created_at, acknowledged_at,
                  acknowledged_by, escalated_at from customer_alert a
                where (?::uuid is null or incident_id = ?)
                  and (?::text is null or exists (select 1 from alert_delivery d where d.alert_id = a.id
                                                   and d.status = ?))
                order by id desc limit ?""")) {
            ps.setObject(1, incident);
            ps.setObject(2, incident);
            ps.setString(3, status);
            ps.setString(4, status);
            ps.setInt(5, limit);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    long id = rs.getLong(1);
                    out.add(new AlertService.AlertView(id, rs.getObject(2, UUID.class), rs.getString(3),
                            rs.getString(4), rs.getString(5), rs.getTimestamp(6).toInstant(),
                            instant(rs.getTimestamp(7)),
                            rs.getString(8), instant(rs.getTimestamp(9)), deliveries(c, id)));
                }
            }
        }
        return out;
    }

    private static List<AlertService.DeliveryView> deliveries(Connection c, long alert) throws SQLException {
        List<AlertService.DeliveryView> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                select id, channel, target, status, attempts, next_attempt_at, last_error, delivered_at
                from alert_delivery where alert_id = ? order by id""")) {
            ps.setLong(1, alert);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new AlertService.DeliveryView(rs.getLong(1), rs.getString(2), rs.getString(3),
                            rs.getString(4), rs.getInt(5), instant(rs.getTimestamp(6)), rs.getString(7),
                            instant(rs.getTimestamp(8))));
                }
            }
        }
        return out;
    }

    private static Instant instant(Timestamp t) {
        return t == null ? null : t.toInstant();
    }

    /** A DEAD or HELD delivery due again now, from attempt zero; false when there is none in those states. */
    static boolean requeue(Connection c, long deliveryId, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                update alert_delivery set status = 'PENDING', attempts = 0, next_attempt_at = ?, updated_at = ?
                where id = ? and status in ('DEAD', 'HELD') returning status""")) {
            ps.setTimestamp(1, Timestamp.from(now));
            ps.setTimestamp(2, Timestamp.from(now));
            ps.setLong(3, deliveryId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }
}
