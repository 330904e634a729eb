package app.vigie.auditlog.store;

import java.time.Instant;

/**
 * The application cursor of one (stream, boot): every seq below {@code nextSeq} is applied or lost. {@code purgedAt}
 * is when the retention job deleted its records (null while they are kept): nothing of it can be judged after that.
 * {@code deployment}: that of the boot's first accepted record (null for a boot made before V25 and not read since).
 */
public record StreamCursor(long id, String stream, String boot, long nextSeq, long maxSeq, Instant purgedAt,
        String deployment) {

    public boolean holdsRecords() {
        return maxSeq >= nextSeq;
    }
}
