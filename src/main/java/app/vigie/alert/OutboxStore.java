package app.vigie.alert;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import app.vigie.incident.IncidentQueries;
import app.vigie.platform.Traces;
import app.vigie.tenant.Tenant;

/**
 * The SQL of the alert outbox, written in the transaction of the change that calls for an alert: alerts and their
 * deliveries inserted, and what the planner asks before writing (the tenant's exposure, its last alert, alerts not
 * sent yet, a FINAL one, the tenants alerted).
 */
public final class OutboxStore {
    private OutboxStore() {
    }

    /** Inserts an alert; empty when it was written already (another transaction, the same change). */
    static Optional<Long> insertAlert(Connection c, UUID incident, String tenant, String phase, String key,
            long[] exposure, String ackTokenHash, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                insert into customer_alert (incident_id, tenant, phase, idempotency_key, created_at, exposed_requests,
                  received_requests, ack_token, trace_parent) values (?, ?, ?, ?, ?, ?, ?, ?, ?)
                on conflict do nothing returning id""")) {
            ps.setObject(1, incident);
            ps.setString(2, tenant);
            ps.setString(3, phase);
            ps.setString(4, key);
            ps.setTimestamp(5, Timestamp.from(now));
            ps.setLong(6, exposure[0]);
            ps.setLong(7, exposure[1]);
            ps.setString(8, ackTokenHash);
            ps.setString(9, Traces.currentParent());  // the transaction's trace, continued by the deliveries
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(rs.getLong(1)) : Optional.empty();
            }
        }
    }

    /**
     * The tenant's alerts on running incidents that no channel took (none was known) and that have not gone out:
     * alert id to incident, oldest first.
     */
    static Map<Long, UUID> waitingForChannel(Connection c, String tenant) throws SQLException {
        Map<Long, UUID> out = new LinkedHashMap<>();
        try (PreparedStatement ps = c.prepareStatement("""
                select a.id, a.incident_id from customer_alert a join incident i on i.id = a.incident_id
                where a.tenant = ? and a.body is null and a.body_purged_at is null
                  and i.""" + IncidentQueries.RUNNING + """
                 and not exists (select 1 from alert_delivery d where d.alert_id = a.id) order by a.id""")) {
            ps.setString(1, tenant);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getLong(1), rs.getObject(2, UUID.class));
                }
            }
        }
        return out;
    }

    /** One delivery of the alert per channel of its tenant, in {@code status} (PENDING, or HELD for approval). */
    static void insertDeliveries(Connection c, long alertId, List<Tenant.AlertChannel> channels, String status,
            Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                insert into alert_delivery (alert_id, channel, target, status, next_attempt_at, updated_at)
                values (?, ?, ?, ?, ?, ?)""")) {
            for (Tenant.AlertChannel ch : channels) {
                ps.setLong(1, alertId);
                ps.setString(2, ch.type());
                ps.setString(3, ch.target());
                ps.setString(4, status);
                ps.setTimestamp(5, Timestamp.from(now));
                ps.setTimestamp(6, Timestamp.from(now));
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    /**
     * The tenant's exposed requests and requests that received others' tokens, in the incident (kept by detection in
     * {@code incident_tenant_exposure}).
     */
    public static long[] exposure(Connection c, UUID incident, String tenant) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                select exposed_requests, received_requests from incident_tenant_exposure
                where incident_id = ? and tenant = ?""")) {
            ps.setObject(1, incident);
            ps.setString(2, tenant);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? new long[] {rs.getLong(1), rs.getLong(2)} : new long[] {0, 0};
            }
        }
    }

    static Optional<long[]> lastAlerted(Connection c, UUID incident, String tenant) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                select exposed_requests, received_requests from customer_alert where incident_id = ? and tenant = ?
                order by id desc limit 1""")) {
            ps.setObject(1, incident);
            ps.setString(2, tenant);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(new long[] {rs.getLong(1), rs.getLong(2)}) : Optional.empty();
            }
        }
    }

    /** Whether an alert of the tenant has not been rendered (sent) yet: it will carry the latest state. */
    static boolean unsent(Connection c, UUID incident, String tenant) throws SQLException {
        return exists(c, "select 1 from customer_alert where incident_id = ? and tenant = ? and body is null"
                + " and body_purged_at is null",
                incident, tenant);
    }

    static boolean finalSent(Connection c, UUID incident, String tenant) throws SQLException {
        return exists(c, "select 1 from customer_alert where incident_id = ? and tenant = ? and phase = 'FINAL'",
                incident, tenant);
    }

    static boolean exists(Connection c, String sql, UUID incident, String tenant) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setObject(1, incident);
            ps.setString(2, tenant);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    static int count(Connection c, UUID incident, String tenant, String phase) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "select count(*) from customer_alert where incident_id = ? and tenant = ? and phase = ?")) {
            ps.setObject(1, incident);
            ps.setString(2, tenant);
            ps.setString(3, phase);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    static Collection<String> alertedTenants(Connection c, UUID incident) throws SQLException {
        List<String> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(
                "select distinct tenant from customer_alert where incident_id = ? order by tenant")) {
            ps.setObject(1, incident);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
        }
        return out;
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
}
