package app.vigie.detection.core;

import java.time.Instant;

/**
 * What one {@code ATTACH} of a reader judged an exposure of one victim: the reader's logical positions last written
 * by the victim ({@code positions}). Reads of one (reader, victim) pair on any stream {@link #merge merge} into one
 * exposure whose {@code tokens} is the size of the union (spec, "Clarifications"): a position read on two streams
 * (tensor-parallel ranks, prefill and decode pools) or by two ATTACHes counts once. Merging is idempotent, so that
 * applying a read twice changes nothing. {@code possible} (spec 1.3, amendment 3): only a write to a slot while a
 * transfer was reading it gives this exposure, so the content read is uncertain; a pair's exposure is certain as soon
 * as one read of it is ({@link #merge}).
 */
public record ExposureRead(String deployment, ExposureKind kind, String readerRequest, String readerTenant,
        String victimRequest, String victimTenant, Ranges positions, Instant firstSeenAt, Instant attachAt,
        String stream, String boot, long seq, boolean possible) {

    /** A certain exposure. */
    public ExposureRead(String deployment, ExposureKind kind, String readerRequest, String readerTenant,
            String victimRequest, String victimTenant, Ranges positions, Instant firstSeenAt, Instant attachAt,
            String stream, String boot, long seq) {
        this(deployment, kind, readerRequest, readerTenant, victimRequest, victimTenant, positions, firstSeenAt,
                attachAt, stream, boot, seq, false);
    }

    /** The exposure's size: how many distinct positions. */
    public int tokens() {
        return positions.size();
    }

    /**
     * The key an exposure is counted per: (deployment, reader, victim), joined by NUL, which no identifier may hold
     * (the intake refuses control characters), so that two pairs never share a key.
     */
    public String pairKey() {
        return deployment + "\u0000" + readerRequest + "\u0000" + victimRequest;
    }

    /**
     * Both reads of one pair as one: the union of their positions, the earliest first sight, the latest ATTACH;
     * possible only when both are.
     */
    public ExposureRead merge(ExposureRead o) {
        ExposureRead later = o.attachAt.isAfter(attachAt) ? o : this;
        return new ExposureRead(deployment, kind, readerRequest, readerTenant, victimRequest, victimTenant,
                positions.union(o.positions), firstSeenAt.isAfter(o.firstSeenAt) ? o.firstSeenAt : firstSeenAt,
                later.attachAt, later.stream, later.boot, later.seq, possible && o.possible);
    }
}
