package app.vigie.detection;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;

import app.vigie.auditlog.intake.InvalidRecordException;
import app.vigie.auditlog.intake.RecordParser;
import app.vigie.auditlog.store.RecordStore;
import app.vigie.auditlog.store.StoredRecord;
import app.vigie.detection.core.DetectionSink;
import app.vigie.detection.core.StreamDetector;

/**
 * Applies stored records of one (stream, boot) to a detector in seq order, a seq that is not stored declared lost
 * where it was: how a detector is rebuilt after a restart ({@link DetectionService}) and how an incident's evidence
 * is judged again ({@link EvidenceCheck}), so that both read the store the same way.
 */
final class StoredReplay {
    /** Records read from the store at a time. */
    private static final int WINDOW = 4096;

    private StoredReplay() {
    }

    /**
     * Applies to {@code d}, from its next seq up to {@code until} (excluded), the records stored for cursor row
     * {@code streamBootId} (null: none is stored); every seq missing below {@code until} is declared lost. Returns
     * how many records were applied.
     */
    static long replay(Connection c, Long streamBootId, StreamDetector d, long until, RecordParser parser,
            DetectionSink sink) throws SQLException {
        long applied = 0;
        try {
            for (long from = d.nextSeq(); streamBootId != null && from < until; from += WINDOW) {
                for (StoredRecord r : RecordStore.range(c, streamBootId, from, (int) Math.min(WINDOW, until - from))) {
                    if (r.seq() > d.nextSeq()) {
                        d.gapLost(d.nextSeq(), r.seq() - 1, Instant.EPOCH, sink);
                    }
                    d.apply(parser.parse(r.body()), sink);
                    applied++;
                }
            }
        } catch (InvalidRecordException e) {
            throw new IllegalStateException("a stored record no longer parses: " + e.getMessage(), e);
        }
        if (until > d.nextSeq()) {
            d.gapLost(d.nextSeq(), until - 1, Instant.EPOCH, sink);
        }
        return applied;
    }
}
