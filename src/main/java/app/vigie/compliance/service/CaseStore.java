package app.vigie.compliance.service;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import app.vigie.compliance.plan.CaseFacts;
import app.vigie.compliance.plan.Obligation;
import app.vigie.incident.IncidentQueries;

/**
 * SQL of the cases of an incident: the incident row the plan starts from (locked by whoever numbers or decides), the
 * running incidents, the tenants affected and their alerts delivered. The facts people record and the reminders are
 * entities ({@link CaseAwareness}, {@link CaseDecision}, {@link CaseSeverity}, {@link ObligationCompletion},
 * {@link Escalation}). Tenant {@code ''} is the provider's own case.
 */
public final class CaseStore {
    private CaseStore() {
    }

    /** The columns of an {@link IncidentRow}, read by {@link #incidentRow}. */
    private static final String INCIDENT_ROW = "select id, detected_at, status, status_reason from incident";

    /** The incident's detection time, status and status reason. */
    public record IncidentRow(UUID id, Instant detectedAt, String status, String statusReason) {
    }

    public static Optional<IncidentRow> incident(Connection c, UUID id, boolean lock) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                INCIDENT_ROW + " where id = ?" + (lock ? " for update" : ""))) {
            ps.setObject(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(incidentRow(rs)) : Optional.empty();
            }
        }
    }

    /** Whether an incident of this status has clocks that run. */
    public static boolean running(String status) {
        return !"DISMISSED".equals(status) && !"CLOSED".equals(status);
    }

    /** These incidents (those that exist), read by one statement. */
    public static Map<UUID, IncidentRow> incidents(Connection c, Collection<UUID> ids) throws SQLException {
        Map<UUID, IncidentRow> out = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement(INCIDENT_ROW + " where id = any(?)")) {
            ps.setArray(1, c.createArrayOf("uuid", ids.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    IncidentRow row = incidentRow(rs);
                    out.put(row.id(), row);
                }
            }
        }
        return out;
    }

    /**
     * Running incidents whose deadlines were never saved ({@code incident_deadline}), newest first: at most
     * {@code limit}. Only those detected since a minute before the last summary are looked at (the check that counted
     * it planned every incident detected before it started), so that the overview does not pass over every incident.
     */
    public static List<IncidentRow> unplanned(Connection c, int limit) throws SQLException {
        List<IncidentRow> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(INCIDENT_ROW + " i where " + IncidentQueries.RUNNING
                + " and detected_at >= coalesce((select least(computed_at, now()) - interval '1 minute'"
                + " from overview_summary), '-infinity')"
                + " and not exists (select 1 from incident_deadline d where d.incident_id = i.id)"
                + " order by detected_at desc, id limit ?")) {
            ps.setInt(1, limit);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(incidentRow(rs));
                }
            }
        }
        return out;
    }

    /** Incidents whose clocks still run (not dismissed, not closed), oldest first. */
    public static List<IncidentRow> running(Connection c) throws SQLException {
        List<IncidentRow> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(INCIDENT_ROW
                + " where " + IncidentQueries.RUNNING + " order by detected_at, id");
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                out.add(incidentRow(rs));
            }
        }
        return out;
    }

    /**
     * Tenants with an exposure in the incident, sorted by code point, each with how it was exposed: victim (its
     * requests' tokens were read, by another tenant or by another request of its own), recipient (its requests read
     * another tenant's tokens), or both.
     */
    public static Map<String, CaseFacts.Exposure> affectedTenants(Connection c, UUID id) throws SQLException {
        return affectedTenants(c, List.of(id)).getOrDefault(id, Map.of());
    }

    /** {@link #affectedTenants(Connection, UUID)} of each of these incidents (those with none left out). */
    public static Map<UUID, Map<String, CaseFacts.Exposure>> affectedTenants(Connection c, Collection<UUID> ids)
            throws SQLException {
        // the counts the intake keeps per (incident, tenant) (V13): requests of the tenant exposed, and its requests
        // that read another tenant's tokens (cross-tenant), instead of a pass over every exposure of the incident
        return tenantsByIncident(c, ids, """
                select incident_id, tenant, exposed_requests > 0, received_requests > 0 from incident_tenant_exposure
                where incident_id = any(?) and (exposed_requests > 0 or received_requests > 0)
                order by incident_id, tenant collate "C\"""");
    }

    /**
     * The tenants each incident's possible exposures touch (spec 1.3, amendment 3; V35): victims, and readers of
     * cross-tenant ones; those with none left out.
     */
    public static Map<UUID, Map<String, CaseFacts.Exposure>> possiblyAffectedTenants(Connection c,
            Collection<UUID> ids) throws SQLException {
        return tenantsByIncident(c, ids, """
                select incident_id, tenant, bool_or(victim), bool_or(recipient) from (
                  select incident_id, victim_tenant as tenant, true as victim, false as recipient
                  from possible_exposure where incident_id = any(?)
                  union all
                  select incident_id, reader_tenant, false, true from possible_exposure
                  where incident_id = any(?) and kind = 'CROSS_TENANT') x
                group by 1, 2 order by incident_id, tenant collate "C\"""");
    }

    /**
     * Runs {@code sql} (rows of incident, tenant, victim, recipient; every parameter the incidents' ids) into each
     * incident's tenants, in the rows' order, with how each was exposed.
     */
    private static Map<UUID, Map<String, CaseFacts.Exposure>> tenantsByIncident(Connection c, Collection<UUID> ids,
            String sql) throws SQLException {
        Map<UUID, Map<String, CaseFacts.Exposure>> out = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            Array array = c.createArrayOf("uuid", ids.toArray());
            for (int i = 1; i <= ps.getParameterMetaData().getParameterCount(); i++) {
                ps.setArray(i, array);
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    boolean victim = rs.getBoolean(3);
                    boolean recipient = rs.getBoolean(4);
                    out.computeIfAbsent(rs.getObject(1, UUID.class), i -> new LinkedHashMap<>()).put(rs.getString(2),
                            victim && recipient ? CaseFacts.Exposure.BOTH
                                    : victim ? CaseFacts.Exposure.VICTIM : CaseFacts.Exposure.RECIPIENT);
                }
            }
        }
        return out;
    }

    /** When the first alert of the incident delivered to the tenant at or after {@code since} was; null: none yet. */
    public static Instant alertDeliveredSince(Connection c, UUID incident, String tenant, Instant since)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                select min(d.delivered_at) from customer_alert a join alert_delivery d on d.alert_id = a.id
                where a.incident_id = ? and a.tenant = ? and d.status = 'DELIVERED' and d.delivered_at >= ?""")) {
            ps.setObject(1, incident);
            ps.setString(2, tenant);
            ps.setTimestamp(3, Timestamp.from(since));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return instant(rs, 1);
            }
        }
    }

    /**
     * When Vigie's first alert of the incident was delivered to each tenant (a 2xx from its webhook, its mail server
     * accepting the message, the Kafka broker acknowledging the record): the controller's awareness (EDPB Guidelines
     * 9/2022 v2.0, section II.A.4).
     */
    public static Map<String, Instant> alertsDelivered(Connection c, UUID id) throws SQLException {
        return alertsDelivered(c, List.of(id)).getOrDefault(id, Map.of());
    }

    /** {@link #alertsDelivered(Connection, UUID)} of each of these incidents (those with none left out). */
    public static Map<UUID, Map<String, Instant>> alertsDelivered(Connection c, Collection<UUID> ids)
            throws SQLException {
        Map<UUID, Map<String, Instant>> out = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("""
                select a.incident_id, a.tenant, min(d.delivered_at)
                from customer_alert a join alert_delivery d on d.alert_id = a.id
                where a.incident_id = any(?) and d.status = 'DELIVERED' and d.delivered_at is not null
                group by a.incident_id, a.tenant""")) {
            ps.setArray(1, c.createArrayOf("uuid", ids.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.computeIfAbsent(rs.getObject(1, UUID.class), i -> new HashMap<>()).put(rs.getString(2),
                            instant(rs, 3));
                }
            }
        }
        return out;
    }

    private static IncidentRow incidentRow(ResultSet rs) throws SQLException {
        return new IncidentRow(rs.getObject(1, UUID.class), instant(rs, 2), rs.getString(3), rs.getString(4));
    }

    private static Instant instant(ResultSet rs, int column) throws SQLException {
        Timestamp t = rs.getTimestamp(column);
        return t == null ? null : t.toInstant();
    }
}
