package app.vigie.compliance.service;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import app.vigie.compliance.plan.CaseFacts;
import app.vigie.compliance.plan.Completion;
import app.vigie.compliance.plan.Decision;
import app.vigie.compliance.plan.Obligation;

/** What is recorded of the cases of an incident (V8__obligations.sql). Tenant '' is the provider's own case. */
public final class CaseStore {
    private CaseStore() {
    }

    /** The incident's detection time, status and status reason. */
    public record IncidentRow(UUID id, Instant detectedAt, String status, String statusReason) {
    }

    public record Awareness(Instant awareAt, String evidence, String recordedBy, Instant recordedAt) {
    }

    /** ENISA inputs as stored (JSON) and the controller's override. */
    public record SeverityRow(String inputsJson, String overrideLevel, String overrideJustification,
            String recordedBy, Instant recordedAt) {
    }

    /** An escalation event as stored. */
    public record EscalationRow(long id, UUID incidentId, String tenant, String rule, String recipient, String step,
            Instant dueAt, Instant fireAt, Instant firedAt, String status) {
    }

    public static Optional<IncidentRow> incident(Connection c, UUID id, boolean lock) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "select id, detected_at, status, status_reason from incident where id = ?"
                        + (lock ? " for update" : ""))) {
            ps.setObject(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(new IncidentRow(rs.getObject(1, UUID.class), instant(rs, 2),
                        rs.getString(3), rs.getString(4))) : Optional.empty();
            }
        }
    }

    /** Incidents whose clocks still run (not dismissed, not closed). */
    public static List<UUID> running(Connection c) throws SQLException {
        List<UUID> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(
                "select id from incident where status not in ('DISMISSED', 'CLOSED') order by detected_at");
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                out.add(rs.getObject(1, UUID.class));
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
        Map<String, CaseFacts.Exposure> out = new LinkedHashMap<>();
        try (PreparedStatement ps = c.prepareStatement("""
                select t, bool_or(victim), bool_or(recipient) from (
                  select victim_tenant, true, false from exposure where incident_id = ?
                  union all select reader_tenant, false, true from exposure
                    where incident_id = ? and reader_tenant <> victim_tenant) x (t, victim, recipient)
                group by t order by t collate "C\"""")) {
            ps.setObject(1, id);
            ps.setObject(2, id);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    boolean victim = rs.getBoolean(2);
                    boolean recipient = rs.getBoolean(3);
                    out.put(rs.getString(1), victim && recipient ? CaseFacts.Exposure.BOTH
                            : victim ? CaseFacts.Exposure.VICTIM : CaseFacts.Exposure.RECIPIENT);
                }
            }
        }
        return out;
    }

    /**
     * When Vigie's first alert of the incident was delivered to each tenant (a 2xx from its webhook, its mail server
     * accepting the message, the Kafka broker acknowledging the record): the controller's awareness (EDPB Guidelines
     * 9/2022, para. 44).
     */
    public static Map<String, Instant> alertsDelivered(Connection c, UUID id) throws SQLException {
        Map<String, Instant> out = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("""
                select a.tenant, min(d.delivered_at) from customer_alert a join alert_delivery d on d.alert_id = a.id
                where a.incident_id = ? and d.status = 'DELIVERED' and d.delivered_at is not null
                group by a.tenant""")) {
            ps.setObject(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getString(1), instant(rs, 2));
                }
            }
        }
        return out;
    }

    public static Map<String, Awareness> awareness(Connection c, UUID id) throws SQLException {
        Map<String, Awareness> out = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement(
                "select tenant, aware_at, evidence, recorded_by, recorded_at from case_awareness"
                        + " where incident_id = ?")) {
            ps.setObject(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getString(1), new Awareness(instant(rs, 2), rs.getString(3), rs.getString(4),
                            instant(rs, 5)));
                }
            }
        }
        return out;
    }

    public static void setAwareness(Connection c, UUID id, String tenant, Awareness a) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                insert into case_awareness (incident_id, tenant, aware_at, evidence, recorded_by, recorded_at)
                values (?, ?, ?, ?, ?, ?)
                on conflict (incident_id, tenant) do update set aware_at = excluded.aware_at,
                  evidence = excluded.evidence, recorded_by = excluded.recorded_by,
                  recorded_at = excluded.recorded_at""")) {
            ps.setObject(1, id);
            ps.setString(2, tenant);
            ps.setTimestamp(3, Timestamp.from(a.awareAt()));
            ps.setString(4, a.evidence());
            ps.setString(5, a.recordedBy());
            ps.setTimestamp(6, Timestamp.from(a.recordedAt()));
            ps.executeUpdate();
        }
    }

    /** Decisions by tenant, then by name. */
    public static Map<String, Map<String, Decision>> decisions(Connection c, UUID id) throws SQLException {
        Map<String, Map<String, Decision>> out = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("""
                select tenant, decision, value, decided_at, justification from case_decision
                where incident_id = ?""")) {
            ps.setObject(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.computeIfAbsent(rs.getString(1), t -> new HashMap<>()).put(rs.getString(2),
                            new Decision(rs.getString(2), rs.getBoolean(3), instant(rs, 4), rs.getString(5)));
                }
            }
        }
        return out;
    }

    public static void setDecision(Connection c, UUID id, String tenant, Decision d, String actor, Instant now)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                insert into case_decision (incident_id, tenant, decision, value, decided_at, justification,
                  recorded_by, recorded_at)
                values (?, ?, ?, ?, ?, ?, ?, ?)
                on conflict (incident_id, tenant, decision) do update set value = excluded.value,
                  decided_at = excluded.decided_at, justification = excluded.justification,
                  recorded_by = excluded.recorded_by, recorded_at = excluded.recorded_at""")) {
            ps.setObject(1, id);
            ps.setString(2, tenant);
            ps.setString(3, d.name());
            ps.setBoolean(4, d.value());
            ps.setTimestamp(5, Timestamp.from(d.at()));
            ps.setString(6, d.justification());
            ps.setString(7, actor);
            ps.setTimestamp(8, Timestamp.from(now));
            ps.executeUpdate();
        }
    }

    public static Map<String, SeverityRow> severities(Connection c, UUID id) throws SQLException {
        Map<String, SeverityRow> out = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("""
                select tenant, inputs::text, override_level, override_justification, recorded_by, recorded_at
                from case_severity where incident_id = ?""")) {
            ps.setObject(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getString(1), new SeverityRow(rs.getString(2), rs.getString(3), rs.getString(4),
                            rs.getString(5), instant(rs, 6)));
                }
            }
        }
        return out;
    }

    public static void setSeverity(Connection c, UUID id, String tenant, SeverityRow s) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                insert into case_severity (incident_id, tenant, inputs, override_level, override_justification,
                  recorded_by, recorded_at)
                values (?, ?, ?::jsonb, ?, ?, ?, ?)
                on conflict (incident_id, tenant) do update set inputs = excluded.inputs,
                  override_level = excluded.override_level,
                  override_justification = excluded.override_justification,
                  recorded_by = excluded.recorded_by, recorded_at = excluded.recorded_at""")) {
            ps.setObject(1, id);
            ps.setString(2, tenant);
            ps.setString(3, s.inputsJson());
            ps.setString(4, s.overrideLevel());
            ps.setString(5, s.overrideJustification());
            ps.setString(6, s.recordedBy());
            ps.setTimestamp(7, Timestamp.from(s.recordedAt()));
            ps.executeUpdate();
        }
    }

    /** Completions by {@link Obligation#key()}, in the order recorded. */
    public static Map<String, List<Completion>> completions(Connection c, UUID id) throws SQLException {
        Map<String, List<Completion>> out = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("""
                select tenant, rule, recipient, phase, done_at, evidence, late_reasons, recorded_by, recorded_at
                from obligation_completion where incident_id = ? order by id""")) {
            ps.setObject(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String tenant = rs.getString(1);
                    out.computeIfAbsent(Obligation.key(tenant.isEmpty() ? null : tenant, rs.getString(2),
                            rs.getString(3)), k -> new ArrayList<>()).add(new Completion(rs.getString(4),
                                    instant(rs, 5), rs.getString(6), rs.getString(7), rs.getString(8),
                                    instant(rs, 9)));
                }
            }
        }
        return out;
    }

    public static void addCompletion(Connection c, UUID id, Obligation o, Completion done) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                insert into obligation_completion (incident_id, tenant, rule, recipient, phase, done_at, evidence,
                  late_reasons, recorded_by, recorded_at)
                values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""")) {
            ps.setObject(1, id);
            ps.setString(2, o.tenant() == null ? "" : o.tenant());
            ps.setString(3, o.rule());
            ps.setString(4, o.recipient());
            ps.setString(5, done.phase());
            ps.setTimestamp(6, Timestamp.from(done.doneAt()));
            ps.setString(7, done.evidence());
            ps.setString(8, done.lateReasons());
            ps.setString(9, done.recordedBy());
            ps.setTimestamp(10, Timestamp.from(done.recordedAt()));
            ps.executeUpdate();
        }
    }

    /** Writes an escalation unless the same (obligation, step, deadline) is already there; true when written. */
    public static boolean escalate(Connection c, UUID id, Obligation o, String step, Instant dueAt, Instant fireAt,
            Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                insert into escalation (incident_id, tenant, rule, recipient, step, due_at, fire_at, fired_at, status)
                values (?, ?, ?, ?, ?, ?, ?, ?, ?)
                on conflict (incident_id, tenant, rule, recipient, step, due_at) do nothing""")) {
            ps.setObject(1, id);
            ps.setString(2, o.tenant() == null ? "" : o.tenant());
            ps.setString(3, o.rule());
            ps.setString(4, o.recipient());
            ps.setString(5, step);
            ps.setTimestamp(6, Timestamp.from(dueAt));
            ps.setTimestamp(7, Timestamp.from(fireAt));
            ps.setTimestamp(8, Timestamp.from(now));
            ps.setString(9, o.status().name());
            return ps.executeUpdate() == 1;
        }
    }

    /** Escalations of one incident ({@code incident} non-null), or every one after {@code afterId}, oldest first. */
    public static List<EscalationRow> escalations(Connection c, UUID incident, long afterId, int limit)
            throws SQLException {
        List<EscalationRow> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                select id, incident_id, tenant, rule, recipient, step, due_at, fire_at, fired_at, status
                from escalation where (?::uuid is null or incident_id = ?) and id > ? order by id limit ?""")) {
            ps.setObject(1, incident);
            ps.setObject(2, incident);
            ps.setLong(3, afterId);
            ps.setInt(4, limit);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String tenant = rs.getString(3);
                    out.add(new EscalationRow(rs.getLong(1), rs.getObject(2, UUID.class),
                            tenant.isEmpty() ? null : tenant, rs.getString(4), rs.getString(5), rs.getString(6),
                            instant(rs, 7), instant(rs, 8), instant(rs, 9), rs.getString(10)));
                }
            }
        }
        return out;
    }

    private static Instant instant(ResultSet rs, int column) throws SQLException {
        Timestamp t = rs.getTimestamp(column);
        return t == null ? null : t.toInstant();
    }
}
