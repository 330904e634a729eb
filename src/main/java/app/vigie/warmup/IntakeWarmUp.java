package app.vigie.warmup;

import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.interceptor.Interceptor;

import org.jboss.logging.Logger;

import io.quarkus.runtime.StartupEvent;

import app.vigie.auditlog.IngestConfig;
import app.vigie.auditlog.IngestService;
import app.vigie.auditlog.intake.IncomingLine;
import app.vigie.auditlog.intake.Source;
import app.vigie.db.Transactions;
import app.vigie.runtime.engine.Fault;
import app.vigie.runtime.sim.Simulation;

/**
 * Before the service answers (its HTTP port opens after the start's observers) and before the Kafka intake polls:
 * the reference runtime's log of a leaking prefill/decode deployment, every fault on, goes through the whole intake
 * (parsed, stored, applied, judged, findings, exposures and alerts written), every transaction rolled back
 * ({@link IngestService#rehearse}). Nothing of it stays; what it leaves is the intake's code compiled, so that a fresh
 * JVM takes its first real records near its warm rate (issue 22, goal 6; docs/operations.md, "The JVM"). Its records
 * are the runtime's, renamed under a stream and request prefix of their own ({@code vigie-warm-up/<run>-<thread>/}), so that
 * no cursor, request or incident of real data is touched, not even locked.
 *
 * <p>Each simulation is small enough for one intake chunk: a chunk's streams start at their first seq, so every
 * rolled-back transaction is judged as a whole log would be (a later chunk of a stream whose start was rolled back
 * would only be held behind a gap). A failure is logged and the start goes on: the warm-up makes the service faster,
 * never less available.
 */
@ApplicationScoped
public class IntakeWarmUp {
    private static final Logger LOG = Logger.getLogger(IntakeWarmUp.class);

    /** Records per simulated request in the 2026 scenario (about 13.8): sizes each simulation under one chunk. */
    static final int RECORDS_PER_REQUEST = 16;

    /** At most this many threads: each holds a connection of the pool (16 by default) while it runs. */
    static final int MAX_THREADS = 8;

    @Inject
    IngestService ingest;

    @Inject
    IngestConfig config;

    /** Runs before the observers of the default priority (the Kafka intake's start among them). */
    void start(@Observes @Priority(Interceptor.Priority.APPLICATION + 400) StartupEvent event) {
        long target = config.warmUpRecords();
        if (target <= 0) {
            return;
        }
        int threads = config.warmUpThreads();
        if (threads < 1 || threads > MAX_THREADS) {
            threads = Math.max(1, Math.min(MAX_THREADS, threads));
            LOG.warnf("vigie.ingest.warm-up-threads is %d; the warm-up runs on %d (1 to %d: each thread holds a"
                    + " connection of the pool)", config.warmUpThreads(), threads, MAX_THREADS);
        }
        long started = System.nanoTime();
        try {
            Result r = run(target, threads, started + config.warmUpMax().toNanos(), null);
            double seconds = (System.nanoTime() - started) / 1e9;
            LOG.infof("Intake warmed up in %.1f s: %,d synthetic records on %d thread(s) (%,d applied, %,d leaking"
                    + " responses simulated), every transaction rolled back%s", seconds, r.records(), threads,
                    r.applied(), r.leakingResponses(), r.records() < target
                            ? "; stopped at vigie.ingest.warm-up-max (" + config.warmUpMax() + ")" : "");
        } catch (SQLException | RuntimeException e) {
            LOG.warnf(e, "The intake's warm-up stopped (the service starts without it; its first records are taken"
                    + " at a cold JVM's rate): %s", e.getMessage());
        }
    }

    /** What a warm-up ran. */
    public record Result(long records, long applied, long leakingResponses) {
    }

    /**
     * Rehearses at least {@code target} records (whole simulations) on {@code threads} threads at once, as many as
     * the intake's callers are (each thread's connection and its PostgreSQL backend warmed as well), each thread on
     * a deployment of its own (no thread waits for another's incident); each simulation in one rolled-back chunk.
     * {@code beforeRollback}, when given, looks at each chunk's transaction before its rollback.
     */
    public Result run(long target, int threads, long deadlineNanos, Transactions.Work<?> beforeRollback)
            throws SQLException {
        String run = HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong()).substring(0, 10);
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "vigie-warm-up");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<Result>> parts = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                String prefix = "vigie-warm-up/" + run + "-" + t + "/";
                long seed = 4242L + 1_000_000L * t;
                parts.add(pool.submit(() -> one(prefix, seed, (target + threads - 1) / threads, deadlineNanos,
                        beforeRollback)));
            }
            long records = 0;
            long applied = 0;
            long leaking = 0;
            for (Future<Result> f : parts) {
                Result r = f.get();
                records += r.records();
                applied += r.applied();
                leaking += r.leakingResponses();
            }
            return new Result(records, applied, leaking);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("the warm-up was interrupted", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof SQLException x) {
                throw x;
            }
            throw new IllegalStateException("the warm-up failed: " + e.getCause().getMessage(), e.getCause());
        } finally {
            pool.shutdownNow();
            try {
                // a failed part's siblings stop at their next statement; none is left in a transaction at the start
                pool.awaitTermination(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** One thread's part: simulations under {@code prefix} (streams, requests, deployment) until {@code target}. */
    private Result one(String prefix, long seed, long target, long deadlineNanos,
            Transactions.Work<?> beforeRollback) throws SQLException {
        int requests = (int) Math.max(1, Math.min(config.chunkRecords(), target) / RECORDS_PER_REQUEST);
        long records = 0;
        long applied = 0;
        long leaking = 0;
        for (int k = 0; records < target && System.nanoTime() < deadlineNanos
                && !Thread.currentThread().isInterrupted(); k++) {
            List<IncomingLine> lines = new ArrayList<>();
            Simulation.Options options = new Simulation.Options(Simulation.Scenario.INCIDENT_2026, 6, requests,
                    EnumSet.allOf(Fault.class), Set.of(), seed + k, prefix.substring(0, prefix.length() - 1), 0.15);
            // the log written inline, on this thread (no emitter thread per simulation)
            Simulation.Summary summary = Simulation.run(options, line -> {
                byte[] b = line.replace("\"stream\":\"", "\"stream\":\"" + prefix)
                        .replace("\"request\":\"", "\"request\":\"" + prefix).getBytes(StandardCharsets.UTF_8);
                lines.add(new IncomingLine(Source.FILE, "warm-up", lines.size() + 1, b, 0, b.length, false));
            }, null, true, true, false);
            if (lines.size() > config.chunkRecords()) {
                // more than one chunk: the same again with fewer requests
                if (requests == 1) {
                    throw new IllegalStateException("one simulated request wrote " + lines.size()
                            + " records, more than one intake chunk (" + config.chunkRecords() + ")");
                }
                requests = Math.max(1, requests * 3 / 4);
                k--;
                continue;
            }
            applied += ingest.rehearse(lines, beforeRollback);
            records += lines.size();
            leaking += summary.truth().readers().size();
        }
        return new Result(records, applied, leaking);
    }
}
