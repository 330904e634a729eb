package app.vigie.detection.core;

import java.time.Instant;

/**
 * A rule that fired. {@code subject} is what the rule is counted per: a request id, or {@code stream@boot} for
 * rules counted per (stream, boot). The evidence says where: stream, boot, seq range and a description of the pages
 * and positions involved.
 */
public record Finding(Rule rule, String deployment, String subject, Instant at, Evidence evidence) {

    /** Where a finding was seen. {@code detail} describes pages and positions for a person. */
    public record Evidence(String stream, String boot, long firstSeq, long lastSeq, String detail) {
    }
}
