package app.vigie.incident;

import java.time.Instant;

/** A finding with its evidence: where (stream, boot, seq range) and what (pages and positions). */
public record FindingView(long id, String rule, String subject, String deployment, String stream, String boot,
        long firstSeq, long lastSeq, String detail, Instant seenAt, Instant recordedAt) {
}
