package app.vigie.auditlog;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Intake settings. */
@ConfigMapping(prefix = "vigie.ingest")
public interface IngestConfig {

    /** Lines stored per transaction (fewer, larger transactions: fewer WAL flushes). */
    @WithDefault("5000")
    int chunkRecords();

    /**
     * Records of a synthetic log the intake runs through, rolled back, before the service says it is ready, so that
     * a fresh JVM's code is compiled before the first real records (app.vigie.warmup.IntakeWarmUp); 0: none.
     */
    @WithDefault("150000")
    long warmUpRecords();

    /** Threads the warm-up runs on at once (each with its own database connection; 1 to 8). */
    @WithDefault("4")
    int warmUpThreads();

    /** The longest the warm-up may delay the start: it stops at the first simulation after. */
    @WithDefault("60s")
    Duration warmUpMax();

    /** The largest accepted body of {@code POST /api/audit-log}; larger bodies get 413. */
    @WithDefault("67108864")
    long maxBodyBytes();

    /**
     * What one {@code POST /api/audit-log} holds of its body at a time: its lines are ingested a window at a time as
     * they arrive. At least 2 MiB (a line of up to 1 MiB must fit whole); a longer line is kept as its first 64 KiB,
     * length and SHA-256.
     */
    @WithDefault("4194304")
    int windowBytes();

    /**
     * What every {@code POST /api/audit-log} in progress may hold together: each takes its window (less for a body
     * announced smaller) from this before it reads; one that finds no room is answered 503 with {@code Retry-After}.
     */
    @WithDefault("268435456")
    long maxBufferedBytes();

    /**
     * The most (stream, boot) pairs one deployment may have (every boot of every stream, kept until retention purges
     * it): the records of a pair beyond it are rejected with the reason and kept in the quarantine, so that a
     * runtime cannot make Vigie keep an unbounded number of boots.
     */
    @WithDefault("1000000")
    long maxBootsPerDeployment();

    /**
     * The longest a {@code POST /api/audit-log} body may take to arrive: one still arriving then is stopped (408, the
     * lines taken before it said), so that slow senders cannot hold the intake's windows (a connection that sends
     * nothing at all is closed by {@code quarkus.http.idle-timeout}).
     */
    @WithDefault("5M")
    Duration bodyDeadline();

    /** How long a record may wait behind a missing seq before the gap is declared lost. */
    @WithDefault("5M")
    Duration gapTimeout();

    /**
     * How often held-back records are checked against the gap timeout. Read by {@link GapService}'s schedule (a
     * {@code @Scheduled} expression cannot call this method); declared here so that it is documented with the others
     * and a value that is not a duration stops the start.
     */
    @WithDefault("10s")
    Duration gapCheckEvery();
}
