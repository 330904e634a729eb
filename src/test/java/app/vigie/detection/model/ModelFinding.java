package app.vigie.detection.model;

import java.time.Instant;

/**
 * One finding of the naive model, unique per {@code (deployment, rule, subject)}, with the evidence of its smallest
 * {@code (at, stream, boot, firstSeq)} occurrence.
 */
public record ModelFinding(String deployment, String rule, String subject, Instant at, String stream, String boot,
        long firstSeq, long lastSeq) {
}
