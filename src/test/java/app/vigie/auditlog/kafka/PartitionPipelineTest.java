package app.vigie.auditlog.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
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
    void aRecordThatKeepsFailingIsFoundBySplittingItsBatchThenQuarantinedAndEveryOtherRecordIsStored()
            throws Exception {
        List<Long> stored = Collections.synchronizedList(new ArrayList<>());
        List<Integer> sizes = Collections.synchronizedList(new ArrayList<>());
        List<String> kept = Collections.synchronizedList(new ArrayList<>());
        PartitionPipeline p = new PartitionPipeline(P0, workers, (tp, batch) -> {
            sizes.add(batch.size());
            if (batch.stream().anyMatch(r -> r.offset() == 17)) {
                throw new StackOverflowError("a detector bug");  // an Error too
            }
            batch.forEach(r -> stored.add(r.offset()));
        }, 10, 3, (tp, r, cause, attempts) -> kept.add(r.offset() + ":" + attempts + ":" + cause.getMessage()),
                e -> false);
        int rewinds = pollUntilStored(p, 0, 40, 40);
        assertThat(kept).as("the poison record, once it failed 3 times alone").containsExactly("17:3:a detector bug");
        assertThat(stored).as("every other record, once, in order").hasSize(39).doesNotContain(17L).isSorted()
                .doesNotHaveDuplicates();
        assertThat(rewinds).as("3 attempts of the batch, then 2 failed attempts of the record alone").isEqualTo(4);
        assertThat(sizes.stream().filter(n -> n == 1).count()).as("records tried alone: the poison one only, "
                + "not the whole batch").isLessThanOrEqualTo(4);
        assertThat(sizes.subList(sizes.lastIndexOf(1) + 1, sizes.size())).as("batches grow back after it, doubling")
                .isEqualTo(List.of(2, 4, 8, 8));
        assertThat(p.stored()).isEqualTo(40);
    }

    @Test
    void failuresOfAnUnreachableDatabaseAreRetriedForeverAndNothingIsQuarantined() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        List<Integer> sizes = Collections.synchronizedList(new ArrayList<>());
        List<Long> kept = Collections.synchronizedList(new ArrayList<>());
        PartitionPipeline p = new PartitionPipeline(P0, workers, (tp, batch) -> {
            sizes.add(batch.size());
            if (calls.incrementAndGet() <= 20) {
                throw new SQLException("connection refused", "08001");
            }
        }, 10, 2, (tp, r, cause, attempts) -> kept.add(r.offset()), AuditLogConsumer::unavailable);
        int rewinds = pollUntilStored(p, 0, 25, 25);
        assertThat(rewinds).isEqualTo(20);
        assertThat(kept).as("an outage is nobody's poison").isEmpty();
        assertThat(sizes.subList(0, 20)).as("nor a reason to split").allMatch(n -> n == 10);
        assertThat(p.stored()).isEqualTo(25);
    }

    @Test
    void aRecordWhoseQuarantineFailsIsTriedAgainAndKeptWhenItCanBe() throws Exception {
        AtomicInteger keeps = new AtomicInteger();
        List<Long> stored = Collections.synchronizedList(new ArrayList<>());
        PartitionPipeline p = new PartitionPipeline(P0, workers, (tp, batch) -> {
            if (batch.stream().anyMatch(r -> r.offset() == 0)) {
                throw new IllegalArgumentException("poison");
            }
            batch.forEach(r -> stored.add(r.offset()));
        }, 10, 1, (tp, r, cause, attempts) -> {
            if (keeps.incrementAndGet() == 1) {
                throw new IllegalStateException("dead-letter topic unreachable");
            }
        }, e -> false);
        int rewinds = pollUntilStored(p, 0, 5, 5);
        assertThat(rewinds).as("the failed quarantine's").isEqualTo(1);
        assertThat(keeps).hasValue(2);
        assertThat(stored).containsExactly(1L, 2L, 3L, 4L);
    }

    @Test
    void aPoisonRecordsReasonNamesTheExceptionAndItsCauseIsBoundedAndHoldsNoControlCharacter() {
        Exception cause = new RuntimeException("wrapped", new IllegalStateException("bad\u0000value \ud800 "
                + "x".repeat(5000)));
        String reason = AuditLogConsumer.poisonReason(P0, 42, cause, 3);
        assertThat(reason).startsWith("processing failed in 3 attempts alone (t partition 0 offset 42): "
                + "java.lang.RuntimeException: wrapped <- java.lang.IllegalStateException: bad\ufffdvalue \ufffd x")
                .hasSize(AuditLogConsumer.MAX_REASON).endsWith("x\u2026");
        assertThat(reason.chars().filter(c -> c < 0x20 || (c >= 0xd800 && c <= 0xdfff)).count()).isZero();
        assertThat(AuditLogConsumer.poisonReason(P0, 1, new StackOverflowError(), 1))
                .isEqualTo("processing failed in 1 attempts alone (t partition 0 offset 1): java.lang.StackOverflowError");
    }

    @Test
    void onlyAnUnreachableDatabaseOrBrokerIsNotTheRecordsFault() {
        assertThat(AuditLogConsumer.unavailable(new SQLException("gone", "08006"))).isTrue();
        assertThat(AuditLogConsumer.unavailable(new IllegalStateException(new SQLException("down", "57P01"))))
                .isTrue();
        assertThat(AuditLogConsumer.unavailable(new SQLException("Sorry, acquisition timeout!"))).isTrue();
        assertThat(AuditLogConsumer.unavailable(new ExecutionException(
                new TimeoutException("no broker")))).isTrue();
        assertThat(AuditLogConsumer.unavailable(new SQLException("value too long", "22001"))).isFalse();
        assertThat(AuditLogConsumer.unavailable(new SQLException("violates check", "23514"))).isFalse();
        assertThat(AuditLogConsumer.unavailable(new IllegalStateException("a detector bug"))).isFalse();
        assertThat(AuditLogConsumer.unavailable(new OutOfMemoryError("Java heap space"))).isFalse();
    }

    @Test
    void maxAttemptsIsAtLeastOne() {
        assertThatThrownBy(() -> new PartitionPipeline(P0, workers, (tp, b) -> { },
                10, 0, (tp, r, c, a) -> { }, e -> false)).isInstanceOf(IllegalArgumentException.class);
    }

    /**
     * Plays the polling thread: hands the partition's records from {@code from} to {@code end}, and after each
     * failure reads them again from the failed offset, until the partition is stored up to {@code until}; returns how
     * many failures (rewinds) it took.
     */
    private static int pollUntilStored(PartitionPipeline p, long from, long end, long until) throws Exception {
        int rewinds = 0;
        p.add(records(P0, from, end));
        long deadline = System.currentTimeMillis() + 10_000;
        while (p.stored() < until) {
            assertThat(System.currentTimeMillis()).as("in time").isLessThan(deadline);
            await(() -> !p.busy());
            PartitionPipeline.Failure f = p.takeFailure();
            if (f != null) {
                rewinds++;
                p.add(records(P0, f.offset(), end));
            }
        }
        await(() -> !p.busy());
        return rewinds;
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
