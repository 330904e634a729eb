package app.vigie.metrics;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

import app.vigie.auditlog.store.RecordStore;
import app.vigie.compliance.service.DeadlineStore;
import app.vigie.incident.IncidentQueries;
import app.vigie.incident.IncidentStatus;

/** The values of {@link StateGauges}, read in one transaction: gauge name (with {@code |tag value}) to value. */
final class StateQueries {
    private StateQueries() {
    }

    /** The key of a gauge's value: its name, and its one tag's value when it has one. */
    static String key(String name, String tagValue) {
        return tagValue == null ? name : name + "|" + tagValue.toLowerCase(Locale.ROOT);
    }

    static Map<String, Double> read(Connection c, Instant now) throws SQLException {
        Map<String, Double> next = new HashMap<>();
        for (IncidentStatus s : IncidentStatus.values()) {
            next.put(key("vigie.incidents", s.name()), 0.0);
        }
        try (PreparedStatement ps = c.prepareStatement("select status, count(*) from incident group by status");
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                next.put(key("vigie.incidents", rs.getString(1)), (double) rs.getLong(2));
            }
        }
        try (PreparedStatement ps = c.prepareStatement("""
                select (select count(*) from exposure),
                  (select coalesce(sum(n.leaked_responses), 0) from incident_counter n join incident i
                     on i.id = n.incident_id where i.%s),
                  (select coalesce(sum(%s), 0) from stream_boot s),
                  (select count(*) from quarantine)""".formatted(IncidentQueries.RUNNING,
                RecordStore.HELD_BACK_OF_S));
                ResultSet rs = ps.executeQuery()) {
            rs.next();
            next.put("vigie.exposures", (double) rs.getLong(1));
            next.put("vigie.leaked.responses", (double) rs.getLong(2));
            next.put("vigie.intake.held", (double) rs.getLong(3));
            next.put("vigie.quarantine.records", (double) rs.getLong(4));
        }
        DeadlineStore.last(c).ifPresent(s -> {
            next.put("vigie.obligations.due.soon", (double) s.dueSoon());
            next.put("vigie.obligations.overdue", (double) s.late());
            next.put("vigie.alerts.undelivered", (double) s.alertsUndelivered());
            next.put("vigie.alerts.unacknowledged", (double) s.alertsUnacknowledged());
            next.put("vigie.obligations.checked.age", (now.toEpochMilli() - s.computedAt().toEpochMilli()) / 1000.0);
        });
        return next;
    }
}
