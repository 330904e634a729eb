package app.vigie.auditlog.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A partition's pipeline between the polling thread and the database (AuditLogConsumer): order, batches, the offset to
 * commit, a failed batch, fairness between partitions when workers are fewer, and closing on a rebalance.
 */
class PartitionPipelineTest {
    private static final TopicPartition P0 = new TopicPartition("t", 0);

    private final ExecutorService workers = Executors.newFixedThreadPool(2);

    @AfterEach
    void stop() {
        workers.shutdownNow();
    }

    @Test
    void recordsAreStoredInOrderInBatchesOneAtATimeAndTheirOffsetIsCommittedOnce() throws Exception {
        List<Long> seen = Collections.synchronizedList(new ArrayList<>());
        List<Integer> sizes = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger overlapped = new AtomicInteger();
        PartitionPipeline p = new PartitionPipeline(P0, workers, (tp, batch) -> {
            if (inside.incrementAndGet() > 1) {
                overlapped.incrementAndGet();
            }
            Thread.sleep(2);
            batch.forEach(r -> seen.add(r.offset()));
            sizes.add(batch.size());
            inside.decrementAndGet();
        }, 100);
        for (int from = 0; from < 1000; from += 70) {
            p.add(records(P0, from, Math.min(1000, from + 70)));
        }
        await(() -> !p.busy());
        assertThat(seen).as("every record, in offset order").hasSize(1000).isSorted();
        assertThat(sizes).allMatch(n -> n <= 100);
        assertThat(overlapped).as("never two batches of one partition at once").hasValue(0);
        assertThat(p.toCommit()).isEqualTo(1000);
        assertThat(p.toCommit()).as("nothing new to commit").isEqualTo(-1);
        p.add(records(P0, 1000, 1005));
        await(() -> !p.busy());
        assertThat(p.toCommit()).isEqualTo(1005);
    }

    @Test
    void aFailedBatchDropsTheQueueUntilItsFailureIsTakenAndGivesTheOffsetToGoBackTo() throws Exception {
        List<Long> stored = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger calls = new AtomicInteger();
        PartitionPipeline p = new PartitionPipeline(P0, workers, (tp, batch) -> {
            if (calls.incrementAndGet() == 2) {
                throw new IllegalStateException("database down");
            }
            batch.forEach(r -> stored.add(r.offset()));
        }, 10);
        p.add(records(P0, 0, 35));
        await(() -> !p.busy());
        assertThat(stored).as("the first batch only: the rest was dropped with the failure").hasSize(10);
        assertThat(p.toCommit()).as("what was stored before the failure").isEqualTo(10);
        assertThat(p.add(records(P0, 35, 40))).as("records fetched before the rewind are ignored").isZero();
        PartitionPipeline.Failure f = p.takeFailure();
        assertThat(f.offset()).isEqualTo(10);
        assertThat(f.cause()).hasMessage("database down");
        assertThat(p.takeFailure()).as("taken once").isNull();
        p.add(records(P0, 10, 40));  // read again from the failed batch
        await(() -> !p.busy());
        assertThat(stored).hasSize(40).isSorted();
        assertThat(p.toCommit()).isEqualTo(40);
    }

    @Test
    void withFewerWorkersThanPartitionsEachPartitionGetsItsTurnBatchAfterBatch() throws Exception {
        ExecutorService one = Executors.newSingleThreadExecutor();
        try {
            List<String> order = Collections.synchronizedList(new ArrayList<>());
            CountDownLatch gate = new CountDownLatch(1);
            List<PartitionPipeline> pipes = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                pipes.add(new PartitionPipeline(new TopicPartition("t", i), one, (tp, batch) -> {
                    gate.await(5, TimeUnit.SECONDS);
                    order.add(tp.partition() + ":" + batch.get(0).offset());
                }, 10));
            }
            for (PartitionPipeline p : pipes) {
                p.add(records(p.partition(), 0, 30));
            }
            gate.countDown();
            await(() -> pipes.stream().noneMatch(PartitionPipeline::busy));
            assertThat(order).containsExactly("0:0", "1:0", "2:0", "0:10", "1:10", "2:10", "0:20", "1:20", "2:20");
        } finally {
            one.shutdownNow();
        }
    }

    @Test
    void closingWaitsForTheBatchBeingStoredAndDropsTheRest() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        List<Long> stored = Collections.synchronizedList(new ArrayList<>());
        PartitionPipeline p = new PartitionPipeline(P0, workers, (tp, batch) -> {
            started.countDown();
            release.await(5, TimeUnit.SECONDS);
            batch.forEach(r -> stored.add(r.offset()));
        }, 10);
        p.add(records(P0, 0, 50));
        assertThat(started.await(5, TimeUnit.SECONDS)).isTrue();
        p.close();
        assertThat(p.awaitIdle(System.currentTimeMillis() + 50)).as("the batch is still being stored").isFalse();
        assertThat(p.busy()).isTrue();
        release.countDown();
        assertThat(p.awaitIdle(System.currentTimeMillis() + 5000)).isTrue();
        assertThat(stored).as("the batch being stored finished; the waiting ones were dropped").hasSize(10);
        assertThat(p.stored()).isEqualTo(10);
        assertThat(p.add(records(P0, 50, 60))).as("closed: takes nothing").isZero();
        assertThat(p.busy()).isFalse();
    }

    @Test
    void anOffsetHandedToACommitThatFailedIsStillTheOneToCommitOnTheWayOut() throws Exception {
        PartitionPipeline p = new PartitionPipeline(P0, workers, (tp, batch) -> { }, 10);
        p.add(records(P0, 0, 25));
        await(() -> !p.busy());
        assertThat(p.toCommit()).as("handed to an asynchronous commit").isEqualTo(25);
        assertThat(p.toCommit()).isEqualTo(-1);
        assertThat(p.stored()).as("what closing commits, whatever became of that commit").isEqualTo(25);
    }

    @Test
    void recordsQueuedOnceTheWorkersAreShutDownLeaveThePipelineIdle() throws Exception {
        ExecutorService gone = Executors.newSingleThreadExecutor();
        gone.shutdown();
        PartitionPipeline p = new PartitionPipeline(P0, gone, (tp, batch) -> { }, 10);
        p.add(records(P0, 0, 5));
        assertThat(p.busy()).as("nothing will store them: dropped, read again by the partition's next reader")
                .isFalse();
        assertThat(p.awaitIdle(System.currentTimeMillis() + 1000)).isTrue();
        assertThat(p.stored()).isEqualTo(-1);
    }

    private static List<ConsumerRecord<byte[], byte[]>> records(TopicPartition tp, long from, long to) {
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
        for (long o = from; o < to; o++) {
            out.add(new ConsumerRecord<>(tp.topic(), tp.partition(), o, new byte[0], new byte[] {'x'}));
        }
        return out;
    }

    private static void await(BooleanSupplier done) throws InterruptedException {
        long until = System.currentTimeMillis() + 10_000;
        while (!done.getAsBoolean()) {
            assertThat(System.currentTimeMillis()).as("in time").isLessThan(until);
            Thread.sleep(5);
        }
    }
}
