package app.vigie.retention;

/**
 * Bytes on disk (tables with their indexes and TOAST) and rows of what Vigie stores most of, with the bytes per
 * stored record and per exposure (what docs/operations.md sizes a fleet with; 0 when there is none). {@code transfer*}:
 * spec v1.1's sends and reads of received positions ({@code transfer_send}, {@code transfer_read}).
 */
public record Storage(long recordBytes, long records, double bytesPerRecord, long exposureBytes, long exposures,
        double bytesPerExposure, long findingBytes, long findings, long requestFactBytes, long requestFacts,
        long quarantineBytes, long quarantined, long transferBytes, long transferSends, long transferReads,
        long databaseBytes, TableParts exposureParts) {

    /**
     * Where a table's bytes are (its rows, its indexes, TOAST) and how many row versions it holds: a row updated
     * leaves a dead version until vacuum, which the bytes per row then count. From PostgreSQL's statistics
     * ({@code pg_stat_user_tables}), which lag a transaction's commit by up to a second.
     */
    public record TableParts(long heapBytes, long indexBytes, long toastBytes, long liveRows, long deadRows,
            long inserted, long updated, long hotUpdated) {
    }

    static Storage of(long recordBytes, long records, long exposureBytes, long exposures, long findingBytes,
            long findings, long requestFactBytes, long requestFacts, long quarantineBytes, long quarantined,
            long transferBytes, long transferSends, long transferReads, long databaseBytes, TableParts exposureParts) {
        return new Storage(recordBytes, records, per(recordBytes, records), exposureBytes, exposures,
                per(exposureBytes, exposures), findingBytes, findings, requestFactBytes, requestFacts, quarantineBytes,
                quarantined, transferBytes, transferSends, transferReads, databaseBytes, exposureParts);
    }

    private static double per(long bytes, long rows) {
        return rows == 0 ? 0 : Math.round(bytes * 10.0 / rows) / 10.0;
    }
}
