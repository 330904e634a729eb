package app.vigie.detection.core;

import java.time.Instant;

/**
 * Spec v1.1: what one {@code ATTACH} read of slots that a transfer wrote with {@code sent: true}. The reader's
 * positions {@code [readerFrom, readerFrom + tokens)} hold what request {@code via} received at its positions
 * {@code [viaFrom, viaFrom + tokens)}; who wrote that content is told by the sender's {@code XFER_SEND} of
 * {@code via} ({@link TransferSend}), on another stream and in any order, and {@link Provenance} judges the read once
 * both are known. {@code shared}: the reader got these slots by a {@code SHARE} without fingerprint (rule 2: a
 * writer of its own tenant is fine).
 */
public record TransferRead(String deployment, String reader, String readerTenant, int readerFrom, String via,
        String viaTenant, int viaFrom, int tokens, boolean shared, int attachTokens, Instant at, String stream,
        String boot, long seq) {

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
                + tokens + "\u0000" + shared;
    }
}
