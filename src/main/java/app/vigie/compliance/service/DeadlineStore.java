package app.vigie.compliance.service;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;

import app.vigie.compliance.plan.Obligation;
import app.vigie.incident.IncidentQueries;
import app.vigie.incident.OverviewQueries;

/**
 * The deadlines of each running incident's open obligations as its last plan gave them ({@code incident_deadline}),
 * and the overview's summary the reminder check counts from them after each check ({@code overview_summary}):
 * obligations due within a day and late, alerts not delivered or not acknowledged, tenants missing from the
 * directory. The summary is as old as the last check ({@link Summary#computedAt}); the filters read the deadlines
 * when asked.
 */
public final class DeadlineStore {
    /** How far ahead "due soon" looks. */
    public static final Duration SOON = Duration.ofHours(24);

    private DeadlineStore() {
    }

    /**
     * Saves the open obligations' deadlines of each plan, made by another path than the reminder check (an action on a
     * case, the overview): the next check plans these incidents again ({@code planned_with} null).
     */
    public static void save(Connection c, Collection<ObligationService.Plan> plans, Instant now) throws SQLException {
        save(c, plans, now, p -> null, null);
    }

    /**
     * Saves the open obligations' deadlines of each plan, with when the reminder check must plan it again by time
     * alone ({@code checkAt}: null, never) and what it was planned with ({@link ComplianceRules#plannedWith}).
     */
    static void save(Connection c, Collection<ObligationService.Plan> plans, Instant now,
            Function<ObligationService.Plan, Instant> checkAt, String plannedWith) throws SQLException {
        if (plans.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement("""
                insert into incident_deadline (incident_id, due_at, late_after, planned_at, check_at, planned_with)
                values (?, ?::timestamptz[], ?::timestamptz[], ?, ?, ?)
                on conflict (incident_id) do update set due_at = excluded.due_at, late_after = excluded.late_after,
                  planned_at = excluded.planned_at, check_at = excluded.check_at,
                  planned_with = excluded.planned_with""")) {
            for (ObligationService.Plan plan : plans) {
                List<String> due = new ArrayList<>();
                List<String> late = new ArrayList<>();
                for (Obligation o : plan.obligations()) {
                    if (!o.open()) {
                        continue;
                    }
                    if (o.dueAt() != null) {
                        due.add(o.dueAt().toString());
                    }
                    // past a target the law does not bound, an obligation is not late (Obligation.statusWord)
                    if (o.bound() && o.lateAfter() != null) {
                        late.add(o.lateAfter().toString());
                    }
                }
                Instant check = checkAt.apply(plan);
                ps.setObject(1, plan.incident().id());
                // ISO-8601 instants as text: a java.sql.Timestamp in an array goes in the JVM's zone, without an offset
                ps.setArray(2, c.createArrayOf("text", due.toArray()));
                ps.setArray(3, c.createArrayOf("text", late.toArray()));
                ps.setTimestamp(4, Timestamp.from(now));
                ps.setTimestamp(5, check == null ? null : Timestamp.from(check));
                ps.setString(6, plannedWith);
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    /**
     * The running incidents the reminder check must plan at {@code now} whatever their facts: never planned by it
     * under {@code plannedWith}, or whose {@code check_at} has come. Oldest first.
     */
    static List<UUID> due(Connection c, Instant now, String plannedWith) throws SQLException {
        List<UUID> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("select i.id from incident i"
                + " left join incident_deadline d on d.incident_id = i.id where i." + IncidentQueries.RUNNING
                + " and (d.incident_id is null or d.planned_with is distinct from ? or d.check_at <= ?)"
                + " order by i.detected_at, i.id")) {
            ps.setString(1, plannedWith);
            ps.setTimestamp(2, Timestamp.from(now));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getObject(1, UUID.class));
                }
            }
        }
        return out;
    }

    /**
     * The facts' changes not yet planned (V26's {@code plan_change}, written by triggers), the oldest {@code limit},
     * by incident: the numbers of the rows, which the check deletes once it has planned the incident.
     */
    static Map<UUID, List<Long>> changes(Connection c, int limit) throws SQLException {
        Map<UUID, List<Long>> out = new LinkedHashMap<>();
        try (PreparedStatement ps = c.prepareStatement(
                "select seq, incident_id from plan_change order by seq limit ?")) {
            ps.setInt(1, limit);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.computeIfAbsent(rs.getObject(2, UUID.class), i -> new ArrayList<>()).add(rs.getLong(1));
                }
            }
        }
        return out;
    }

    /** Deletes the changes planned (rows of {@link #changes}). */
    static void planned(Connection c, Collection<Long> changes) throws SQLException {
        if (changes.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement("delete from plan_change where seq = any(?)")) {
            ps.setArray(1, c.createArrayOf("bigint", changes.toArray()));
            ps.executeUpdate();
        }
    }

    /**
     * The overview's summary over the running incidents, as of {@code computedAt}: how many were counted, their open
     * obligations due within {@link #SOON} and late, their alerts not delivered and delivered but not acknowledged,
     * and their tenants missing from the directory.
     */
    public record Summary(int incidents, long dueSoon, long late, long alertsUndelivered, long alertsUnacknowledged,
            int unmappedTenants, Instant computedAt) {
    }

    /**
     * Counts the summary at {@code now} and saves it (one row). The alerts are counted as {@code CustomerAlert.State}
     * selects them for the alerts page; the tenants as {@code OverviewQueries.unmappedTenants} lists them.
     */
    public static Summary refresh(Connection c, Instant now) throws SQLException {
        Summary s;
        try (PreparedStatement ps = c.prepareStatement("""
                with running as (select id from incident where %s),
                deadlines as (
                  select coalesce(sum((select count(*) from unnest(d.due_at) t where t > ? and t <= ?)), 0) due_soon,
                         coalesce(sum((select count(*) from unnest(d.late_after) t where t < ?)), 0) late
                  from running r join incident_deadline d on d.incident_id = r.id),
                alerts as (
                  select count(*) filter (where delivered is null) undelivered,
                         count(*) filter (where delivered is not null and a.acknowledged_at is null
                                          and a.phase <> 'FINAL') unacknowledged
                  from running r join customer_alert a on a.incident_id = r.id
                  -- one pass over the deliveries (hashed), not an index probe per alert: 66 ms instead of 330 at
                  -- 160,000 alerts
                  left join (select distinct alert_id, true delivered from alert_delivery
                             where status = 'DELIVERED') x on x.alert_id = a.id)
                select (select count(*) from running), d.due_soon, d.late, a.undelivered, a.unacknowledged
                from deadlines d, alerts a""".formatted(IncidentQueries.RUNNING))) {
            Timestamp at = Timestamp.from(now);
            ps.setTimestamp(1, at);
            ps.setTimestamp(2, Timestamp.from(now.plus(SOON)));
            ps.setTimestamp(3, at);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                s = new Summary(rs.getInt(1), rs.getLong(2), rs.getLong(3), rs.getLong(4), rs.getLong(5),
                        OverviewQueries.unmappedTenants(c).size(), now);
            }
        }
        try (PreparedStatement ps = c.prepareStatement("""
                insert into overview_summary (id, incidents, due_soon, late, alerts_undelivered, alerts_unacknowledged,
                  unmapped_tenants, computed_at) values (1, ?, ?, ?, ?, ?, ?, ?)
                on conflict (id) do update set incidents = excluded.incidents, due_soon = excluded.due_soon,
                  late = excluded.late, alerts_undelivered = excluded.alerts_undelivered,
                  alerts_unacknowledged = excluded.alerts_unacknowledged, unmapped_tenants = excluded.unmapped_tenants,
                  computed_at = excluded.computed_at""")) {
            ps.setInt(1, s.incidents());
            ps.setLong(2, s.dueSoon());
            ps.setLong(3, s.late());
            ps.setLong(4, s.alertsUndelivered());
            ps.setLong(5, s.alertsUnacknowledged());
            ps.setInt(6, s.unmappedTenants());
            ps.setTimestamp(7, Timestamp.from(now));
            ps.executeUpdate();
        }
        return s;
    }

    /** The summary the last check saved; empty before the first. */
    public static Optional<Summary> last(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("select incidents, due_soon, late, alerts_undelivered,"
                + " alerts_unacknowledged, unmapped_tenants, computed_at from overview_summary where id = 1");
                ResultSet rs = ps.executeQuery()) {
            return rs.next() ? Optional.of(new Summary(rs.getInt(1), rs.getLong(2), rs.getLong(3), rs.getLong(4),
                    rs.getLong(5), rs.getInt(6), rs.getTimestamp(7).toInstant())) : Optional.empty();
        }
    }
}
