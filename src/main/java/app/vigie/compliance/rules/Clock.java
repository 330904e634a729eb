package app.vigie.compliance.rules;

/** Where an obligation's clock starts. */
public record Clock(Origin origin, String after) {

    public enum Origin {
        /** The incident's {@code detected_at}: the processor became aware. */
        PROCESSOR_AWARENESS,
        /** When our alert reached the controller. */
        CONTROLLER_AWARENESS,
        /** When the holder recorded the obligation's decision; not started until then (a {@code cap} may still bound it). */
        DECISION,
        /** When the obligation {@link #after} was done, or else its due time. */
        AFTER
    }

    public static Clock of(Origin o) {
        return new Clock(o, null);
    }

    @Override
    public String toString() {
        return origin == Origin.AFTER ? "after " + after : origin.name().toLowerCase(java.util.Locale.ROOT);
    }
}
