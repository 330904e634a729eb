package app.vigie.audit;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

import app.vigie.problem.Params;
import app.vigie.problem.ProblemException;

/**
 * A selection of the audit trail, each part optional: {@code actor} and {@code action} exact, {@code target} a
 * prefix (incident:ID gives the incident's own events and its tenants'), {@code from} inclusive and {@code to}
 * exclusive, {@code before} an id to page back from.
 */
public record AuditFilter(String actor, String action, String target, Instant from, Instant to, Long before) {

    /** The filter of a query's parameters, each checked: a bad one is a 400 naming it. */
    public static AuditFilter parse(String actor, String action, String target, String from, String to,
            String before) {
        Instant f = time("from", from);
        Instant t = time("to", to);
        if (f != null && t != null && !f.isBefore(t)) {
            throw new ProblemException(400, "query parameter 'from' (" + f + ") must be before 'to' (" + t + ")");
        }
        return new AuditFilter(blank(actor), blank(action), blank(target), f, t,
                before == null || before.isBlank() ? null : Params.number("before", before, 1, Long.MAX_VALUE));
    }

    private static Instant time(String name, String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        try {
            return OffsetDateTime.parse(value.strip()).toInstant();
        } catch (DateTimeParseException e) {
            throw new ProblemException(400, "query parameter '" + name + "' must be an RFC 3339 time such as "
                    + "2026-12-02T09:00:00Z, got '" + value + "'");
        }
    }

    private static String blank(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }
}
