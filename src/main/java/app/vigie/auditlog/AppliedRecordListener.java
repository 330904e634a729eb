package app.vigie.auditlog;

import java.sql.Connection;
import java.sql.SQLException;

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

    /** The transaction is about to commit: write what was buffered. */
    default void beforeCommit(Connection tx) throws SQLException {
    }

    /** The transaction rolled back: forget in-memory state changed in it. */
    default void rolledBack(Connection tx) {
    }
}
