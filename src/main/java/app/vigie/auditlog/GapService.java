package app.vigie.auditlog;

import java.sql.SQLException;
import java.time.Instant;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import io.agroal.api.AgroalDataSource;
import io.quarkus.scheduler.Scheduled;

import app.vigie.audit.AuditTrail;
import app.vigie.auditlog.intake.IngestScope;
import app.vigie.auditlog.store.RecordStore;
import app.vigie.auditlog.store.Sequencer;
import app.vigie.auditlog.store.StreamCursor;
import app.vigie.db.FailureLog;
import app.vigie.db.Transactions;
import app.vigie.db.UnitOfWork;

/** Declares missing seqs lost, on an explicit flush or after the gap timeout, and applies what they held back. */
@ApplicationScoped
public class GapService {
    private static final Logger LOG = Logger.getLogger(GapService.class);

    @Inject
    AgroalDataSource dataSource;

    @Inject
    IngestService ingest;

    @Inject
    IngestConfig config;

    /**
     * The answer of a flush: gaps declared lost, held-back records applied, and (spec 1.3, amendment 5) reads of
     * received positions that no sender's record covered, judged then as in version 1.
     */
    public record Flushed(int gaps, long applied, int heldReads) {
    }

    /** Reads resolved per transaction at a flush. */
    static final int HELD_BATCH = 1000;

    /** Declares every current gap lost, on behalf of {@code actor}, and records it in the audit trail. */
    public Flushed flush(String actor) throws SQLException {
        return flush(actor, null);
    }

    /**
     * Declares lost every current gap of the streams {@code scope} allows (null: of every stream), on behalf of
     * {@code actor}, and records it in the audit trail (with the scope, when there is one).
     */
    public Flushed flush(String actor, IngestScope scope) throws SQLException {
        Flushed f = release(null, "FLUSH", scope);
        audit(actor, "audit-log.flush", "{\"gaps\":" + f.gaps() + ",\"applied\":" + f.applied() + ",\"held_reads\":"
                + f.heldReads() + (scope == null ? "" : ",\"scope\":" + scope.json()) + "}");
        return f;
    }

    private final FailureLog checkLog = new FailureLog(LOG, "Gap timeout check");

    @Scheduled(every = "${vigie.ingest.gap-check-every:10s}", delayed = "${vigie.ingest.gap-check-every:10s}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void timeout() {
        try {
            timedOut(Instant.now());
            checkLog.succeeded();
        } catch (SQLException | RuntimeException e) {
            checkLog.failed(e);
        }
    }

    /**
     * What the gap timeout does at {@code now}: declares lost the gaps older than {@code vigie.ingest.gap-timeout}, and
     * resolves the reads of received positions stored before that whose sender's record did not come.
     */
    public Flushed timedOut(Instant now) throws SQLException {
        Flushed f = release(now.minus(config.gapTimeout()), "TIMEOUT", null);
        if (f.gaps() > 0 || f.heldReads() > 0) {
            audit("system", "audit-log.gap-timeout", "{\"gaps\":" + f.gaps() + ",\"applied\":" + f.applied()
                    + ",\"held_reads\":" + f.heldReads() + "}");
            LOG.warnf("Gap timeout (%s): declared %d gap(s) lost, applied %d held-back record(s), judged %d read(s) "
                    + "whose sender's record did not come as in version 1", config.gapTimeout(), f.gaps(),
                    f.applied(), f.heldReads());
        }
        return f;
    }

    /** The audit event of a flush or a timeout, once its releases committed. */
    @UnitOfWork
    void audit(String actor, String action, String json) {
        AuditTrail.record(actor, action, "intake", null, json);
    }

    /**
     * The release itself: the intake's sequencing, one stream and one batch per transaction, each with the
     * sequencer's hooks (before its commit, at its rollback), hence {@link Transactions#run} as the intake's hot path.
     */
    private Flushed release(Instant heldBefore, String cause, IngestScope scope) throws SQLException {
        Sequencer sequencer = ingest.sequencer();
        List<Long> ids = Transactions.run(dataSource,
                c -> RecordStore.streamsHoldingRecords(c, scope == null ? null : scope::allows));
        int gaps = 0;
        long applied = 0;
        for (long id : ids) {
            Sequencer.Released r = Transactions.run(dataSource, c -> {
                StreamCursor cur = RecordStore.lockCursor(c, id);
                Sequencer.Released released = cur == null || !cur.holdsRecords() ? new Sequencer.Released(0, 0)
                        : sequencer.releaseGaps(c, cur, heldBefore, cause, Instant.now());
                sequencer.beforeCommit(c);
                return released;
            }, sequencer::rolledBack);
            gaps += r.gaps();
            applied += r.applied();
        }
        int held = 0;
        // an explicit flush resolves what was stored before it began, not what the intake stores meanwhile
        Instant bound = heldBefore == null ? Instant.now() : heldBefore;
        for (AppliedRecordListener l : sequencer.listeners()) {
            AppliedRecordListener.Flush flush = new AppliedRecordListener.Flush(bound,
                    scope == null ? null : scope::allows);
            while (!flush.done) {
                // a batch rolled back (and retried) leaves the flush where it was before it
                Object place = flush.place;
                int resolved = flush.resolved;
                Transactions.run(dataSource, c -> {
                    l.flushed(c, flush, HELD_BATCH);
                    sequencer.beforeCommit(c);
                    return null;
                }, c -> {
                    sequencer.rolledBack(c);
                    flush.place = place;
                    flush.resolved = resolved;
                    flush.done = false;
                });
            }
            held += flush.resolved;
        }
        return new Flushed(gaps, applied, held);
    }
}
