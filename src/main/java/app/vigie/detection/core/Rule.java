package app.vigie.detection.core;

/**
 * The finding rules of the spec ("Findings"), and two of Vigie's own: {@code TABLE_EVICTED}, raised when a record
 * addresses a freed request's page table that Vigie evicted to stay within its memory budget (docs/detection.md), so
 * that the record could not be judged; {@code TRANSFER_SEND_MISSING} (spec v1.1), raised by the service when reads of
 * positions a {@code sent} transfer brought waited longer than its timeout for the sender's {@code XFER_SEND}, so that
 * they are not judged until it comes; {@code SHARED_PAGE_FOREIGN}, raised when a reader attended (or, sending a
 * transfer, read) positions on pages it got by {@code SHARE} whose slot was last written by another request and not
 * shared by the spec's rule 2 (or never written): the prefix cache handed over pages that no longer held the prefix it stood for, the sign of a stale
 * cache index (docs/detection.md, "Root-cause evidence"). {@code STREAM_UNSUPPORTED} (spec v1.3, amendment 1) is raised
 * per (stream, boot) when a boot is not judged: its {@code CONFIG} declares a pool above Vigie's limit or the memory
 * budget, or its records would make the detector hold more than {@link DetectorLimits} allows.
 * {@code RESTART_WHILE_OWNING} (spec v1.3, amendment 6) is raised per request when a {@code restart} came while it
 * still owned pages on the stream: they were given up first, as by a {@code FREE} the log does not have.
 * {@code TRANSFER_OVERWRITTEN_IN_FLIGHT} (spec 1.3, amendment 3) is raised per reader request when a read of received
 * positions gave possible exposures: another request wrote the sender's slots while the transfer was reading them.
 */
public enum Rule {
    CROSS_TENANT_READ, INTRA_TENANT_READ, CROSS_TENANT_SHARE, UNINITIALIZED_READ, REJECTED_REQUEST_SERVED,
    TRANSFER_COVERAGE_GAP, TRANSFER_CHECKSUM_MISMATCH, TRANSFER_SENT_FOREIGN, TRANSFER_OVERWRITTEN_IN_FLIGHT,
    CONTEXT_EXCEEDS_POOL, DOUBLE_ALLOC,
    RESTART_WHILE_OWNING, STREAM_GAP, TABLE_EVICTED, TRANSFER_SEND_MISSING, SHARED_PAGE_FOREIGN, STREAM_UNSUPPORTED;

    /**
     * Whether one occurrence comes before another as the finding's evidence: findings are kept once per
     * (deployment, rule, subject), with the occurrence of smallest (at, stream, boot, first seq, detail), whatever the order
     * in which streams were read.
     */
    public static boolean earlier(Finding a, Finding b) {
        int c = a.at().compareTo(b.at());
        if (c == 0) {
            c = compareIds(a.evidence().stream(), b.evidence().stream());
        }
        if (c == 0) {
            c = compareIds(a.evidence().boot(), b.evidence().boot());
        }
        if (c == 0) {
            c = Long.compare(a.evidence().firstSeq(), b.evidence().firstSeq());
        }
        if (c == 0) {
            // one ATTACH judged twice (its direct reads, and those of content a transfer brought): the text decides
            c = compareIds(a.evidence().detail(), b.evidence().detail());
        }
        return c < 0;
    }

    /** A rule's place in this list (the gravest first), by name; a name this version does not know, after them all. */
    public static int orderOf(String name) {
        for (Rule r : values()) {
            if (r.name().equals(name)) {
                return r.ordinal();
            }
        }
        return Integer.MAX_VALUE;
    }

    /**
     * Identifiers in code point order: the order of their UTF-8 bytes, as PostgreSQL compares them with
     * {@code collate "C"}, so that the store and the core break ties alike ({@code String.compareTo} orders UTF-16
     * units, which differs for characters beyond the Basic Multilingual Plane).
     */
    public static int compareIds(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int x = a.codePointAt(i);
            int y = b.codePointAt(j);
            if (x != y) {
                return Integer.compare(x, y);
            }
            i += Character.charCount(x);
            j += Character.charCount(y);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }
}
