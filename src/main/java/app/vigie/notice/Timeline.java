package app.vigie.notice;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

import app.vigie.audit.AuditEvent;
import app.vigie.compliance.service.Escalation;
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
        for (AuditEvent e : AuditEvent.ofTarget(prefix)) {
            out.add(new IncidentReport.Event(When.of(e.at, zone, lang), e.action, e.actor,
                    party(e.target.substring(prefix.length()))));
        }
        // in the order they were planned (by id); the sort below, stable, puts each at its time
        Escalation.after(incident.id(), 0, Integer.MAX_VALUE).stream().filter(x -> x.firedAt() != null)
                .forEach(x -> out.add(new IncidentReport.Event(When.of(x.firedAt(), zone, lang),
                        "obligation.escalation", "vigie", x.tenant())));
        out.sort(Comparator.comparing(e -> e.at().utc() == null ? Instant.MAX : e.at().utc()));
        return out;
    }
}
