package app.vigie.detection;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;

import org.jboss.logging.Logger;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.runtime.Startup;
import io.quarkus.runtime.configuration.MemorySize;
import io.quarkus.scheduler.Scheduled;

import app.vigie.auditlog.AppliedRecordListener;
import app.vigie.auditlog.intake.RecordParser;
import app.vigie.auditlog.record.AuditRecord;
import app.vigie.auditlog.store.RecordStore;
import app.vigie.detection.core.DetectionSink;
import app.vigie.detection.core.DetectorLimits;
import app.vigie.detection.core.StreamDetector;
import app.vigie.detection.store.DetectionBuffer;
import app.vigie.detection.store.DetectionStore;
import app.vigie.detection.store.TransferStore;

/**
 * Runs a {@link StreamDetector} per (stream, boot) on the records as they are applied, and writes what they conclude
 * in the same transaction. A detector missing from memory (after a restart, a rollback, or an eviction) is rebuilt
 * by replaying the records already applied, silently, so that later records are judged as if nothing happened.
 */
@Startup  // its meters exist from the start, at zero
@ApplicationScoped
public class DetectionService implements AppliedRecordListener {
    private static final Logger LOG = Logger.getLogger(DetectionService.class);

    private final Map<String, Live> live = new ConcurrentHashMap<>();
    private final Map<Connection, DetectionBuffer> buffers = new ConcurrentHashMap<>();
    /**
     * The detectors each open transaction changed: they leave memory when it does not commit (rebuilt from what is
     * stored when next needed). Told of the outcome by the transaction itself when one is active (a commit that
     * fails after {@link #beforeCommit} included), else by {@link #rolledBack}.
     */
    private final Map<Connection, Touched> touched = new ConcurrentHashMap<>();
    private final RecordParser parser = new RecordParser();
    /** The detector this thread used last, in which transaction: the records of a stream come in runs. */
    private final ThreadLocal<Last> last = ThreadLocal.withInitial(Last::new);

    /** The features told of changed exposures, in the transaction that stored them. */
    @Inject
    @Any
    Instance<ExposuresListener> listeners;

    private List<ExposuresListener> told;

    @Inject
    TransactionSynchronizationRegistry transactions;

    @Inject
    DetectionConfig config;

    private DetectorLimits limits;

    @Inject
    MeterRegistry meters;

    /** What the detectors concluded in one transaction written, alerts planned ({@code vigie_detection_store_seconds}). */
    private Timer stored;

    @PostConstruct
    void meters() {
        limits = new DetectorLimits(config.maxPoolSlots(), config.maxTableEntries(), config.maxLiveRequests(),
                this::allocatePool);
        stored = Timer.builder("vigie.detection.store")
                .description("Per transaction: the findings, exposures and facts the detectors concluded, written,"
                        + " and the alerts they call for planned")
                .publishPercentileHistogram().register(meters);
        Gauge.builder("vigie.detection.detectors", live, Map::size)
                .description("(stream, boot) detectors in memory").register(meters);
    }

    /** A detector in memory, with the records applied since its last snapshot and when it was last used. */
    private static final class Live {
        final StreamDetector detector;
        long sinceSnapshot;
        volatile long lastUsed;

        Live(StreamDetector detector) {
            this.detector = detector;
        }
    }

    private static final class Last {
        Connection tx;
        String key;
        Live live;
    }

    @Override
    public void applied(Connection tx, AuditRecord record) throws SQLException {
        Live l = live(tx, record.stream(), record.boot(), record.seq());
        l.detector.apply(record, buffer(tx));
        if (++l.sinceSnapshot >= config.snapshotEvery()) {
            DetectorSnapshotStore.save(tx, l.detector);
            l.sinceSnapshot = 0;
        }
    }

    @Override
    public void gapLost(Connection tx, String stream, String boot, long fromSeq, long toSeq) throws SQLException {
        live(tx, stream, boot, fromSeq).detector.gapLost(fromSeq, toSeq, Instant.now(), buffer(tx));
    }

    /**
     * Spec 1.3, amendment 5: a flush resolves the reads of received positions that no send covers yet (judged as in
     * version 1 where none does), a batch per call, into this transaction's buffer.
     */
    @Override
    public void flushed(Connection tx, Flush flush, int limit) throws SQLException {
        TransferStore.Resolved at = (TransferStore.Resolved) flush.place;
        TransferStore.Resolved r = TransferStore.resolveHeld(tx, buffer(tx), flush.storedBefore, flush.streams, limit,
                at == null ? null : at.lastStoredAt(), at == null ? null : at.lastKey());
        flush.resolved += r.resolved();
        flush.done = r.lastKey() == null;
        if (!flush.done) {
            flush.place = r;
        }
    }

    @Override
    public void beforeCommit(Connection tx) throws SQLException {
        Touched t = touched.get(tx);
        if (t != null && !t.toldOfOutcome && transactions.getTransactionStatus() == Status.STATUS_NO_TRANSACTION) {
            touched.remove(tx);  // a JDBC transaction of its own: its rollback after this point goes unheard
        }
        DetectionBuffer b = buffers.remove(tx);
        if (b != null) {
            long started = System.nanoTime();
            Instant now = Instant.now();
            Map<UUID, Set<String>> changed = DetectionStore.write(tx, b, now);
            if (!changed.isEmpty()) {
                for (ExposuresListener l : listeners()) {
                    l.exposuresChanged(tx, changed, now);
                }
            }
            stored.record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
        }
    }

    private List<ExposuresListener> listeners() {
        List<ExposuresListener> l = told;
        if (l == null) {
            l = listeners.stream().toList();
            told = l;
        }
        return l;
    }

    @Override
    public void rolledBack(Connection tx) {
        buffers.remove(tx);
        Touched t = touched.remove(tx);
        if (t != null) {
            t.keys.forEach(live::remove);
        }
    }

    /** The detectors a transaction changed, and whether its outcome will be told (a JTA synchronization). */
    private static final class Touched {
        final Set<String> keys = ConcurrentHashMap.newKeySet();
        boolean toldOfOutcome;
    }

    /** The detectors {@code tx} changed; the first time, asks its transaction to tell how it ends. */
    private Touched touched(Connection tx) {
        Touched t = touched.get(tx);
        if (t != null) {
            return t;
        }
        Touched fresh = new Touched();
        touched.put(tx, fresh);
        if (transactions.getTransactionStatus() == Status.STATUS_ACTIVE) {
            transactions.registerInterposedSynchronization(new Synchronization() {
                @Override
                public void beforeCompletion() {
                }

                @Override
                public void afterCompletion(int status) {
                    touched.remove(tx, fresh);
                    buffers.remove(tx);
                    if (status != Status.STATUS_COMMITTED) {
                        fresh.keys.forEach(live::remove);
                    }
                }
            });
            fresh.toldOfOutcome = true;
        }
        return fresh;
    }

    /** How many (stream, boot) detectors are in memory. */
    public int detectorsInMemory() {
        return live.size();
    }

    /** How many detectors of streams whose name starts with {@code prefix} are in memory. */
    public long detectorsInMemory(String prefix) {
        return live.keySet().stream().filter(k -> k.startsWith(prefix)).count();
    }

    /** Whether the detector of (stream, boot) is in memory. */
    public boolean inMemory(String stream, String boot) {
        return live.containsKey(key(stream, boot));
    }

    /** Drops the detector of (stream, boot) from memory: its records were deleted (nothing of it is judged again). */
    public void forget(String stream, String boot) {
        live.remove(key(stream, boot));
    }

    /** Frees the memory of detectors unused for longer than {@code idle}: their streams went quiet. */
    public int evictIdle(Duration idle) {
        long before = System.currentTimeMillis() - idle.toMillis();
        int evicted = 0;
        for (Map.Entry<String, Live> e : live.entrySet()) {
            if (e.getValue().lastUsed <= before && live.remove(e.getKey(), e.getValue())) {
                evicted++;
            }
        }
        return evicted;
    }

    @Scheduled(every = "1m", delayed = "1m", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void evictIdleDetectors() {
        int n = evictIdle(config.idleEviction());
        if (n > 0) {
            LOG.infof("Evicted %d idle detectors (unused for %s); %d stay in memory", n, config.idleEviction(),
                    live.size());
        }
    }

    /** Bytes a detector holds, roughly: its pool model and its live requests. */
    static long bytesOf(StreamDetector d) {
        return 1024 + d.poolBytes() + 256L * d.liveRequests() + d.keptTableBytes() + d.tableBytes();
    }

    /** The detectors' memory, estimated. */
    public long bytesInMemory() {
        long total = 0;
        for (Live l : live.values()) {
            total += bytesOf(l.detector);
        }
        return total;
    }

    /**
     * Keeps the detectors within {@code budget} bytes: over it, the least recently used ones that have been unused
     * for at least {@code minIdle} leave memory until 80 % of the budget is left. A stream that speaks again gets its
     * detector back from its snapshot and the records after it. Returns how many left.
     */
    public int evictOverBudget(long budget, Duration minIdle) {
        long total = bytesInMemory();
        if (total <= budget) {
            return 0;
        }
        long before = System.currentTimeMillis() - minIdle.toMillis();
        List<Map.Entry<String, Live>> idle = new ArrayList<>();
        for (Map.Entry<String, Live> e : live.entrySet()) {
            if (e.getValue().lastUsed <= before) {
                idle.add(e);
            }
        }
        idle.sort(Comparator.comparingLong(e -> e.getValue().lastUsed));
        int evicted = 0;
        for (Map.Entry<String, Live> e : idle) {
            if (total <= budget * 8 / 10) {
                break;
            }
            if (live.remove(e.getKey(), e.getValue())) {
                total -= bytesOf(e.getValue().detector);
                evicted++;
            }
        }
        return evicted;
    }

    @Scheduled(every = "${vigie.detection.memory-check-every:5s}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void keepWithinMemoryBudget() {
        long budget = config.memoryBudget().map(MemorySize::asLongValue).orElse(Runtime.getRuntime().maxMemory() / 4);
        int n = evictOverBudget(budget, Duration.ofSeconds(2));
        remeasure(System.nanoTime());
        if (n > 0) {
            LOG.infof("Evicted %d least recently used detectors to stay within %d MB; %d stay in memory (%d MB)", n,
                    budget >> 20, live.size(), bytesInMemory() >> 20);
        }
    }

    /** The limits every detector of the service keeps to; replays apart from the intake take the heap's budget. */
    public DetectorLimits limits() {
        return limits.withBudget(DetectorLimits.PoolBudget.HEAP);
    }

    /** What the detectors may take, in bytes. */
    long budget() {
        return config.memoryBudget().map(MemorySize::asLongValue).orElse(Runtime.getRuntime().maxMemory() / 4);
    }

    /**
     * A detector's pool is allocated only when it fits in the detectors' budget (idle detectors leave memory to make
     * room) and in what the heap has to spare: one at a time, so that two boots cannot both take the last of it.
     */
    synchronized String allocatePool(long bytes, Runnable allocation) {
        long budget = budget();
        if (bytes > budget) {
            // never fits, whatever else leaves memory: the boot is not judged (a property of the log and the settings)
            return "its model would take " + mib(bytes) + " MiB, more than the detectors' whole budget of "
                    + mib(budget) + " MiB";
        }
        // the detectors' memory as last measured plus the pools taken since: measuring walks every detector, which a
        // CONFIG per new boot cannot afford (bench/ingest-http fell to 12,593 records/s). Eviction stays the
        // schedule's (every 5 s, idle detectors over the budget); here only near the hard limit, at most once a second
        long used = measured + admitted;
        long now = System.nanoTime();
        if (used + bytes > 2 * budget && now - measuredAt > 1_000_000_000L) {
            evictOverBudget(budget - bytes, Duration.ofSeconds(2));
            remeasure(now);
            used = measured;
        }
        // the budget is what eviction aims at; detectors in use may go past it up to twice (as before this check,
        // when nothing refused), not further: a heap of four budgets keeps half of itself for everything else
        if (used + bytes > 2 * budget) {
            // fits, but not now: a moment's memory must not leave a boot unjudged; the record comes again. (The heap's
            // own use is not looked at: it counts garbage not yet collected, which refused a 1 MiB pool under load.)
            throw new DetectorLimits.NoRoomNow("a pool of " + mib(bytes) + " MiB does not fit now (the detectors in use"
                    + " hold " + mib(used) + " MiB, twice the budget of " + mib(budget) + " MiB is the most they may"
                    + " hold); retry shortly");
        }
        allocation.run();
        admitted += bytes;
        return null;
    }

    /** {@link #bytesInMemory()} at {@link #measuredAt}; the pools {@link #allocatePool} took since. */
    private long measured;
    private long admitted;
    private long measuredAt = System.nanoTime() - 2_000_000_000L;

    private synchronized void remeasure(long now) {
        measured = bytesInMemory();
        admitted = 0;
        measuredAt = now;
    }

    private static long mib(long bytes) {
        return (bytes + (1 << 20) - 1) >> 20;
    }

    private DetectionBuffer buffer(Connection tx) {
        return buffers.computeIfAbsent(tx, c -> new DetectionBuffer());
    }

    /** The detector of (stream, boot), ready to take {@code seq}: rebuilt from the store when needed. */
    private Live live(Connection tx, String stream, String boot, long seq) throws SQLException {
        Last last = this.last.get();
        if (last.tx == tx && last.live != null && last.live.detector.nextSeq() == seq
                && last.live.detector.stream().equals(stream) && last.live.detector.boot().equals(boot)
                && live.get(last.key) == last.live) {
            return last.live;
        }
        String key = key(stream, boot);
        Live l = find(tx, key, stream, boot, seq);
        last.tx = tx;
        last.key = key;
        last.live = l;
        return l;
    }

    private Live find(Connection tx, String key, String stream, String boot, long seq) throws SQLException {
        touched(tx).keys.add(key);
        Live l = live.get(key);
        if (l == null || l.detector.nextSeq() != seq) {
            // Nothing comes before seq 1 (the CONFIG that starts a boot): no need to look for it.
            l = new Live(seq == 1 ? detector(stream, boot) : rebuild(tx, stream, boot, seq));
            live.put(key, l);
        }
        l.lastUsed = System.currentTimeMillis();
        return l;
    }

    private StreamDetector detector(String stream, String boot) {
        StreamDetector d = new StreamDetector(stream, boot);
        d.keptTablesBudget(config.freedTablesBudget().asLongValue());
        d.limits(limits);
        return d;
    }

    private static String key(String stream, String boot) {
        return stream + "\u0000" + boot;
    }

    private StreamDetector rebuild(Connection tx, String stream, String boot, long seq) throws SQLException {
        // the snapshot's pool is taken from the budget as a CONFIG's is (a restart must not overrun it either)
        StreamDetector d = DetectorSnapshotStore.load(tx, stream, boot, seq, limits.budget())
                .orElseGet(() -> detector(stream, boot));
        d.keptTablesBudget(config.freedTablesBudget().asLongValue());
        d.limits(limits);
        long fromSnapshot = d.nextSeq() - 1;
        long started = System.nanoTime();
        long replayed = StoredReplay.replay(tx, RecordStore.streamBootId(tx, stream, boot), d, seq, parser,
                DetectionSink.NONE);
        if (d.unsupportedFinding() != null) {
            // said again: the budget may have refused now a pool it took when the records were first judged
            buffer(tx).finding(d.unsupportedFinding());
        }
        if (replayed > 0 || fromSnapshot > 0) {
            LOG.infof("Rebuilt the detector of %s boot %s from %s and %d stored records in %d ms", stream, boot,
                    fromSnapshot > 0 ? "its snapshot at seq " + fromSnapshot : "the start of the boot", replayed,
                    (System.nanoTime() - started) / 1_000_000);
        }
        return d;
    }
}
