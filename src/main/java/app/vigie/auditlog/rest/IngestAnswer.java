package app.vigie.auditlog.rest;

import java.util.List;

import app.vigie.auditlog.intake.IngestResult;
import app.vigie.auditlog.intake.LineOutcome;

/** The answer of {@code POST /api/audit-log} (api.md "Ingest"), plus the batch id and the blank lines skipped. */
public record IngestAnswer(long accepted, long duplicates, long pending, List<Rejected> rejected, String batchId,
        int blankLines) {

    /** A rejected line: 1-based within the body (or the file, for file replay), and why. */
    public record Rejected(long line, String reason) {
    }

    static IngestAnswer of(IngestResult r, String batchId) {
        return new IngestAnswer(r.accepted(), r.count(LineOutcome.Status.DUPLICATE),
                r.count(LineOutcome.Status.PENDING),
                r.rejected().stream().map(o -> new Rejected(o.line().position(), o.reason())).toList(), batchId,
                r.blank());
    }
}
