package app.vigie.incident;

import java.time.Instant;

/**
 * One exposure: the positions of one victim request read by one reader request, over all its streams. {@code possible}
 * (spec 1.3, amendment 3): only a write to a slot while a transfer read it gives it, so the content read is uncertain.
 */
public record ExposureView(String kind, String victimTenant, String victimRequest, String readerTenant,
        String readerRequest, long tokens, Instant firstSeenAt, Boolean delivered, boolean possible) {

    /** A certain exposure. */
    public ExposureView(String kind, String victimTenant, String victimRequest, String readerTenant,
            String readerRequest, long tokens, Instant firstSeenAt, Boolean delivered) {
        this(kind, victimTenant, victimRequest, readerTenant, readerRequest, tokens, firstSeenAt, delivered, false);
    }
}
