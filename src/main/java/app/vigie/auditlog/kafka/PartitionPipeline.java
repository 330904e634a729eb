package app.vigie.auditlog.kafka;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * One partition's records between the polling thread and the database. The polling thread queues what it fetched
 * ({@link #add}); a worker stores the queue in order, one batch (one transaction) at a time, and notes the offset up
 * to which the partition is stored, which the polling thread commits ({@link #toCommit}). So fetching, parsing and
 * storing overlap, each partition goes at its own pace, and a partition's offsets are committed as soon as its batch
 * is stored, not when the slowest partition of a poll is. A batch that fails stops the pipeline: its queue is dropped,
 * and the polling thread takes the failure ({@link #takeFailure}), rewinds the partition to the batch's first offset
 * and holds it back until the next attempt. Thread-safe: the polling thread and one worker at a time use it.
 */
final class PartitionPipeline {

    /**
     * Stores one batch of a partition's records, in order, and dead-letters its rejected ones; throws if it could not.
     */
    interface Store {
        void store(TopicPartition partition, List<ConsumerRecord<byte[], byte[]>> batch) throws Exception;
    }

    /** A batch that could not be stored: the partition goes back to {@code offset}. */
    record Failure(long offset, Exception cause) {
    }

    private final TopicPartition partition;
    private final Executor workers;
    private final Store store;
    private final int batchRecords;

    private final ArrayDeque<ConsumerRecord<byte[], byte[]>> queue = new ArrayDeque<>();
    /** A worker holds or will hold this pipeline (at most one at a time: the partition's order). */
    private boolean scheduled;
    private boolean closed;
    private Failure failure;
    /** The next offset to read once everything stored is committed; -1 before the first batch. */
    private long stored = -1;
    private long committed = -1;

    PartitionPipeline(TopicPartition partition, Executor workers, Store store, int batchRecords) {
        this.partition = partition;
        this.workers = workers;
        this.store = store;
        this.batchRecords = batchRecords;
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
     * if more records wait: with more partitions than workers, each partition gets its turn.
     */
    private void storeOneBatch() {
        List<ConsumerRecord<byte[], byte[]>> batch;
        synchronized (this) {
            if (closed || queue.isEmpty()) {
                done();
                return;
            }
            batch = new ArrayList<>(Math.min(batchRecords, queue.size()));
            while (batch.size() < batchRecords && !queue.isEmpty()) {
                batch.add(queue.poll());
            }
        }
        Exception failed = null;
        try {
            store.store(partition, batch);
        } catch (Exception e) {
            failed = e;
        } catch (Error e) {
            failed = new IllegalStateException("storing a batch failed: " + e, e);
            throw e;
        } finally {
            synchronized (this) {
                if (failed == null) {
                    stored = batch.get(batch.size() - 1).offset() + 1;
                } else {
                    failure = new Failure(batch.get(0).offset(), failed);
                    queue.clear();
                }
                done();
                if (failed == null && !closed) {
                    schedule();
                }
            }
        }
    }

    private void done() {
        scheduled = false;
        notifyAll();
    }
}
