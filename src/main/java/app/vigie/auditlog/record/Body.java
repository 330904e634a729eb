package app.vigie.auditlog.record;

import java.util.List;
import java.util.TreeSet;

/** The fields of a record beyond the envelope, one record class per type. */
public sealed interface Body {

    RecordType type();

    /** Present on every type that names a request. */
    interface OfRequest {
        String request();
    }

    /**
     * {@code extensions} (spec 1.3, amendment 1): the names the boot declares, sorted and without duplicates; empty
     * when the record has none (version 1.0's meaning).
     */
    record Config(int pageSize, int poolPages, int contextWindow, int maxInputTokens, List<String> extensions)
            implements Body {
        public Config {
            extensions = List.copyOf(new TreeSet<>(extensions));
        }

        /** A CONFIG as in spec v1: no extension declared. */
        public Config(int pageSize, int poolPages, int contextWindow, int maxInputTokens) {
            this(pageSize, poolPages, contextWindow, maxInputTokens, List.of());
        }

        public RecordType type() {
            return RecordType.CONFIG;
        }
    }

    enum Verdict { ACCEPT, REJECT }

    record Admit(String request, String tenant, int inputTokens, Verdict verdict, String reason)
            implements Body, OfRequest {
        public RecordType type() {
            return RecordType.ADMIT;
        }
    }

    enum AllocPurpose { PREFILL, DECODE, PREALLOC }

    /**
     * {@code restart} (spec v1.2): the request's page table on this stream starts anew with these pages (a preempted
     * request re-admitted to recompute its KV); it owns no page here then.
     */
    record Alloc(String request, String tenant, List<PageRun> pages, AllocPurpose purpose, Integer claimedTokens,
            boolean restart) implements Body, OfRequest {
        /** An allocation as in spec v1: no {@code restart}. */
        public Alloc(String request, String tenant, List<PageRun> pages, AllocPurpose purpose, Integer claimedTokens) {
            this(request, tenant, pages, purpose, claimedTokens, false);
        }

        public RecordType type() {
            return RecordType.ALLOC;
        }
    }

    enum WriteSource { COMPUTE, TRANSFER }

    /**
     * {@code fp} is null when the record carries none. {@code sent} (spec v1.1, only with {@code TRANSFER}): the sender
     * of this transfer writes {@code XFER_SEND} for these positions, so the slots take the sent positions' origins.
     * {@code transfer} (spec 1.3, amendment 2; only with {@code sent}): the engine's id of the transfer, null when the
     * record has none.
     */
    record Write(String request, String tenant, int from, int tokens, WriteSource source, List<PageFingerprint> fp,
            boolean sent, String transfer) implements Body, OfRequest {
        /** A write as in spec v1: no {@code sent}. */
        public Write(String request, String tenant, int from, int tokens, WriteSource source,
                List<PageFingerprint> fp) {
            this(request, tenant, from, tokens, source, fp, false, null);
        }

        /** A write as in spec v1.1: no transfer id. */
        public Write(String request, String tenant, int from, int tokens, WriteSource source,
                List<PageFingerprint> fp, boolean sent) {
            this(request, tenant, from, tokens, source, fp, sent, null);
        }

        public RecordType type() {
            return RecordType.WRITE;
        }
    }

    /**
     * {@code fp} is null when the record carries none; otherwise one expected fingerprint per shared page.
     * {@code restart} (spec v1.2): as for {@link Alloc}.
     */
    record Share(String request, String tenant, List<PageRun> pages, List<String> fp, boolean restart)
            implements Body, OfRequest {
        /** A share as in spec v1: no {@code restart}. */
        public Share(String request, String tenant, List<PageRun> pages, List<String> fp) {
            this(request, tenant, pages, fp, false);
        }

        public RecordType type() {
            return RecordType.SHARE;
        }
    }

    record Attach(String request, String tenant, int tokens) implements Body, OfRequest {
        public RecordType type() {
            return RecordType.ATTACH;
        }
    }

    enum FreeReason { FINISH, ABORT, EVICT }

    record Free(String request, List<PageRun> pages, FreeReason reason) implements Body, OfRequest {
        public RecordType type() {
            return RecordType.FREE;
        }
    }

    record XferCommit(String request, String tenant, int claimedTokens, int coveredTokens, Boolean checksumOk)
            implements Body, OfRequest {
        public RecordType type() {
            return RecordType.XFER_COMMIT;
        }
    }

    /**
     * Sender side of a KV transfer (spec v1.1): positions {@code [from, from + tokens)} of the request's table on this
     * stream were read to be sent, now; each takes its origin from this stream's state at this point. {@code transfer}
     * (spec 1.3, amendment 2): the engine's id of the transfer, null when the record has none.
     */
    record XferSend(String request, String tenant, int from, int tokens, String transfer) implements Body, OfRequest {
        /** A send as in spec v1.1: no transfer id. */
        public XferSend(String request, String tenant, int from, int tokens) {
            this(request, tenant, from, tokens, null);
        }

        public RecordType type() {
            return RecordType.XFER_SEND;
        }
    }

    /**
     * Sender side (spec 1.3, amendment 3): the transport reports that the read of transfer {@code transfer} of the
     * request finished; between its {@code XFER_SEND} and this record the sent slots were in flight.
     */
    record XferDone(String request, String tenant, String transfer) implements Body, OfRequest {
        public RecordType type() {
            return RecordType.XFER_DONE;
        }
    }

    enum FinishStatus { STOP, LENGTH, ABORT }

    record Finish(String request, String tenant, FinishStatus status, int httpStatus, int outputTokens,
            boolean delivered) implements Body, OfRequest {
        public RecordType type() {
            return RecordType.FINISH;
        }
    }

    record Heartbeat() implements Body {
        public RecordType type() {
            return RecordType.HEARTBEAT;
        }
    }
}
