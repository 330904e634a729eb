package app.vigie.auditlog.kafka;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Predicate;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * One partition's records between the polling thread and the database. The polling thread queues what it fetched
 * ({@link #add}); a worker stores the queue in order, one batch (one transaction) at a time, and notes the offset up
 * to which the partition is stored, which the polling thread commits ({@link #toCommit}). So fetching, parsing and
 * storing overlap, each partition goes at its own pace, and a partition's offsets are committed as soon as its batch
 * is stored, not when the slowest partition of a poll is. A batch that fails stops the pipeline: its queue is dropped,
 * and the polling thread takes the failure ({@link #takeFailure}), rewinds the partition to the batch's first offset
 * and holds it back until the next attempt.
 *
 * <p>Poison records: a batch that failed {@code maxAttempts} times in a row, whatever the exception (a record the
 * parser let through but a later step cannot take: a bug in the detector, a database error the record causes), is
 * split in halves, tried again at once, and each half that fails split again, down to the record that fails alone;
 * the halves that succeed are stored and committed as usual, so the good records around a poison one are judged.
 * That record, once it has failed {@code maxAttempts} times alone, is handed to the {@link Quarantine} (kept with the
 * reason and its offset committed past it): a partition never stops on one record. Failures that say the database
 * cannot be reached ({@code unavailable}) are not the records' fault: they count for nothing, the partition waits as
 * long as the outage lasts, and nothing is quarantined for them; nor when the quarantine itself cannot be written.
 * Thread-safe: the polling thread and one worker at a time use it.
 */
final class PartitionPipeline {

    /**
     * Stores one batch of a partition's records, in order, and dead-letters its rejected ones; throws if it could not.
     */
    interface Store {
        void store(TopicPartition partition, List<ConsumerRecord<byte[], byte[]>> batch) throws Exception;
    }

    /**
     * Keeps a record that failed {@code attempts} times alone (the last time with {@code cause}), with why, so that
     * its offset may be committed; throws if it could not (the record is then tried again later, as after any failure).
     */
    interface Quarantine {
        void keep(TopicPartition partition, ConsumerRecord<byte[], byte[]> record, Throwable cause, int attempts)
                throws Exception;
    }

    /** A batch that could not be stored: the partition goes back to {@code offset}. */
    record Failure(long offset, Throwable cause) {
    }

    private final TopicPartition partition;
    private final Executor workers;
    private final Store store;
    private final int batchRecords;
    private final int maxAttempts;
    private final Quarantine quarantine;
    private final Predicate<Throwable> unavailable;

    private final ArrayDeque<ConsumerRecord<byte[], byte[]>> queue = new ArrayDeque<>();
    /** A worker holds or will hold this pipeline (at most one at a time: the partition's order). */
    private boolean scheduled;
    private boolean closed;
    private Failure failure;
    /** The next offset to read once everything stored is committed; -1 before the first batch. */
    private long stored = -1;
    private long committed = -1;
    /** Failures in a row of batches starting at {@code failedAt} (those of an unavailable database not counted). */
    private long failedAt = -1;
    private int failures;
    /**
     * While records below {@code isolateUntil} remain (a batch of them failed {@code maxAttempts} times), batches take
     * at most {@code isolating} records: halved on a failure, doubled on a success. -1: not isolating.
     */
    private long isolateUntil = -1;
    private int isolating;

    /** Without poison handling: every failure rewinds the partition, however often (as for an unavailable database). */
    PartitionPipeline(TopicPartition partition, Executor workers, Store store, int batchRecords) {
        this(partition, workers, store, batchRecords, Integer.MAX_VALUE, (tp, r, cause, attempts) -> {
            throw new IllegalStateException("no quarantine");
        }, e -> false);
    }

    /**
     * {@code maxAttempts}: how many times a batch, then a record alone, is tried before it is split, then quarantined.
     * {@code unavailable}: the failures that are not the records' (the database cannot be reached).
     */
    PartitionPipeline(TopicPartition partition, Executor workers, Store store, int batchRecords, int maxAttempts,
            Quarantine quarantine, Predicate<Throwable> unavailable) {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be at least 1, got " + maxAttempts);
        }
        this.partition = partition;
        this.workers = workers;
        this.store = store;
        this.batchRecords = batchRecords;
        this.maxAttempts = maxAttempts;
        this.quarantine = quarantine;
        this.unavailable = unavailable;
    }

    TopicPartition partition() {
        return partition;
    }

    /**
     * Queues records fetched for the partition, in offset order after those queued before; ignored once closed or
     * failed (the partition is read again from the failed batch). Returns how many records wait.
     */
    synchronized int add(List<ConsumerRecord<byte[], byte[]>> records) {
        if (closed || failure != null) {
            return queue.size();
        }
        queue.addAll(records);
        schedule();
        return queue.size();
    }

    synchronized int queued() {
        return queue.size();
    }

    /** True while a batch is being stored or records wait. */
    synchronized boolean busy() {
        return scheduled || !queue.isEmpty();
    }

    /** The offset to commit when it moved since the last call (then marked committed), else -1. */
    synchronized long toCommit() {
        if (stored > committed) {
            committed = stored;
            return stored;
        }
        return -1;
    }

    /** The failure of the last batch, once: the pipeline takes records again afterwards. */
    synchronized Failure takeFailure() {
        Failure f = failure;
        failure = null;
        return f;
    }

    /** The offset up to which the partition is stored (the next to read), committed or not; -1 before any batch. */
    synchronized long stored() {
        return stored;
    }

    /** Takes no more records and drops those waiting; the batch being stored, if any, goes on ({@link #awaitIdle}). */
    synchronized void close() {
        closed = true;
        queue.clear();
    }

    /**
     * Waits until no batch is being stored, at most until {@code deadline} ({@link System#currentTimeMillis()});
     * returns false when one still is.
     */
    synchronized boolean awaitIdle(long deadline) throws InterruptedException {
        long left;
        while (scheduled && (left = deadline - System.currentTimeMillis()) > 0) {
            wait(left);
        }
        return !scheduled;
    }

    private void schedule() {
        if (!scheduled && !queue.isEmpty()) {
            scheduled = true;
            try {
                workers.execute(this::storeOneBatch);
            } catch (RejectedExecutionException e) {
                // the workers are shut down (the service stops): the queued records are read again by whoever reads
                // the partition next
                queue.clear();
                done();
            }
        }
    }

    /**
     * Stores the next batch, then hands the worker back and queues itself again behind the other partitions' batches
     * if more records wait: with more partitions than workers, each partition gets its turn. A failure is judged by
     * {@link #failed}: split the batch and go on, quarantine its one record, or stop and let the polling thread rewind.
     */
    private void storeOneBatch() {
        List<ConsumerRecord<byte[], byte[]>> batch;
        synchronized (this) {
            if (closed || queue.isEmpty()) {
                done();
                return;
            }
            int limit = batchRecords;
            if (isolateUntil >= 0 && queue.peek().offset() < isolateUntil) {
                limit = isolating;
            } else {
                isolateUntil = -1;
            }
            batch = new ArrayList<>(Math.min(limit, queue.size()));
            while (batch.size() < limit && !queue.isEmpty()) {
                batch.add(queue.poll());
            }
        }
        boolean goOn = false;
        Throwable failed = null;
        try {
            failed = attempt(batch);
            Next next;
            int attempts;
            synchronized (this) {
                next = failed == null ? Next.STORED : failed(batch, failed);
                attempts = failures;
            }
            if (next == Next.QUARANTINE) {
                // outside the lock: the polling thread goes on meanwhile
                failed = quarantineOrFailure(batch.get(0), failed, attempts);
                next = failed == null ? Next.STORED : Next.REWIND;
            }
            synchronized (this) {
                switch (next) {
                    case STORED -> {
                        succeeded(batch);
                        goOn = true;
                    }
                    case SPLIT -> {
                        if (!closed) {
                            for (int i = batch.size() - 1; i >= 0; i--) {
                                queue.addFirst(batch.get(i));  // tried again at once, in halves
                            }
                        }
                        goOn = true;
                    }
                    default -> {
                        failure = new Failure(batch.get(0).offset(), failed);
                        queue.clear();
                    }
                }
            }
        } catch (RuntimeException | Error e) {
            // whatever went wrong here, the partition goes back to the batch rather than wait for nothing
            synchronized (this) {
                goOn = false;
                failure = new Failure(batch.get(0).offset(), e);
                queue.clear();
            }
        } finally {
            synchronized (this) {
                done();
                if (goOn && !closed) {
                    schedule();
                }
            }
        }
    }

    /** What follows a batch's attempt. */
    private enum Next {
        /** Stored (or its one record quarantined): go on. */
        STORED,
        /** Split in halves, tried again at once. */
        SPLIT,
        /** Its one record is to be quarantined. */
        QUARANTINE,
        /** Stop: the polling thread rewinds the partition to the batch and holds it back for a while. */
        REWIND
    }

    /** Stores the batch; returns what it failed with (any exception or error), or null. */
    private Throwable attempt(List<ConsumerRecord<byte[], byte[]>> batch) {
        try {
            store.store(partition, batch);
            return null;
        } catch (Exception | Error e) {
            // an Error too (a StackOverflowError or an OutOfMemoryError a record set off): the record is the poison,
            // the worker and the partition go on
            return e;
        }
    }

    /** Counts a failure of the batch and decides what follows it. */
    private Next failed(List<ConsumerRecord<byte[], byte[]>> batch, Throwable cause) {
        if (unavailable.test(cause)) {
            return Next.REWIND;  // not the records' fault: waits as long as the database is away
        }
        long first = batch.get(0).offset();
        if (first == failedAt) {
            failures++;
        } else {
            failedAt = first;
            failures = 1;
        }
        boolean isolated = isolateUntil >= 0 && first < isolateUntil;
        if (batch.size() > 1 && (isolated || failures >= maxAttempts)) {
            isolateUntil = Math.max(isolateUntil, batch.get(batch.size() - 1).offset() + 1);
            isolating = (batch.size() + 1) / 2;
            failedAt = -1;
            failures = 0;
            return Next.SPLIT;
        }
        return batch.size() == 1 && failures >= maxAttempts ? Next.QUARANTINE : Next.REWIND;
    }

    /** Hands the record to the quarantine; returns null when kept, else why not (the record's failure stands). */
    private Throwable quarantineOrFailure(ConsumerRecord<byte[], byte[]> poison, Throwable cause, int attempts) {
        try {
            quarantine.keep(partition, poison, cause, attempts);
            return null;
        } catch (Exception | Error e) {
            e.addSuppressed(cause);
            return e;
        }
    }

    /** The batch is stored (or its record quarantined): its offsets may be committed. */
    private void succeeded(List<ConsumerRecord<byte[], byte[]>> batch) {
        stored = batch.get(batch.size() - 1).offset() + 1;
        failedAt = -1;
        failures = 0;
        if (isolateUntil >= 0) {
            if (stored >= isolateUntil) {
                isolateUntil = -1;
            } else {
                isolating = (int) Math.min(batchRecords, 2L * isolating);
            }
        }
    }

    private void done() {
        scheduled = false;
        notifyAll();
    }
}
