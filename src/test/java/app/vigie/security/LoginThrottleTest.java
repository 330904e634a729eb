package app.vigie.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

/** The throttle's arithmetic on a clock of its own: free tries, doubling locks, the cap, forgetting, the bound. */
class LoginThrottleTest {
    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final LoginThrottle throttle = new LoginThrottle(3, Duration.ofSeconds(1), Duration.ofSeconds(10),
            Duration.ofHours(1), 1_000, now::get);

    private void advance(Duration d) {
        now.addAndGet(d.toNanos());
    }

    @Test
    void freeTriesThenLocksThatDoubleUpToTheCap() {
        assertThat(throttle.failed("k")).isEmpty();
        assertThat(throttle.failed("k")).isEmpty();
        assertThat(throttle.locked("k")).isEmpty();
        assertThat(throttle.failed("k")).get().extracting(LoginThrottle.Lock::duration)
                .isEqualTo(Duration.ofSeconds(1));
        assertThat(throttle.locked("k")).contains(Duration.ofSeconds(1));
        advance(Duration.ofMillis(999));
        assertThat(throttle.locked("k")).isPresent();
        advance(Duration.ofMillis(1));
        assertThat(throttle.locked("k")).isEmpty();
        assertThat(throttle.failed("k").orElseThrow().duration()).isEqualTo(Duration.ofSeconds(2));
        advance(Duration.ofSeconds(2));
        assertThat(throttle.failed("k").orElseThrow().duration()).isEqualTo(Duration.ofSeconds(4));
        advance(Duration.ofSeconds(4));
        assertThat(throttle.failed("k").orElseThrow().duration()).isEqualTo(Duration.ofSeconds(8));
        advance(Duration.ofSeconds(8));
        assertThat(throttle.failed("k").orElseThrow().duration()).isEqualTo(Duration.ofSeconds(10));
        assertThat(throttle.locked("other")).isEmpty();
    }

    @Test
    void aSuccessStartsAfreshAndALongSilenceIsForgotten() {
        for (int i = 0; i < 3; i++) {
            throttle.failed("a");
            throttle.failed("b");
        }
        throttle.succeeded("a");
        assertThat(throttle.locked("a")).isEmpty();
        assertThat(throttle.failed("a")).isEmpty();
        advance(Duration.ofHours(2));
        assertThat(throttle.locked("b")).isEmpty();
        assertThat(throttle.failed("b")).as("counted from one again").isEmpty();
    }

    @Test
    void guessedNamesCannotFillTheMemory() {
        for (int i = 0; i < 5_000; i++) {
            throttle.failed("guess-" + i);
        }
        assertThat(throttle.remembered()).isLessThanOrEqualTo(1_001);
    }

    @Test
    void onAKeyThatFailedParallelAttemptsAreCountedBeforeTheirResult() {
        throttle.failed("k");
        LoginThrottle.Attempt a = throttle.attempt("k");
        LoginThrottle.Attempt b = throttle.attempt("k");
        assertThat(a.allowed()).isTrue();
        assertThat(a.counted()).isTrue();
        assertThat(b.lock()).as("the third, still in flight, starts the lock").isPresent();
        assertThat(throttle.attempt("k").allowed()).as("a fourth, in parallel, is refused").isFalse();
    }

    @Test
    void aFreshKeysAttemptsAreNeverRefusedNorCountedInAdvance() {
        for (int i = 0; i < 10; i++) {
            LoginThrottle.Attempt a = throttle.attempt("client");
            assertThat(a.allowed()).isTrue();
            assertThat(a.counted()).isFalse();
        }
    }

    @Test
    void aSuccessFromAnAddressGivesBackItsAdvanceAndLiftsTheLockItStarted() {
        throttle.failed("10.0.0.1");
        throttle.failed("10.0.0.1");
        LoginThrottle.Attempt right = throttle.attempt("10.0.0.1");
        assertThat(right.lock()).isPresent();
        throttle.uncount(right);
        assertThat(throttle.locked("10.0.0.1")).isEmpty();
        assertThat(throttle.failed("10.0.0.1")).as("two failures before, this is the third").isPresent();
    }
}
