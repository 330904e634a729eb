package app.vigie.auditlog.store;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import app.vigie.auditlog.AppliedRecordListener;
import app.vigie.auditlog.intake.InvalidRecordException;
import app.vigie.auditlog.intake.RecordParser;
import app.vigie.auditlog.record.AuditRecord;

/**
 * Applies the records of a (stream, boot) in seq order from its cursor, and declares gaps lost. Runs inside the
 * caller's transaction with the cursor locked.
 */
public final class Sequencer {
    private static final int FETCH = Segment.MAX_SPAN;

    private final List<AppliedRecordListener> listeners;
    private final RecordParser parser = new RecordParser();

    public Sequencer(List<AppliedRecordListener> listeners) {
        this.listeners = List.copyOf(listeners);
    }

    /**
     * Applies the contiguous run of records from {@code next}, taken from {@code memory} first and from the store
     * when {@code storeMayHold}. Returns the new next seq.
     */
    public long walk(Connection c, StreamCursor cursor, long next, Map<Long, AuditRecord> memory,
            boolean storeMayHold) throws SQLException {
        Map<Long, StoredRecord> fetched = new HashMap<>();
        long fetchedUpTo = next;
        while (true) {
            AuditRecord r = memory.get(next);
            if (r == null && storeMayHold) {
                if (next >= fetchedUpTo) {
                    fetched.clear();
                    for (StoredRecord s : RecordStore.range(c, cursor.id(), next, FETCH)) {
                        fetched.put(s.seq(), s);
                    }
                    fetchedUpTo = next + FETCH;
                }
                StoredRecord s = fetched.get(next);
                r = s == null ? null : parse(s);
            }
            if (r == null) {
                return next;
            }
            for (AppliedRecordListener l : listeners) {
                l.applied(c, r);
            }
            next++;
        }
    }

    /** The listeners, in the order they are told. */
    public List<AppliedRecordListener> listeners() {
        return listeners;
    }

    /** Lets the listeners write what they buffered in this transaction. */
    public void beforeCommit(Connection c) throws SQLException {
        for (AppliedRecordListener l : listeners) {
            l.beforeCommit(c);
        }
    }

    /** Tells the listeners that this transaction rolled back. */
    public void rolledBack(Connection c) {
        for (AppliedRecordListener l : listeners) {
            l.rolledBack(c);
        }
    }

    /** The result of declaring gaps lost on one stream. */
    public record Released(int gaps, long applied) {
    }

    /**
     * Declares lost the gaps of a locked cursor whose first held record was received before {@code heldBefore}
     * (every gap when it is null), applies what follows each, and saves the cursor.
     */
    public Released releaseGaps(Connection c, StreamCursor cursor, Instant heldBefore, String cause, Instant now)
            throws SQLException {
        long next = cursor.nextSeq();
        int gaps = 0;
        long applied = 0;
        while (next <= cursor.maxSeq()) {
            RecordStore.HeldRecord held = RecordStore.firstHeld(c, cursor.id(), next);
            if (held == null) {
                break;
            }
            if (held.seq() > next) {
                if (heldBefore != null && !held.receivedAt().isBefore(heldBefore)) {
                    break;
                }
                RecordStore.recordGap(c, cursor.id(), next, held.seq() - 1, cause, now);
                for (AppliedRecordListener l : listeners) {
                    l.gapLost(c, cursor.stream(), cursor.boot(), next, held.seq() - 1);
                }
                gaps++;
                next = held.seq();
            }
            long after = walk(c, cursor, next, Map.of(), true);
            applied += after - next;
            next = after;
        }
        if (next != cursor.nextSeq()) {
            RecordStore.advance(c, cursor.id(), next, 0, 0, 0, now);
        }
        return new Released(gaps, applied);
    }

    private AuditRecord parse(StoredRecord s) {
        try {
            return parser.parse(s.body());
        } catch (InvalidRecordException e) {
            throw new IllegalStateException("stored record " + s.streamBootId() + "/" + s.seq()
                    + " no longer parses: " + e.getMessage(), e);
        }
    }
}
