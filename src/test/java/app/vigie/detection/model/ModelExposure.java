package app.vigie.detection.model;

import java.time.Instant;

/**
 * One exposure of the naive model: the positions of one reader judged (4) or (5) against one victim, in one
 * deployment. {@code lastSeenAt}: the latest ATTACH that judged it (api.md's {@code last_exposure_at}, spec 1.3
 * amendment 7). {@code kind} is {@code CROSS_TENANT} or {@code INTRA_TENANT}; {@code delivered} is null while no FINISH
 * of the reader has been applied; {@code possible} (spec 1.3, amendment 3) when no position of it is certain.
 */
public record ModelExposure(String deployment, String kind, String readerRequest, String readerTenant,
        String victimRequest, String victimTenant, int tokens, Instant firstSeenAt, Instant lastSeenAt, Boolean delivered,
        boolean possible) {
}
