package app.vigie.compliance.rules;

import java.util.List;
import java.util.Locale;

/**
 * Where an obligation's clock starts. {@code ref}: the obligation of an {@link Origin#AFTER} clock; the decision of
 * a {@link Origin#DECISION} clock when it is not the rule's own; the origin whose calendar year a
 * {@link Origin#YEAR_END} clock waits for the end of.
 */
public record Clock(Origin origin, String ref) {

    public enum Origin {
        /** The incident's {@code detected_at}: the processor became aware. */
        PROCESSOR_AWARENESS,
        /** When the controller became aware: our alert delivered, or an earlier awareness recorded. */
        CONTROLLER_AWARENESS,
        /** When the holder recorded a decision true; not started until then (a {@code cap} may still bound it). */
        DECISION,
        /**
         * When the obligation {@link #ref} was done (the latest time, when it is repeatable), or else its due time;
         * with several ({@code after: [a, b]}), the latest of those that are required.
         */
        AFTER,
        /** The end of the calendar year (in the regime's zone) in which the controller became aware. */
        YEAR_END
    }

    public static Clock of(Origin o) {
        return new Clock(o, null);
    }

    /** The obligation(s) an {@code after:} clock follows, comma-separated. */
    public String after() {
        return origin == Origin.AFTER ? ref : null;
    }

    /** The obligations an {@code after:} clock follows: it starts at the latest of them. */
    public List<String> afterAll() {
        return origin == Origin.AFTER ? List.of(ref.split(",")) : List.of();
    }

    @Override
    public String toString() {
        return switch (origin) {
            case AFTER -> "after " + ref;
            case DECISION -> ref == null ? "decision" : "decision " + ref;
            case YEAR_END -> "year_end";
            default -> origin.name().toLowerCase(Locale.ROOT);
        };
    }
}
