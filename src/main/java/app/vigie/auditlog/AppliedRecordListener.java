package app.vigie.auditlog;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.function.BiPredicate;

import app.vigie.auditlog.record.AuditRecord;

/**
 * Receives the records of each (stream, boot) in seq order, exactly once, inside the transaction that stores them,
 * and the gaps declared lost. The detector is one.
 */
public interface AppliedRecordListener {

    void applied(Connection tx, AuditRecord record) throws SQLException;

    /** Seqs {@code [fromSeq, toSeq]} of {@code (stream, boot)} will never be applied. */
    default void gapLost(Connection tx, String stream, String boot, long fromSeq, long toSeq) throws SQLException {
    }

    /**
     * A flush (explicit, or the stream-gap timeout), after its gaps were declared lost: the listener resolves, in
     * {@code tx}, at most {@code limit} more of what still waits for records that may never come, within the flush's
     * bounds, and says when it is {@link Flush#done}; it is called again, each time in a new transaction, until then.
     */
    default void flushed(Connection tx, Flush flush, int limit) throws SQLException {
        flush.done = true;
    }

    /**
     * One flush, batch by batch: what was stored before {@code storedBefore} (null: whenever), of the (stream,
     * deployment) pairs {@code streams} allows (null: every stream); where the listener got to, and how much it resolved.
     */
    final class Flush {
        public final Instant storedBefore;
        public final BiPredicate<String, String> streams;
        /** The listener's own: where the next batch starts. */
        public Object place;
        public boolean done;
        public int resolved;

        public Flush(Instant storedBefore, BiPredicate<String, String> streams) {
            this.storedBefore = storedBefore;
            this.streams = streams;
        }
    }

    /** The transaction is about to commit: write what was buffered. */
    default void beforeCommit(Connection tx) throws SQLException {
    }

    /** The transaction rolled back: forget in-memory state changed in it. */
    default void rolledBack(Connection tx) {
    }
}
