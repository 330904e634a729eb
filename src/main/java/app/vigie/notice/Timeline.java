package app.vigie.notice;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

import app.vigie.incident.IncidentView;

/**
 * An incident's timeline: its first exposure and detection, then every state change the audit trail holds for it
 * (status changes, customers' awareness, decisions, measures, documents issued, obligations done) and every
 * deadline reminder fired, oldest first.
 */
public final class Timeline {
    private Timeline() {
    }

    /**
     * The tenant an audit target names after the incident ({@code /acme}, {@code /tenant:acme/authority-notification}),
     * or null for the incident itself: documents name the party, not Vigie's internal paths.
     */
    static String party(String rest) {
        String t = rest.startsWith("/") ? rest.substring(1) : rest;
        if (t.isEmpty()) {
            return null;
        }
        t = t.startsWith("tenant:") ? t.substring("tenant:".length()) : t;
        int slash = t.indexOf('/');
        return slash < 0 ? t : t.substring(0, slash);
    }

    public static List<IncidentReport.Event> of(Connection c, IncidentView incident, ZoneId zone, Locale lang)
            throws SQLException {
        List<IncidentReport.Event> out = new ArrayList<>();
        out.add(new IncidentReport.Event(When.of(incident.firstExposureAt(), zone, lang), "first_exposure",
                "detector", null));
        out.add(new IncidentReport.Event(When.of(incident.detectedAt(), zone, lang), "detected", "detector", null));
        String prefix = "incident:" + incident.id();
        try (PreparedStatement ps = c.prepareStatement(
                "select at, action, actor, target from audit_event where target = ? or target like ? order by at, id")) {
            ps.setString(1, prefix);
            ps.setString(2, prefix + "/%");
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new IncidentReport.Event(When.of(rs.getTimestamp(1).toInstant(), zone, lang),
                            rs.getString(2), rs.getString(3), party(rs.getString(4).substring(prefix.length()))));
                }
            }
        }
        try (PreparedStatement ps = c.prepareStatement("""
                select fired_at, step, tenant, rule, recipient from escalation
                where incident_id = ? and fired_at is not null order by fired_at, id""")) {
            ps.setObject(1, incident.id());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String tenant = rs.getString(3);
                    out.add(new IncidentReport.Event(When.of(rs.getTimestamp(1).toInstant(), zone, lang),
                            "obligation.escalation", "vigie", tenant == null || tenant.isEmpty() ? null : tenant));
                }
            }
        }
        out.sort(Comparator.comparing(e -> e.at().utc() == null ? Instant.MAX : e.at().utc()));
        return out;
    }
}
