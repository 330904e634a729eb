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
}
