package app.vigie.auditlog.intake;

import app.vigie.auditlog.record.AuditRecord;

/** What became of one incoming line. {@code record} is null when the line was not a valid record. */
public record LineOutcome(IncomingLine line, Status status, String reason, AuditRecord record) {

    public enum Status {
        /** Accepted and applied in seq order. */
        APPLIED,
        /** Accepted and stored, held back behind a missing seq. */
        PENDING,
        /** Its key was already accepted with the same content: ignored. */
        DUPLICATE,
        /** Kept in the quarantine with its reason. */
        REJECTED
    }

    public static LineOutcome rejected(IncomingLine line, String reason, AuditRecord record) {
        return new LineOutcome(line, Status.REJECTED, reason, record);
    }

    public boolean accepted() {
        return status == Status.APPLIED || status == Status.PENDING;
    }
}
