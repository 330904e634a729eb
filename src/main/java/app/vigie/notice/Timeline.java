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
 * (status changes, customers' awareness, decisions, measures, documents issued, obligations done, deadline
 * reminders), oldest first.
 */
public final class Timeline {
    /** A deadline reminder's action on the timeline. */
    static final String REMINDER = "obligation.escalation";

    private Timeline() {
    }

    /**
     * The tenant an audit target names after the incident ({@code /acme}, {@code /tenant:acme/authority-notification}),
     * or null for the incident itself and for the provider's own case ({@code /provider/nis2-23-4a/csirt:FR}), as for
     * the incident: documents name the customer concerned, not Vigie's internal paths (nor an English word in a
     * French document). An alert's target ({@code alert.*}) always names a customer, even one whose id is
     * "provider".
     */
    static String party(String action, String rest) {
        String t = rest.startsWith("/") ? rest.substring(1) : rest;
        if (t.isEmpty() || !action.startsWith("alert.") && (t.equals("provider") || t.startsWith("provider/"))) {
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
            if (!REMINDER.equals(e.action)) {
                out.add(new IncidentReport.Event(When.of(e.at, zone, lang), e.action, e.actor,
                        party(e.action, e.target.substring(prefix.length()))));
            }
        }
        // each reminder sent, from its row: the audit trail holds one event per batch of a check, with its counts
        // (before issue 45, one per reminder: those are left out above, their rows say the same)
        for (Escalation.Row r : Escalation.sent(incident.id())) {
            out.add(new IncidentReport.Event(When.of(r.firedAt(), zone, lang), REMINDER, "system", r.tenant()));
        }
        out.sort(Comparator.comparing(e -> e.at().utc() == null ? Instant.MAX : e.at().utc()));
        return out;
    }
}
