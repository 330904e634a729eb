package app.vigie.auditlog.rest;

import java.util.List;


/**
 * The answer of {@code POST /api/audit-log} (api.md "Ingest"), plus the batch id, the blank lines skipped, and how
 * many lines were rejected in all ({@code rejected} lists the first {@value AuditLogResource#LISTED}; every one is
 * kept in the quarantine).
 */
public record IngestAnswer(long accepted, long duplicates, long pending, List<Rejected> rejected, String batchId,
        int blankLines, long rejectedCount) {

    /** A rejected line: 1-based within the body (or the file, for file replay), and why. */
    public record Rejected(long line, String reason) {
    }
}
