package app.vigie.detection.core;

import java.time.Instant;

/**
 * Spec v1.1: what one {@code ATTACH} read of slots that a transfer wrote with {@code sent: true}. The reader's
 * positions {@code [readerFrom, readerFrom + tokens)} hold what request {@code via} received by transfer
 * {@code viaTransfer} (spec 1.3, amendment 2; null in a 1.1 read stored before) at its positions
 * {@code [viaFrom, viaFrom + tokens)}; who wrote that content is told by the sender's {@code XFER_SEND} of
 * {@code via} ({@link TransferSend}), on another stream and in any order, and {@link Provenance} judges the read once
 * both are known. {@code shared}: the reader got these slots by a {@code SHARE} without fingerprint (rule 2: a
 * writer of its own tenant is fine). {@code at} and the place ({@code stream}, {@code boot}, {@code seq}) are those of
 * the earliest ATTACH that made this read, the evidence; {@code lastAt} is the latest one's (spec 1.3, amendment 7:
 * every ATTACH that judges an exposure counts for {@code last_exposure_at}, not only the first).
 */
public record TransferRead(String deployment, String reader, String readerTenant, int readerFrom, String via,
        String viaTransfer, String viaTenant, int viaFrom, int tokens, boolean shared, int attachTokens, Instant at,
        String stream, String boot, long seq, Instant lastAt) {

    public TransferRead {
        if (lastAt == null || lastAt.isBefore(at)) {
            lastAt = at;
        }
    }

    /** One ATTACH's read: its first and last sight are its own. */
    public TransferRead(String deployment, String reader, String readerTenant, int readerFrom, String via,
            String viaTransfer, String viaTenant, int viaFrom, int tokens, boolean shared, int attachTokens,
            Instant at, String stream, String boot, long seq) {
        this(deployment, reader, readerTenant, readerFrom, via, viaTransfer, viaTenant, viaFrom, tokens, shared,
                attachTokens, at, stream, boot, seq, at);
    }

    /**
     * The same read made by {@code this} and {@code o} (same {@link #key()}) as one: the earlier occurrence's place,
     * the later last sight.
     */
    public TransferRead merge(TransferRead o) {
        TransferRead first = o.earlier(this) ? o : this;
        Instant last = lastAt.isAfter(o.lastAt) ? lastAt : o.lastAt;
        return new TransferRead(first.deployment, first.reader, first.readerTenant, first.readerFrom, first.via,
                first.viaTransfer, first.viaTenant, first.viaFrom, first.tokens, first.shared, first.attachTokens, first.at,
                first.stream, first.boot, first.seq, last);
    }

    /** Whether this occurrence comes before {@code o} (smallest at, stream, boot, seq): the one kept as evidence. */
    public boolean earlier(TransferRead o) {
        int c = at.compareTo(o.at);
        if (c == 0) {
            c = Rule.compareIds(stream, o.stream);
        }
        if (c == 0) {
            c = Rule.compareIds(boot, o.boot);
        }
        return c != 0 ? c < 0 : seq < o.seq;
    }

    /** What identifies a read for storage: the same read judged again (a replay, a later ATTACH) is one. */
    public String key() {
        return deployment + "\u0000" + reader + "\u0000" + via + "\u0000" + readerFrom + "\u0000" + viaFrom + "\u0000"
                + tokens + "\u0000" + shared + (viaTransfer == null ? "" : "\u0000" + viaTransfer);
    }

    /** What identifies the transfer read through: its request and its id (spec 1.3, amendment 2). */
    public String transferKey() {
        return TransferSend.transferKey(via, viaTransfer);
    }
}
