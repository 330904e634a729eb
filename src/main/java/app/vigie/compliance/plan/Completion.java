package app.vigie.compliance.plan;

import java.time.Instant;

/**
 * A recorded fulfilment of an obligation: when it was done, its evidence (an authority's receipt number, a message
 * id), the phase for a phased notification (INITIAL, COMPLEMENTARY) and the reasons for a delay when late.
 */
public record Completion(String phase, Instant doneAt, String evidence, String lateReasons, String recordedBy,
        Instant recordedAt) {
}
