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

    /**
     * An attempt: refused while locked (nothing counted). Allowed otherwise; {@code counted} when it was counted as
     * a failure at once (see {@link #attempt}), with the lock that count started.
     */
    public record Attempt(String key, Optional<Duration> refusedFor, boolean counted, Optional<Lock> lock) {
        public boolean allowed() {
            return refusedFor.isEmpty();
        }
    }

    /**
     * Takes an attempt in one step: refused while the key is locked. A key that has failed before is counted as
     * failing at once, before the password is checked, so that parallel guesses cannot all slip through when a lock
     * ends ({@link #succeeded} clears it if the password was right); a key with no failure is not (a client's
     * parallel requests with the right password are never refused). Then {@link #failed(Attempt)}.
     */
    public Attempt attempt(String key) {
        long now = nanos.getAsLong();
        Duration[] refused = new Duration[1];
        boolean[] counted = new boolean[1];
        State s = states.computeIfPresent(key, (k, old) -> {
            if (old.lockedUntil() - now > 0) {
                refused[0] = Duration.ofNanos(old.lockedUntil() - now);
                return old;
            }
            if (now - old.lastFailure() > forget.toNanos()) {
                return null;  // forgotten: a fresh key
            }
            counted[0] = true;
            return next(old, now);
        });
        if (refused[0] != null) {
            return new Attempt(key, Optional.of(refused[0]), false, Optional.empty());
        }
        return new Attempt(key, Optional.empty(), counted[0], counted[0] && s.lockedUntil() - now > 0
                ? Optional.of(new Lock(key, s.failures(), Duration.ofNanos(s.lockedUntil() - now)))
                : Optional.empty());
    }

    /** The attempt failed: counted (unless {@link #attempt} counted it already); the lock now in force, if it began. */
    public Optional<Lock> failed(Attempt a) {
        return a.counted() ? a.lock() : failed(a.key());
    }

    private State next(State old, long now) {
        int failures = old == null || now - old.lastFailure() > forget.toNanos() ? 1 : old.failures() + 1;
        long until = now;
        if (failures >= free) {
            Duration lock = base.multipliedBy(1L << Math.min(30, failures - free));
            until = now + (lock.compareTo(max) > 0 ? max : lock).toNanos();
        }
        return new State(failures, until, now);
    }

    /** Records a failed try; the lock it starts, if any. */
    public Optional<Lock> failed(String key) {
        long now = nanos.getAsLong();
        State s = states.compute(key, (k, old) -> next(old, now));
        if (states.size() > capacity) {
            prune(now);
        }
        return s.lockedUntil() - now > 0 ? Optional.of(new Lock(key, s.failures(),
                Duration.ofNanos(s.lockedUntil() - now))) : Optional.empty();
    }

    /**
     * A success that must not clear the key (an address: one valid account must not open it for guessing the
     * others): the count {@link #attempt} took in advance is given back, and a lock that count started is lifted.
     */
    public void uncount(Attempt a) {
        if (!a.counted()) {
            return;
        }
        long now = nanos.getAsLong();
        states.computeIfPresent(a.key(), (k, old) -> {
            int failures = old.failures() - 1;
            if (failures <= 0) {
                return null;
            }
            long until = a.lock().isPresent() ? now : old.lockedUntil();
            return new State(failures, until, old.lastFailure());
        });
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
