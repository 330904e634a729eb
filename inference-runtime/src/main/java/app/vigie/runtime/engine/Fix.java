package app.vigie.runtime.engine;

/** Fixes announced after the incident, each closing a fault. */
public enum Fix {
    /** At startup the context window is clamped to what the pool holds. */
    STARTUP_WINDOW_CHECK,
    /** A rejected request is never pre-allocated nor transferred: it is aborted everywhere. */
    NO_PREALLOC_FOR_REJECTED,
    /** Decode starts only when the transfer covered every claimed token. */
    COVERAGE_CHECK,
    /** The prefill frees a request's pages only when its transfer has drained (under the pull transport: after XFER_DONE). */
    DEFERRED_FREE,
    /** Every read checks the tags of the pages it attends and aborts the request when one is not its own. */
    TAG_CHECK
}
