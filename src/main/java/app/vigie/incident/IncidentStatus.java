package app.vigie.incident;

import java.util.EnumSet;
import java.util.Set;

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

    /** A reason is required to dismiss or close. */
    public boolean needsReason() {
        return this == DISMISSED || this == CLOSED;
    }
}
