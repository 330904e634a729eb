package app.vigie.auditlog;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import io.agroal.api.AgroalDataSource;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import io.quarkus.runtime.Startup;

import app.vigie.auditlog.intake.IncomingLine;
import app.vigie.auditlog.intake.IngestResult;
import app.vigie.auditlog.intake.IngestScope;
import app.vigie.auditlog.intake.InvalidRecordException;
import app.vigie.auditlog.intake.LineOutcome;
import app.vigie.auditlog.intake.LineOutcome.Status;
import app.vigie.auditlog.intake.LineParser;
import app.vigie.auditlog.intake.Writable;
import app.vigie.auditlog.record.AuditRecord;
import app.vigie.auditlog.store.BootCountStore;
import app.vigie.auditlog.store.QuarantineStore;
import app.vigie.auditlog.store.RecordStore;
import app.vigie.auditlog.store.RecordStore.Long2;
import app.vigie.auditlog.store.RecordStore.NewRecord;
import app.vigie.auditlog.store.RecordStore.StreamKey;
import app.vigie.auditlog.store.Sequencer;
import app.vigie.auditlog.store.StreamCursor;
import app.vigie.db.Transactions;
import app.vigie.platform.Traces;

/**
 * The one way records enter Vigie, whatever their source: each line is judged, accepted records are stored durably
 * (idempotent on (stream, boot, seq)) and applied in seq order, rejected lines go to the quarantine. A chunk of
 * lines is one transaction: when this returns, its outcomes are committed.
 */
@Startup  // its meters exist from the start, at zero
@ApplicationScoped
public class IngestService {
    private final LineParser parser = new LineParser();

    @Inject
    AgroalDataSource dataSource;

    @Inject
    Instance<AppliedRecordListener> listeners;

    @Inject
    IngestConfig config;

    @Inject
    MeterRegistry meters;

    /** Spans of the intake's transactions (a no-op tracer while tracing is off). */
    @Inject
    Tracer tracer;

    private volatile Sequencer sequencer;
    private volatile BootCountStore bootCounts;

    /** Records taken in, per outcome ({@code vigie_intake_records_total{outcome}}). */
    private final Map<Status, Counter> taken = new EnumMap<>(Status.class);

    /** One chunk's transaction: parse, store, apply, detect, commit ({@code vigie_intake_chunk_seconds}). */
    private Timer chunks;

    @PostConstruct
    void meters() {
        for (Status s : Status.values()) {
            taken.put(s, Counter.builder("vigie.intake.records").tag("outcome", s.name().toLowerCase(Locale.ROOT))
                    .description("Audit records taken in (HTTP and Kafka), by what came of them").register(meters));
        }
        chunks = Timer.builder("vigie.intake.chunk")
                .description("One chunk of records stored, applied, judged and committed, in one transaction")
                .publishPercentileHistogram().register(meters);
    }

    public IngestResult ingest(List<IncomingLine> lines, int blank) throws SQLException {
        return ingest(lines, blank, null, null);
    }

    /**
     * As {@link #ingest(List, int)}, for {@code account} bound to {@code writable} (null: it may write every stream):
     * a line of a stream or deployment outside the scope is rejected where it is parsed, before anything of it is
     * stored, compared or applied, and kept in the quarantine with its reason; the other lines are taken as usual.
     */
    public IngestResult ingest(List<IncomingLine> lines, int blank, Writable writable, String account)
            throws SQLException {
        LineOutcome[] outcomes = new LineOutcome[lines.size()];
        int chunk = config.chunkRecords();
        for (int from = 0; from < lines.size(); from += chunk) {
            List<LineParser.Parsed> parsed = parse(lines, from, Math.min(lines.size(), from + chunk));
            if (writable != null) {
                refuseOutside(parsed, writable, account);
            }
            Sequencer seq = sequencer();
            long started = System.nanoTime();
            // one span per chunk's transaction (stored, applied, judged, alerts planned: their deliveries continue
            // this trace), a child of the request's or the Kafka poll's
            Span span = tracer.spanBuilder("vigie.intake.chunk").setAttribute("vigie.records", (long) parsed.size())
                    .startSpan();
            LineOutcome[] done;
            try (Scope scope = span.makeCurrent()) {
                done = Transactions.run(dataSource, c -> {
                    LineOutcome[] out = write(c, parsed, writable, account);
                    seq.beforeCommit(c);
                    return out;
                }, c -> rolledBack(seq, c));
            } catch (SQLException | RuntimeException e) {
                Traces.failed(span, e);
                throw e;
            } finally {
                span.end();
            }
            chunks.record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
            System.arraycopy(done, 0, outcomes, from, done.length);
        }
        if (lines.size() > chunk) {
            settlePending(outcomes);
        }
        long[] counts = new long[Status.values().length];
        for (LineOutcome o : outcomes) {
            counts[o.status().ordinal()]++;
        }
        for (Status s : Status.values()) {
            if (counts[s.ordinal()] > 0) {
                taken.get(s).increment(counts[s.ordinal()]);
            }
        }
        return new IngestResult(Arrays.asList(outcomes), blank);
    }

    /**
     * Runs lines through the whole intake as {@link #ingest} does (parsed, stored, applied, judged, findings and
     * alerts written), each chunk in a transaction rolled back at its end instead of committed: nothing of them stays,
     * in the database nor in the detectors' memory (told of the rollback like any other). What it leaves is compiled
     * code (app.vigie.warmup.IntakeWarmUp). Counted in no intake meter. {@code beforeRollback}, when given, is run in each
     * transaction after everything is written (to look at it). Returns how many lines were judged applied before
     * their rollback.
     */
    public long rehearse(List<IncomingLine> lines, Transactions.Work<?> beforeRollback) throws SQLException {
        long applied = 0;
        int chunk = config.chunkRecords();
        for (int from = 0; from < lines.size(); from += chunk) {
            List<LineParser.Parsed> parsed = parse(lines, from, Math.min(lines.size(), from + chunk));
            Sequencer seq = sequencer();
            try {
                Transactions.run(dataSource, c -> {
                    LineOutcome[] out = write(c, parsed, null, null);
                    seq.beforeCommit(c);
                    if (beforeRollback != null) {
                        beforeRollback.run(c);
                    }
                    throw new Rehearsed(out);
                }, c -> rolledBack(seq, c));
            } catch (Rehearsed r) {
                for (LineOutcome o : r.outcomes) {
                    applied += o.status() == Status.APPLIED ? 1 : 0;
                }
            }
        }
        return applied;
    }

    /** Lines {@code from} to {@code to} (excluded), parsed: one chunk. */
    private List<LineParser.Parsed> parse(List<IncomingLine> lines, int from, int to) {
        List<LineParser.Parsed> parsed = new ArrayList<>(to - from);
        for (int i = from; i < to; i++) {
            parsed.add(parser.parse(lines.get(i)));
        }
        return parsed;
    }

    /** Refuses, in place, the parsed records {@code account} may not write. */
    private static void refuseOutside(List<LineParser.Parsed> parsed, Writable scope, String account) {
        for (int i = 0; i < parsed.size(); i++) {
            LineParser.Parsed p = parsed.get(i);
            AuditRecord r = p.record();
            if (p.rejection() == null && r != null) {
                String refusal = scope.refusal(r.stream(), r.deployment(), account);
                if (refusal != null) {
                    parsed.set(i, p.refused(refusal));
                }
            }
        }
    }

    /** Ends a rehearsal's transaction: thrown by its work, it rolls the transaction back (not retried). */
    private static final class Rehearsed extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final transient LineOutcome[] outcomes;

        Rehearsed(LineOutcome[] outcomes) {
            super("rehearsal: rolled back", null, false, false);
            this.outcomes = outcomes;
        }
    }

    /**
     * Of these records, held back when their batch's earlier lines were ingested, how many still are: the later lines
     * of the same body (the HTTP intake ingests a body a window at a time) may have applied them.
     */
    public long stillPending(Map<StreamKey, List<Long>> held) throws SQLException {
        if (held.isEmpty()) {
            return 0;
        }
        Map<StreamKey, Long> next = Transactions.run(dataSource, c -> RecordStore.nextSeqs(c, held.keySet()));
        long still = 0;
        for (Map.Entry<StreamKey, List<Long>> e : held.entrySet()) {
            long from = next.getOrDefault(e.getKey(), 0L);
            still += e.getValue().stream().filter(seq -> seq >= from).count();
        }
        return still;
    }

    /** A record held back by one chunk may have been applied by a later chunk of the same batch. */
    private void settlePending(LineOutcome[] outcomes) throws SQLException {
        Map<StreamKey, List<Integer>> pending = new HashMap<>();
        for (int i = 0; i < outcomes.length; i++) {
            if (outcomes[i].status() == Status.PENDING) {
                pending.computeIfAbsent(streamKey(outcomes[i].record()), k -> new ArrayList<>()).add(i);
            }
        }
        if (pending.isEmpty()) {
            return;
        }
        Map<StreamKey, Long> next = Transactions.run(dataSource, c -> RecordStore.nextSeqs(c, pending.keySet()));
        pending.forEach((key, indexes) -> {
            for (int i : indexes) {
                LineOutcome o = outcomes[i];
                if (o.record().seq() < next.getOrDefault(key, 0L)) {
                    outcomes[i] = new LineOutcome(o.line(), Status.APPLIED, null, o.record());
                }
            }
        });
    }

    /**
     * A chunk's transaction rolled back (to be retried, or a rehearsal): the sequencer forgets what it applied, and
     * the boots' counts what it created (they are counted again in the database at the next chunk).
     */
    private void rolledBack(Sequencer seq, Connection c) {
        seq.rolledBack(c);
        bootCounts().forget();
    }

    /** The pairs each deployment has, for vigie.ingest.max-boots-per-deployment: one count per instance. */
    private BootCountStore bootCounts() {
        BootCountStore b = bootCounts;
        if (b == null) {
            synchronized (this) {
                b = bootCounts;
                if (b == null) {
                    b = new BootCountStore(config.maxBootsPerDeployment());
                    bootCounts = b;
                }
            }
        }
        return b;
    }

    public Sequencer sequencer() {
        Sequencer s = sequencer;
        if (s == null) {
            s = new Sequencer(listeners.stream().toList());
            sequencer = s;
        }
        return s;
    }

    /**
     * Stores, applies and judges one chunk. {@code writable}: what {@code account} may write (null: everything);
     * a record of a boot that another deployment opened is refused here, once its cursor is locked, before it is
     * compared or stored (the scope's check of the record's own fields was made when it was parsed).
     */
    private LineOutcome[] write(Connection c, List<LineParser.Parsed> parsed, Writable writable, String account)
            throws SQLException {
        Instant now = Instant.now();
        int n = parsed.size();
        LineOutcome[] out = new LineOutcome[n];
        int[] sameAs = new int[n];
        Arrays.fill(sameAs, -1);
        // One key instance per run of records of the same stream: its strings hash once, then every lookup is cheap.
        StreamKey[] keyOf = new StreamKey[n];
        Map<StreamKey, String> keys = new HashMap<>();  // each stream of the chunk, with its first record's deployment
        StreamKey previous = null;
        Map<SeqKey, Integer> first = new HashMap<>(n * 2);
        List<Integer> unique = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            LineParser.Parsed p = parsed.get(i);
            if (p.rejection() != null) {
                out[i] = LineOutcome.rejected(p.line(), p.rejection(), p.record());
                continue;
            }
            AuditRecord r = p.record();
            if (previous == null || !previous.stream().equals(r.stream()) || !previous.boot().equals(r.boot())) {
                previous = streamKey(r);
                keys.putIfAbsent(previous, r.deployment());
            }
            keyOf[i] = previous;
            Integer j = first.putIfAbsent(new SeqKey(previous, r.seq()), i);
            if (j == null) {
                unique.add(i);
            } else if (parsed.get(j).canonical().equals(p.canonical())) {
                sameAs[i] = j;
            } else {
                out[i] = LineOutcome.rejected(p.line(), "conflicting duplicate: line " + parsed.get(j).line().position()
                        + " has the same (stream, boot, seq) " + r.key() + " with different content", r);
            }
        }

        Map<StreamKey, StreamCursor> cursors = unique.isEmpty() ? Map.of()
                : RecordStore.lockCursors(c, keys, now, bootCounts());
        StreamCursor[] cursorOf = new StreamCursor[n];
        StreamKey lastKey = null;
        StreamCursor lastCursor = null;
        for (int i : unique) {
            if (keyOf[i] != lastKey) {
                lastKey = keyOf[i];
                lastCursor = cursors.get(lastKey);
            }
            cursorOf[i] = lastCursor;
        }
        // Cursors are locked: a seq above the highest accepted is free; one between the cursor and it may be held
        // back already, and one below the cursor was applied or lost. Only those two are looked up.
        List<Integer> fresh = new ArrayList<>(unique.size());
        List<Integer> check = new ArrayList<>();
        for (int i : unique) {
            AuditRecord r = parsed.get(i).record();
            if (cursorOf[i] == null) {
                out[i] = LineOutcome.rejected(parsed.get(i).line(), "deployment '" + keys.get(keyOf[i]) + "' has "
                        + config.maxBootsPerDeployment() + " (stream, boot) pairs already, the most Vigie keeps for"
                        + " one deployment (vigie.ingest.max-boots-per-deployment); boot '" + r.boot() + "' of stream '"
                        + r.stream() + "' is not stored nor judged", r);
                continue;
            }
            String refusal = writable == null || cursorOf[i].deployment() == null ? null
                    : writable.refusal(r.stream(), cursorOf[i].deployment(), account);
            if (refusal != null) {
                out[i] = LineOutcome.rejected(parsed.get(i).line(), "stream '" + r.stream() + "' boot '" + r.boot()
                        + "' was opened by another deployment: " + refusal, r);
            } else if (cursorOf[i].purgedAt() != null) {
                out[i] = LineOutcome.rejected(parsed.get(i).line(), purged(r, cursorOf[i]), r);
            } else {
                (r.seq() > cursorOf[i].maxSeq() ? fresh : check).add(i);
            }
        }
        Map<Long, Integer> duplicatesByStream = new HashMap<>();
        fresh.addAll(judgeExisting(c, parsed, cursorOf, check, out, duplicatesByStream));

        List<NewRecord> inserts = new ArrayList<>(fresh.size());
        Map<Long, TreeMap<Long, Integer>> insertedByStream = new HashMap<>();
        for (int i : fresh) {
            AuditRecord r = parsed.get(i).record();
            long id = cursorOf[i].id();
            inserts.add(new NewRecord(id, r, parsed.get(i).line()));
            insertedByStream.computeIfAbsent(id, k -> new TreeMap<>()).put(r.seq(), i);
        }
        String source = parsed.isEmpty() ? "http" : parsed.get(0).line().source().label();
        RecordStore.insertNew(c, inserts, source, now);

        List<RecordStore.Advance> advances = new ArrayList<>(cursors.size());
        for (StreamCursor cur : cursors.values()) {
            if (cur.purgedAt() != null) {
                continue;
            }
            TreeMap<Long, Integer> mine = insertedByStream.getOrDefault(cur.id(), new TreeMap<>());
            long next = cur.nextSeq();
            if (!mine.isEmpty()) {
                Map<Long, AuditRecord> memory = new HashMap<>();
                mine.forEach((seq, i) -> memory.put(seq, parsed.get(i).record()));
                next = sequencer().walk(c, cur, next, memory, cur.holdsRecords());
                for (Map.Entry<Long, Integer> e : mine.entrySet()) {
                    LineParser.Parsed p = parsed.get(e.getValue());
                    out[e.getValue()] = new LineOutcome(p.line(), e.getKey() < next ? Status.APPLIED : Status.PENDING,
                            null, p.record());
                }
            }
            long maxSeq = mine.isEmpty() ? 0 : mine.lastKey();
            advances.add(new RecordStore.Advance(cur.id(), next, maxSeq, mine.size(),
                    duplicatesByStream.getOrDefault(cur.id(), 0)));
        }
        RecordStore.advance(c, advances, now);

        for (int i = 0; i < n; i++) {
            if (sameAs[i] >= 0) {
                LineOutcome original = out[sameAs[i]];
                LineParser.Parsed p = parsed.get(i);
                out[i] = original.status() == Status.REJECTED
                        ? LineOutcome.rejected(p.line(), original.reason(), p.record())
                        : new LineOutcome(p.line(), Status.DUPLICATE, null, p.record());
            }
        }
        QuarantineStore.keep(c, quarantine(out, now));
        return out;
    }

    /**
     * Judges records whose key may be stored already: duplicates, conflicts, and late records (below the cursor,
     * never stored: their gap was declared lost). Returns those still to insert.
     */
    private List<Integer> judgeExisting(Connection c, List<LineParser.Parsed> parsed, StreamCursor[] cursorOf,
            List<Integer> check, LineOutcome[] out,
            Map<Long, Integer> duplicatesByStream) throws SQLException {
        List<Integer> toInsert = new ArrayList<>();
        if (check.isEmpty()) {
            return toInsert;
        }
        List<Long2> keys = new ArrayList<>(check.size());
        for (int i : check) {
            AuditRecord r = parsed.get(i).record();
            keys.add(new Long2(cursorOf[i].id(), r.seq()));
        }
        Map<Long2, String> stored = RecordStore.bodies(c, keys);
        for (int k = 0; k < check.size(); k++) {
            int i = check.get(k);
            LineParser.Parsed p = parsed.get(i);
            String body = stored.get(keys.get(k));
            if (body == null && p.record().seq() >= cursorOf[i].nextSeq()) {
                toInsert.add(i);
            } else if (body == null) {
                out[i] = LineOutcome.rejected(p.line(), "late: seq " + p.record().seq() + " of stream '"
                        + p.record().stream() + "' boot '" + p.record().boot()
                        + "' arrived after its gap was declared lost; it can no longer be applied in order",
                        p.record());
            } else if (body.equals(p.text()) || canonicalOfStored(body).equals(p.canonical())) {
                out[i] = new LineOutcome(p.line(), Status.DUPLICATE, null, p.record());
                duplicatesByStream.merge(keys.get(k).a(), 1, Integer::sum);
            } else {
                out[i] = LineOutcome.rejected(p.line(), "conflicting duplicate: a record with the same "
                        + "(stream, boot, seq) " + p.record().key() + " and different content was accepted before",
                        p.record());
            }
        }
        return toInsert;
    }

    /** Why a record of a boot whose records the retention job deleted is not taken. */
    private static String purged(AuditRecord r, StreamCursor cursor) {
        return "stream '" + r.stream() + "' boot '" + r.boot() + "': its records were deleted on " + cursor.purgedAt()
                + " by the retention policy (docs/operations.md, \"Retention\"); seq " + r.seq()
                + " can no longer be judged against them";
    }

    private String canonicalOfStored(String body) {
        try {
            return parser.canonicalOfStored(body);
        } catch (InvalidRecordException e) {
            throw new IllegalStateException("a stored record no longer parses: " + e.getMessage(), e);
        }
    }

    private static List<QuarantineStore.Entry> quarantine(LineOutcome[] out, Instant now) {
        List<QuarantineStore.Entry> entries = new ArrayList<>();
        for (LineOutcome o : out) {
            if (o.status() == Status.REJECTED) {
                AuditRecord r = o.record();
                IncomingLine l = o.line();
                if (l.isTruncated()) {
                    entries.add(new QuarantineStore.Entry(0, now, l.source().label(), l.sourceName(), l.position(),
                            o.reason(), l.bytes(), null, null, null, l.receivedLength(), l.receivedSha256()));
                    continue;
                }
                entries.add(new QuarantineStore.Entry(0, now, l.source().label(), l.sourceName(), l.position(),
                        o.reason(), l.bytes(), r == null ? null : r.stream(), r == null ? null : r.boot(),
                        r == null ? null : r.seq()));
            }
        }
        return entries;
    }

    /** Intake progress of every (stream, boot): applied, held back, lost. */
    public List<RecordStore.StreamState> streams() throws SQLException {
        return Transactions.run(dataSource, RecordStore::streams);
    }

    /**
     * As {@link #streams()}, of the streams {@code scope} allows (by name, and by the deployment of the boot's
     * first record; a boot whose deployment is not known is left out of a scope with deployments).
     */
    public List<RecordStore.StreamState> streams(IngestScope scope) throws SQLException {
        return Transactions.run(dataSource, c -> RecordStore.streams(c, scope::allows));
    }

    /** A record's key within a chunk. */
    private record SeqKey(StreamKey stream, long seq) {
    }

    private static StreamKey streamKey(AuditRecord r) {
        return new StreamKey(r.stream(), r.boot());
    }
}
