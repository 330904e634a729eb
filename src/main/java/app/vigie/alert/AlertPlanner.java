package app.vigie.alert;

import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

import app.vigie.audit.AuditTrail;
import app.vigie.platform.Digests;
import app.vigie.tenant.Tenant;
import app.vigie.tenant.TenantEntry;

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
                long[] now2 = OutboxStore.exposure(c, e.getKey(), tenant);
                Optional<long[]> last = OutboxStore.lastAlerted(c, e.getKey(), tenant);
                String phase;
                if (last.isEmpty()) {
                    phase = INITIAL;
                } else if ((now2[0] > last.get()[0] || now2[1] > last.get()[1]) && !OutboxStore.unsent(c, e.getKey(), tenant)
                        && !OutboxStore.finalSent(c, e.getKey(), tenant)) {
                    phase = UPDATE;
                } else {
                    continue;
                }
                write(c, e.getKey(), tenant, phase, now2, hold && phase.equals(INITIAL), now).ifPresent(out::add);
            }
        }
        return out;
    }

    /**
     * The DPO decided on the incident's possible exposures: an alert to each tenant they touch, which carries the
     * conclusion (INITIAL for a tenant not alerted yet, else UPDATE; none once its FINAL alert went out).
     */
    public static List<Written> possibleDecided(Connection c, UUID incident, Set<String> tenants, boolean hold,
            Instant now) throws SQLException {
        List<Written> out = new ArrayList<>();
        for (String tenant : new TreeSet<>(tenants)) {
            if (OutboxStore.finalSent(c, incident, tenant)) {
                continue;
            }
            boolean first = OutboxStore.lastAlerted(c, incident, tenant).isEmpty();
            write(c, incident, tenant, first ? INITIAL : UPDATE, OutboxStore.exposure(c, incident, tenant),
                    hold && first, now).ifPresent(out::add);
        }
        return out;
    }

    /** The incident was closed or dismissed: a FINAL alert to every tenant alerted before. */
    public static List<Written> incidentEnded(Connection c, UUID incident, Instant now) throws SQLException {
        List<Written> out = new ArrayList<>();
        for (String tenant : OutboxStore.alertedTenants(c, incident)) {
            write(c, incident, tenant, FINAL, OutboxStore.exposure(c, incident, tenant), false, now).ifPresent(out::add);
        }
        return out;
    }

    /**
     * A tenant's channels now known (it was added to the directory, or given channels): each of its alerts on a
     * running incident that no channel could take (none known then) and that has not gone out gets one delivery per
     * channel. Answers those alerts' ids.
     */
    public static List<Long> channelsKnown(Connection c, Tenant tenant, boolean hold, Instant now)
            throws SQLException {
        if (tenant.alertChannels() == null || tenant.alertChannels().isEmpty()) {
            return List.of();
        }
        List<Long> waiting = new ArrayList<>();
        for (Map.Entry<Long, UUID> alert : OutboxStore.waitingForChannel(c, tenant.id()).entrySet()) {
            long id = alert.getKey();
            waiting.add(id);
            OutboxStore.insertDeliveries(c, id, tenant.alertChannels(), hold ? "HELD" : "PENDING", now);
            AuditTrail.record("vigie", "alert.planned", "incident:" + alert.getValue() + "/" + tenant.id(), null,
                    "{\"alert\":" + id + ",\"channels\":" + tenant.alertChannels().size() + ",\"held\":" + hold
                            + "}");
        }
        return waiting;
    }

    private static Optional<Written> write(Connection c, UUID incident, String tenant, String phase, long[] exposure,
            boolean hold, Instant now) throws SQLException {
        int n = OutboxStore.count(c, incident, tenant, phase) + 1;
        String key = incident + "/" + tenant + "/" + phase + (phase.equals(UPDATE) ? "/" + n : "");
        byte[] secret = new byte[24];
        RANDOM.nextBytes(secret);
        String token = Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
        // a placeholder nobody holds (the column is unique): AlertService sets the link's hash in this transaction
        Optional<Long> written = OutboxStore.insertAlert(c, incident, tenant, phase, key, exposure,
                Digests.sha256Hex(token), now);
        if (written.isEmpty()) {
            return Optional.empty();  // written already (another transaction, the same change)
        }
        long id = written.get();
        Optional<Tenant> t = TenantEntry.byId(tenant);
        if (t.isPresent() && t.get().alertChannels() != null) {
            OutboxStore.insertDeliveries(c, id, t.get().alertChannels(), hold ? "HELD" : "PENDING", now);
        }
        AuditTrail.record("vigie", "alert.planned", "incident:" + incident + "/" + tenant,
                null, "{\"alert\":" + id + ",\"phase\":\"" + phase + "\",\"idempotency_key\":"
                        + AuditTrail.quote(key) + ",\"held\":" + hold + "}");
        return Optional.of(new Written(id, incident, tenant, phase, key));
    }
}
