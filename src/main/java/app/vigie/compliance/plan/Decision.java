package app.vigie.compliance.plan;

import java.time.Instant;

/**
 * A fact the holder of an obligation establishes (DORA's "major", the AI Act's "serious", {@value #UNLIKELY_RISK}),
 * with when it was established and why. {@code value} false records that the fact does not hold.
 */
public record Decision(String name, boolean value, Instant at, String justification) {
    /** The controller's finding that the breach is unlikely to result in a risk (GDPR Art. 33(1)): no notification. */
    public static final String UNLIKELY_RISK = "unlikely_risk";
}
