package app.vigie.retention;

/**
 * Bytes on disk (tables with their indexes and TOAST) and rows of what Vigie stores most of, with the bytes per
 * stored record and per exposure (what docs/operations.md sizes a fleet with; 0 when there is none). {@code transfer*}:
 * spec v1.1's sends and reads of received positions ({@code transfer_send}, {@code transfer_read}).
 */
public record Storage(long recordBytes, long records, double bytesPerRecord, long exposureBytes, long exposures,
        double bytesPerExposure, long findingBytes, long findings, long requestFactBytes, long requestFacts,
        long quarantineBytes, long quarantined, long transferBytes, long transferSends, long transferReads,
        long databaseBytes) {

    static Storage of(long recordBytes, long records, long exposureBytes, long exposures, long findingBytes,
            long findings, long requestFactBytes, long requestFacts, long quarantineBytes, long quarantined,
            long transferBytes, long transferSends, long transferReads, long databaseBytes) {
        return new Storage(recordBytes, records, per(recordBytes, records), exposureBytes, exposures,
                per(exposureBytes, exposures), findingBytes, findings, requestFactBytes, requestFacts, quarantineBytes,
                quarantined, transferBytes, transferSends, transferReads, databaseBytes);
    }

    private static double per(long bytes, long rows) {
        return rows == 0 ? 0 : Math.round(bytes * 10.0 / rows) / 10.0;
    }
}
