package app.vigie.compliance.service;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

import app.vigie.problem.ProblemException;

/** The checks of what a person states about a case: times (RFC 3339, plausible) and texts (bounded). */
final class CaseInput {
    /** Times up to this far ahead of the server's clock are accepted (clock skew), not more. */
    static final Duration SKEW = Duration.ofMinutes(5);
    /** The longest text kept (evidence, justification, reasons). */
    static final int TEXT_MAX = 4000;

    private CaseInput() {
    }

    /** An RFC 3339 time of the body: not in the future, not before the incident was detected. */
    static Instant time(String field, String value, boolean required, Instant detectedAt, Instant now) {
        if (value == null || value.isBlank()) {
            if (required) {
                throw new ProblemException(400, "field '" + field + "' is required (RFC 3339, e.g. "
                        + "2026-10-25T09:30:00+02:00)");
            }
            return null;
        }
        Instant at;
        try {
            at = OffsetDateTime.parse(value.strip()).toInstant();
        } catch (DateTimeParseException e) {
            throw new ProblemException(400, "field '" + field + "' must be an RFC 3339 time with its offset, such as "
                    + "2026-10-25T09:30:00+02:00 or 2026-10-25T07:30:00Z; got '" + value + "'");
        }
        if (at.isAfter(now.plus(SKEW))) {
            throw new ProblemException(400, "field '" + field + "' is in the future: " + at);
        }
        if (at.isBefore(detectedAt)) {
            throw new ProblemException(400, "field '" + field + "' is before the incident was detected ("
                    + detectedAt + "): " + at);
        }
        return at;
    }

    static String text(String field, String value, boolean required) {
        String v = value == null ? null : value.strip();
        if (v == null || v.isEmpty()) {
            if (required) {
                throw new ProblemException(400, "field '" + field + "' is required");
            }
            return null;
        }
        if (v.length() > TEXT_MAX) {
            throw new ProblemException(400, "field '" + field + "' has at most " + TEXT_MAX + " characters");
        }
        return v;
    }
}
