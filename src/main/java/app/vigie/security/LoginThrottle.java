package app.vigie.security;

import java.time.Duration;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Slows password guessing, per account and per client address (plain Java, no framework type). Each key may fail
 * {@code free} times in a row; every further failure locks it for {@code base} x 2^(failures - free), at most
 * {@code max}. While locked, an attempt is refused before any password is checked (a guesser burns no CPU) and does
 * not lengthen the lock. A success clears the account's count (never the address's: one valid account must not
 * open an address for guessing the others). A key not failing for {@code forget} is forgotten; at most
 * {@code capacity} keys are remembered (beyond, unlocked keys are dropped first).
 */
public final class LoginThrottle {
    /** What a lock looks like when it starts (to audit it). */
    public record Lock(String key, int failures, Duration duration) {
    }

    private record State(int failures, long lockedUntil, long lastFailure) {
    }

    private final int free;
    private final Duration base;
    private final Duration max;
    private final Duration forget;
    private final int capacity;
    private final LongSupplier nanos;
    private final Map<String, State> states = new ConcurrentHashMap<>();

    public LoginThrottle(int free, Duration base, Duration max, Duration forget, int capacity, LongSupplier nanos) {
        if (free < 1 || base.isNegative() || base.isZero() || max.compareTo(base) < 0) {
            throw new IllegalArgumentException("a throttle needs at least one free try and 0 < base <= max");
        }
        this.free = free;
        this.base = base;
        this.max = max;
        this.forget = forget;
        this.capacity = capacity;
        this.nanos = nanos;
    }

    /** How long the key stays locked from now; empty when it may try. */
    public Optional<Duration> locked(String key) {
        State s = states.get(key);
        long now = nanos.getAsLong();
        if (s == null || s.lockedUntil() - now <= 0) {
            return Optional.empty();
        }
        return Optional.of(Duration.ofNanos(s.lockedUntil() - now));
    }

    /** Records a failed try; the lock it starts, if any. */
    public Optional<Lock> failed(String key) {
        long now = nanos.getAsLong();
        State s = states.compute(key, (k, old) -> {
            int failures = old == null || now - old.lastFailure() > forget.toNanos() ? 1 : old.failures() + 1;
            long until = now;
            if (failures >= free) {
                Duration lock = base.multipliedBy(1L << Math.min(30, failures - free));
                until = now + (lock.compareTo(max) > 0 ? max : lock).toNanos();
            }
            return new State(failures, until, now);
        });
        if (states.size() > capacity) {
            prune(now);
        }
        return s.lockedUntil() - now > 0 ? Optional.of(new Lock(key, s.failures(),
                Duration.ofNanos(s.lockedUntil() - now))) : Optional.empty();
    }

    /** A success: the key starts afresh. */
    public void succeeded(String key) {
        states.remove(key);
    }

    int remembered() {
        return states.size();
    }

    private void prune(long now) {
        states.entrySet().removeIf(e -> now - e.getValue().lastFailure() > forget.toNanos());
        for (Iterator<Map.Entry<String, State>> it = states.entrySet().iterator(); it.hasNext()
                && states.size() > capacity;) {
            if (it.next().getValue().lockedUntil() - now <= 0) {
                it.remove();
            }
        }
    }
}
