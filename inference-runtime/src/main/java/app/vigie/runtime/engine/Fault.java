package app.vigie.runtime.engine;

import java.util.EnumSet;
import java.util.Set;

/** Faults the runtime can be switched into, each a way the 2026 incident or its cousins happened. */
public enum Fault {
    /** The advertised context window is larger than the KV pool (1,048,576 tokens over 681,280 in 2026). */
    POOL_SMALLER_THAN_WINDOW,
    /**
     * An over-long prompt is marked rejected at prefill but not aborted: the decode node has pre-allocated pages for
     * the whole prompt, receives the KV of one token, and decodes over whatever the pages held.
     */
    REJECT_WITHOUT_ABORT,
    /**
     * Prefill stops after its first chunk for one request in ten (a chunked prefill cut short) and the request goes
     * on as if its whole prompt were written; a transfer then carries only what was written.
     */
    PARTIAL_PREFILL_WRITE,
    /**
     * The prefill frees a request's pages once its transfer has started, for one request in ten; another tenant's
     * request is prefilled on them before the transfer has read them, and the decode receives its KV.
     */
    FREE_DURING_TRANSFER,
    /**
     * The prefix cache gives an evicted page back to the free list but leaves its index entry: a later hit shares a
     * page that now holds whatever its next owner wrote.
     */
    STALE_CACHE_INDEX;

    /**
     * The faults whose leaks end in a read of pages another request wrote, which the audit log shows as exposures.
     * A free during a transfer is the other kind: the reader receives another's KV as its own, and only the
     * transfer's checksum tells.
     */
    public static Set<Fault> endingInReads() {
        return EnumSet.complementOf(EnumSet.of(FREE_DURING_TRANSFER));
    }
}
