package app.vigie.runtime.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

/** The emitter runs records' tasks in their order, off the engine's thread, and loses nothing it was given. */
class EmitterTest {

    @Test
    void backgroundRunsEveryTaskInOrderInAnotherThreadAndCloseWaitsForThem() {
        List<Integer> seen = Collections.synchronizedList(new ArrayList<>());
        List<Thread> threads = Collections.synchronizedList(new ArrayList<>());
        int n = Emitter.BATCH * 5 + 17; // full batches and a partial one left for close()
        Emitter e = Emitter.background("test-emitter");
        assertThat(e.isBackground()).isTrue();
        for (int i = 0; i < n; i++) {
            int v = i;
            e.submit(() -> {
                seen.add(v);
                threads.add(Thread.currentThread());
            });
        }
        e.close();
        assertThat(seen).hasSize(n);
        for (int i = 0; i < n; i++) {
            assertThat(seen.get(i)).isEqualTo(i);
        }
        assertThat(threads).allSatisfy(t -> assertThat(t).isNotSameAs(Thread.currentThread()));
        assertThat(threads.get(0).getName()).isEqualTo("test-emitter");
        e.close(); // idempotent
        assertThatThrownBy(() -> e.submit(() -> { })).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
    }

    @Test
    void inlineRunsEachTaskAtOnceInTheCallersThread() {
        Emitter e = Emitter.inline();
        Thread[] ran = new Thread[1];
        e.submit(() -> ran[0] = Thread.currentThread());
        assertThat(ran[0]).isSameAs(Thread.currentThread());
        assertThat(e.isBackground()).isFalse();
        e.close();
    }

    @Test
    void aPartialBatchGoesOverOnceItIsOlderThanTheMaximumDelay() throws InterruptedException {
        CountDownLatch first = new CountDownLatch(1);
        Emitter e = Emitter.background("test-emitter");
        e.submit(first::countDown);
        Thread.sleep(Emitter.MAX_DELAY_MS * 5);
        // The age is looked at every 16 records: the 16th hands the batch over though it is far from full.
        for (int i = 1; i < 16; i++) {
            e.submit(() -> { });
        }
        assertThat(first.await(10, TimeUnit.SECONDS)).as("handed over without close()").isTrue();
        e.close();
    }

    @Test
    void aFailingSinkStopsEmissionAndTheEngineGetsTheFailure() {
        AtomicInteger ran = new AtomicInteger();
        Emitter e = Emitter.background("test-emitter");
        UncheckedIOException boom = new UncheckedIOException(new IOException("disk full"));
        e.submit(() -> {
            throw boom;
        });
        // The engine learns at a later hand-over (a full batch) or at close.
        assertThatThrownBy(() -> {
            for (int i = 0; i < Emitter.BATCH * (Emitter.QUEUED_BATCHES + 4); i++) {
                e.submit(ran::incrementAndGet);
            }
            e.close();
        }).isSameAs(boom);
        assertThat(ran.get()).as("nothing after the failure is told").isZero();
        assertThatThrownBy(() -> {
            for (int i = 0; i < Emitter.BATCH; i++) {
                e.submit(ran::incrementAndGet);
            }
        }).hasMessageContaining("failed earlier").hasCause(boom);
        e.abandon();
    }

    @Test
    void closeThrowsAFailureTheEngineHasNotHadYet() {
        Emitter e = Emitter.background("test-emitter");
        e.submit(() -> {
            throw new IllegalArgumentException("bad line");
        });
        assertThatThrownBy(e::close).isInstanceOf(IllegalArgumentException.class).hasMessage("bad line");
    }

    @Test
    void abandonStopsWithoutWaitingForASinkThatHangs() throws InterruptedException {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        Emitter e = Emitter.background("test-emitter");
        e.submit(() -> {
            started.countDown();
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException x) {
                interrupted.countDown();
            }
        });
        for (int i = 1; i < Emitter.BATCH; i++) {
            e.submit(() -> { });
        }
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
        e.abandon();
        assertThat(interrupted.await(10, TimeUnit.SECONDS)).isTrue();
        assertThatThrownBy(() -> e.submit(() -> { })).hasMessageContaining("closed");
    }
}
