package app.vigie.runtime.log;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * Where the work of telling the audit log runs (fingerprinting pages, formatting records, handing lines to the
 * sink). {@link #inline()}: in the engine's thread, as each record is made. {@link #background(String)}: in a
 * thread of its own, in exactly the order the records were made, so that the scheduler pays only for describing a
 * record and handing it over (the way vLLM publishes its KV-cache events from a thread of their own). One emitter
 * serves every node of a deployment, so their records keep one order.
 *
 * <p>Records go over in batches of {@value #BATCH}; a batch that is not full goes when a record finds it older than
 * {@value #MAX_DELAY_MS} ms, and at {@link #close()}. At most {@value #QUEUED_BATCHES} batches wait: an emitter that
 * falls behind slows the engine down instead of growing memory. Whatever a record's task throws (a sink that fails)
 * stops emission; the engine gets it at its next hand-over or at {@link #close()}.
 *
 * <p>A task must only read what the engine no longer changes: values, fresh arrays, immutable requests.
 */
public final class Emitter implements AutoCloseable {
    static final int BATCH = 512;
    static final int QUEUED_BATCHES = 64;
    static final long MAX_DELAY_MS = 2;
    private static final List<Runnable> END = List.of();

    private final BlockingQueue<List<Runnable>> queue;
    private final Thread thread;
    private volatile Throwable failure;
    private volatile boolean abandoned;
    private boolean reported;
    private boolean closed;
    private List<Runnable> batch;
    private long batchStart;

    private Emitter(String name) {
        if (name == null) {
            queue = null;
            thread = null;
            return;
        }
        queue = new ArrayBlockingQueue<>(QUEUED_BATCHES);
        batch = new ArrayList<>(BATCH);
        thread = new Thread(this::drain, name);
        // Not a reason to keep a JVM alive: an engine that died without closing leaves it waiting.
        thread.setDaemon(true);
        thread.start();
    }

    /** Runs each record's task at once, in the caller's thread. */
    public static Emitter inline() {
        return new Emitter(null);
    }

    /** Runs the tasks in a thread of their own, named {@code name}. */
    public static Emitter background(String name) {
        return new Emitter(Objects.requireNonNull(name, "name"));
    }

    public boolean isBackground() {
        return thread != null;
    }

    /** Tells one record: {@code task} formats it and hands it to the sink. */
    public void submit(Runnable task) {
        if (thread == null) {
            task.run();
            return;
        }
        if (closed) {
            throw new IllegalStateException("the emitter is closed");
        }
        if (batch.isEmpty()) {
            batchStart = System.nanoTime();
        }
        batch.add(task);
        if (batch.size() >= BATCH
                || (batch.size() & 15) == 0 && System.nanoTime() - batchStart > MAX_DELAY_MS * 1_000_000) {
            handOver();
        }
    }

    private void handOver() {
        if (failure != null) {
            batch.clear(); // never told: emission stopped at the failure
            rethrowFailure();
        }
        if (batch.isEmpty()) {
            return;
        }
        try {
            queue.put(batch);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while handing audit records over", e);
        }
        batch = new ArrayList<>(BATCH);
    }

    private void rethrowFailure() {
        Throwable f = failure;
        if (f != null && !reported) {
            reported = true;
            if (f instanceof RuntimeException re) {
                throw re;
            }
            if (f instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException("the audit log sink failed: " + f, f);
        }
        if (f != null) {
            throw new IllegalStateException("the audit log sink failed earlier: " + f, f);
        }
    }

    private void drain() {
        try {
            for (List<Runnable> b; (b = queue.take()) != END; ) {
                for (int i = 0; i < b.size() && failure == null && !abandoned; i++) {
                    try {
                        b.get(i).run();
                    } catch (Throwable t) {
                        failure = t;
                    }
                }
            }
        } catch (InterruptedException e) {
            // abandon(): stop at once
        }
    }

    /**
     * Hands over what is left, waits until every record has gone to the sink, and throws what the sink threw if the
     * engine has not had it yet. Idempotent.
     */
    @Override
    public void close() {
        if (thread == null || closed) {
            return;
        }
        closed = true;
        try {
            if (!batch.isEmpty()) {
                queue.put(batch);
            }
            queue.put(END);
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            abandon();
            throw new IllegalStateException("interrupted while the audit log drained", e);
        }
        rethrowFailure();
    }

    /** Stops without telling what waits: for an engine that failed, or a service that stops. Idempotent. */
    public void abandon() {
        if (thread == null) {
            return;
        }
        closed = true;
        abandoned = true;
        thread.interrupt();
    }
}
