package app.vigie.detection.core;

import java.time.Instant;

/**
 * One {@code ATTACH} of a reader that judged positions of one victim an exposure. {@code tokens} is the exposure's
 * size so far on this stream: every position of the pair counted once over all the reader's ATTACHes (an absolute
 * value, so that applying it twice changes nothing). {@code firstSeenAt} is the ts of the pair's first ATTACH.
 */
public record ExposureRead(String deployment, ExposureKind kind, String readerRequest, String readerTenant,
        String victimRequest, String victimTenant, int tokens, Instant firstSeenAt, Instant attachAt, String stream,
        String boot, long seq) {
}
