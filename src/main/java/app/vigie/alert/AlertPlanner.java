package app.vigie.alert;

import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

import app.vigie.audit.AuditTrail;
import app.vigie.platform.Digests;
import app.vigie.tenant.Tenant;
import app.vigie.tenant.TenantStore;

/**
 * Decides, inside the transaction that changes an incident, which customers must be alerted, and writes the alerts
 * and their deliveries there (the transactional outbox): nothing is alerted that was not committed, nothing
 * committed goes unalerted.
 *
 * <ul>
 * <li>INITIAL: the first time a tenant's requests are exposed or receive another's tokens.</li>
 * <li>UPDATE: when the tenant's exposure grows materially, that is when more of its requests are exposed or more of
 * them received others' tokens (more tokens on the same requests is not material); while an alert of the tenant
 * has not gone out yet, no other is added (it will carry the latest state, being rendered when first sent).</li>
 * <li>FINAL: when the incident is closed or dismissed, to every tenant alerted before.</li>
 * </ul>
 * One delivery per channel of the tenant in the directory; none for a tenant missing from it (the DPO sees the
 * alert without a channel). With {@code hold} (DPO approval), deliveries wait in HELD.
 */
public final class AlertPlanner {
    public static final String INITIAL = "INITIAL";
    public static final String UPDATE = "UPDATE";
    public static final String FINAL = "FINAL";
    private static final SecureRandom RANDOM = new SecureRandom();

    private AlertPlanner() {
    }

    /** An alert as written, with the token of its acknowledgement link. */
    public record Written(long id, UUID incident, String tenant, String phase, String idempotencyKey) {
    }

    /** After exposures were written: the tenants of each incident whose exposed or receiving requests grew. */
    public static List<Written> exposuresChanged(Connection c, Map<UUID, Set<String>> touched, boolean hold,
            Instant now) throws SQLException {
        List<Written> out = new ArrayList<>();
        for (Map.Entry<UUID, Set<String>> e : touched.entrySet()) {
            for (String tenant : new TreeSet<>(e.getValue())) {
                long[] now2 = exposure(c, e.getKey(), tenant);
                Optional<long[]> last = lastAlerted(c, e.getKey(), tenant);
                String phase;
                if (last.isEmpty()) {
                    phase = INITIAL;
                } else if ((now2[0] > last.get()[0] || now2[1] > last.get()[1]) && !unsent(c, e.getKey(), tenant)
                        && !finalSent(c, e.getKey(), tenant)) {
                    phase = UPDATE;
                } else {
                    continue;
                }
                write(c, e.getKey(), tenant, phase, now2, hold && phase.equals(INITIAL), now).ifPresent(out::add);
            }
        }
        return out;
    }

    /** The incident was closed or dismissed: a FINAL alert to every tenant alerted before. */
    public static List<Written> incidentEnded(Connection c, UUID incident, Instant now) throws SQLException {
        List<Written> out = new ArrayList<>();
        for (String tenant : alertedTenants(c, incident)) {
            write(c, incident, tenant, FINAL, exposure(c, incident, tenant), false, now).ifPresent(out::add);
        }
        return out;
    }

    private static Optional<Written> write(Connection c, UUID incident, String tenant, String phase, long[] exposure,
            boolean hold, Instant now) throws SQLException {
        int n = count(c, incident, tenant, phase) + 1;
        String key = incident + "/" + tenant + "/" + phase + (phase.equals(UPDATE) ? "/" + n : "");
        byte[] secret = new byte[24];
        RANDOM.nextBytes(secret);
        String token = Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
        long id;
        try (PreparedStatement ps = c.prepareStatement("""
                insert into customer_alert (incident_id, tenant, phase, idempotency_key, created_at, exposed_requests,
                  received_requests, ack_token) values (?, ?, ?, ?, ?, ?, ?, ?)
                on conflict do nothing returning id""")) {
            ps.setObject(1, incident);
            ps.setString(2, tenant);
            ps.setString(3, phase);
            ps.setString(4, key);
            ps.setTimestamp(5, Timestamp.from(now));
            ps.setLong(6, exposure[0]);
            ps.setLong(7, exposure[1]);
            // a placeholder nobody holds (the column is unique): AlertService sets the link's hash in this transaction
            ps.setString(8, Digests.sha256Hex(token));
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();  // written already (another transaction, the same change)
                }
                id = rs.getLong(1);
            }
        }
        Optional<Tenant> t = TenantStore.find(c, tenant);
        if (t.isPresent() && t.get().alertChannels() != null) {
            try (PreparedStatement ps = c.prepareStatement("""
                    insert into alert_delivery (alert_id, channel, target, status, next_attempt_at, updated_at)
                    values (?, ?, ?, ?, ?, ?)""")) {
                for (Tenant.AlertChannel ch : t.get().alertChannels()) {
                    ps.setLong(1, id);
                    ps.setString(2, ch.type());
                    ps.setString(3, ch.target());
                    ps.setString(4, hold ? "HELD" : "PENDING");
                    ps.setTimestamp(5, Timestamp.from(now));
                    ps.setTimestamp(6, Timestamp.from(now));
                    ps.addBatch();
                }
                ps.executeBatch();
            }
        }
        AuditTrail.record("vigie", "alert.planned", "incident:" + incident + "/" + tenant,
                null, "{\"alert\":" + id + ",\"phase\":\"" + phase + "\",\"idempotency_key\":"
                        + AuditTrail.quote(key) + ",\"held\":" + hold + "}");
        return Optional.of(new Written(id, incident, tenant, phase, key));
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

    private static Optional<long[]> lastAlerted(Connection c, UUID incident, String tenant) throws SQLException {
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
    private static boolean unsent(Connection c, UUID incident, String tenant) throws SQLException {
        return exists(c, "select 1 from customer_alert where incident_id = ? and tenant = ? and body is null",
                incident, tenant);
    }

    private static boolean finalSent(Connection c, UUID incident, String tenant) throws SQLException {
        return exists(c, "select 1 from customer_alert where incident_id = ? and tenant = ? and phase = 'FINAL'",
                incident, tenant);
    }

    private static boolean exists(Connection c, String sql, UUID incident, String tenant) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setObject(1, incident);
            ps.setString(2, tenant);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    private static int count(Connection c, UUID incident, String tenant, String phase) throws SQLException {
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

    private static Collection<String> alertedTenants(Connection c, UUID incident) throws SQLException {
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

}
