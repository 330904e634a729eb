package app.vigie.detection.core;

import java.time.Instant;
import java.util.List;

/**
 * Spec v1.1: one {@code XFER_SEND}, judged on the sender's stream. Positions {@code [from, from + tokens)} of
 * {@code request} were sent by transfer {@code transfer} (spec 1.3, amendment 2: the origins of a received position
 * are those of the sends of the same request and transfer); each one's origin is the request itself, except in {@code foreign}: positions whose
 * sender slot held content the request could not call its own (another request's, or never written).
 *
 * <p>{@code possible} (spec 1.3, amendment 3): the send's {@code XFER_DONE}, which closed its send window: {@code
 * foreign} then lists the writes other requests made to the sent slots while the transport was reading them (runs
 * that may overlap, one per writer), and only those positions are judged against them, as possible exposures. A
 * possible send covers no position (a held read waits for the certain one).
 */
public record TransferSend(String deployment, String request, String transfer, String tenant, int from, int tokens,
        List<Origin> foreign, Instant at, String stream, String boot, long seq, boolean possible) {

    public TransferSend {
        foreign = List.copyOf(foreign);
    }

    /** A send read at its {@code XFER_SEND} (version 1.1's meaning). */
    public TransferSend(String deployment, String request, String transfer, String tenant, int from, int tokens,
            List<Origin> foreign, Instant at, String stream, String boot, long seq) {
        this(deployment, request, transfer, tenant, from, tokens, foreign, at, stream, boot, seq, false);
    }

    /**
     * Positions {@code [from, to)} whose sender slot was last written by {@code request} (null: never written); or,
     * when {@code viaFrom >= 0} (spec 1.3, amendment 4, chains), whose slot held what {@code request} (of {@code
     * tenant}) received by its transfer {@code viaTransfer} (null: a transfer without id) at positions {@code [viaFrom,
     * viaFrom + to - from)}: their origin is the one they had where they were received, told by the sends of that
     * transfer ({@link Provenance}).
     */
    public record Origin(int from, int to, String request, String tenant, String viaTransfer, int viaFrom) {

        /** Written by {@code request} (null: never written). */
        public Origin(int from, int to, String request, String tenant) {
            this(from, to, request, tenant, null, -1);
        }

        /** Whether the slots held received positions (a chain's hop), not a request's own writes. */
        public boolean received() {
            return viaFrom >= 0;
        }

        /** The key of the transfer the positions were received by ({@link #transferKey(String, String)}). */
        public String viaKey() {
            return transferKey(request, viaTransfer);
        }

        /** The same origin over {@code [from, to)}, which lies within this one. */
        public Origin slice(int from, int to) {
            return new Origin(from, to, request, tenant, viaTransfer, received() ? viaFrom + (from - this.from) : -1);
        }
    }

    public int end() {
        return from + tokens;
    }

    /** What identifies the transfer: its request and its id (spec 1.3, amendment 2). */
    public String transferKey() {
        return transferKey(request, transfer);
    }

    /** The key of transfer {@code transfer} of {@code request} (null: a 1.1 record stored before, which had none). */
    public static String transferKey(String request, String transfer) {
        return transfer == null ? request : request + "\u0000" + transfer;
    }

    /** The request of a {@link #transferKey(String, String)}. */
    public static String requestOf(String transferKey) {
        int at = transferKey.indexOf('\u0000');
        return at < 0 ? transferKey : transferKey.substring(0, at);
    }
}
