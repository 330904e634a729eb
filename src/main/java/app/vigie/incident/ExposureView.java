package app.vigie.incident;

import java.time.Instant;

/** One exposure: the positions of one victim request read by one reader request, over all its streams. */
public record ExposureView(String kind, String victimTenant, String victimRequest, String readerTenant,
        String readerRequest, long tokens, Instant firstSeenAt, Boolean delivered) {
}
