package app.vigie.incident;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

import app.vigie.problem.ProblemException;

/** The lifecycle of an incident. Findings join the incident of their deployment until it is CLOSED. */
public enum IncidentStatus {
    OPEN, TRIAGED, CONFIRMED, DISMISSED, CLOSED;

    /** The statuses this one may change to. */
    public Set<IncidentStatus> next() {
        return switch (this) {
            case OPEN -> EnumSet.of(TRIAGED, CONFIRMED, DISMISSED);
            case TRIAGED -> EnumSet.of(CONFIRMED, DISMISSED);
            case CONFIRMED, DISMISSED -> EnumSet.of(CLOSED);
            case CLOSED -> EnumSet.noneOf(IncidentStatus.class);
        };
    }

    /** The status a client named (any case); a 400 naming the statuses otherwise. */
    public static IncidentStatus parse(String s) {
        if (s == null) {
            throw new ProblemException(400, "field 'status' is required: TRIAGED, CONFIRMED, DISMISSED or CLOSED");
        }
        try {
            return valueOf(s.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new ProblemException(400, "unknown status '" + s + "': OPEN, TRIAGED, CONFIRMED, DISMISSED or CLOSED");
        }
    }

    /** A reason is required to dismiss or close. */
    public boolean needsReason() {
        return this == DISMISSED || this == CLOSED;
    }
}
