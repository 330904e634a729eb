package app.vigie.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * The service's clock in the tests: system time until a test sets it, then that time (moved by hand). A test that
 * sets it puts it back with {@link #reset()}.
 */
public final class MovableClock extends Clock {
    public static final MovableClock INSTANCE = new MovableClock();
    private volatile Instant fixed;

    private MovableClock() {
    }

    public void set(Instant t) {
        fixed = t;
    }

    public void move(Duration d) {
        fixed = instant().plus(d);
    }

    public void reset() {
        fixed = null;
    }

    @Override
    public Instant instant() {
        Instant f = fixed;
        return f != null ? f : Instant.now();
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("the service's clock is UTC");
    }

    /** Replaces the service's default clock bean. */
    @Singleton
    public static class Producer {
        @Produces
        @Singleton
        Clock clock() {
            return INSTANCE;
        }
    }
}
