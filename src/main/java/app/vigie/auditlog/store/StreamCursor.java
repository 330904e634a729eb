package app.vigie.auditlog.store;

import java.time.Instant;

/**
 * The application cursor of one (stream, boot): every seq below {@code nextSeq} is applied or lost. {@code purgedAt}
 * is when the retention job deleted its records (null while they are kept): nothing of it can be judged after that.
 */
public record StreamCursor(long id, String stream, String boot, long nextSeq, long maxSeq, Instant purgedAt) {

    public boolean holdsRecords() {
        return maxSeq >= nextSeq;
    }
}
