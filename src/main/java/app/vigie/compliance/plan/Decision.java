package app.vigie.compliance.plan;

import java.time.Instant;

/**
 * A fact the holder of an obligation establishes (DORA's "major", the AI Act's "serious", GDPR's "unlikely_risk"),
 * with when it was established and why. {@code value} false records that the fact does not hold.
 */
public record Decision(String name, boolean value, Instant at, String justification) {
}
