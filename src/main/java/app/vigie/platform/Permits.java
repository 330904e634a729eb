package app.vigie.platform;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;

import app.vigie.problem.ProblemException;

/**
 * At most so many of a costly work at once (a regulator pack, an evidence check): a permit is taken, atomically,
 * when the work is granted (before its answer starts), and given back exactly once when it ends, however it ends.
 * Asked beyond: 503 with {@code Retry-After}, nothing started. A permit granted but never started (an answer whose
 * writing never began) is taken back after {@code startWithin}, so that a lost answer cannot hold one for ever.
 */
public final class Permits {
    private static final int GRANTED = 0;
    private static final int STARTED = 1;
    private static final int RELEASED = 2;

    private final Semaphore permits;
    private final int size;
    private final String busy;
    private final long startWithinNanos;
    private final Set<Permit> granted = ConcurrentHashMap.newKeySet();

    /**
     * {@code size} at once; {@code busy} says what the 503 refuses ("regulator packs are being made already"); a
     * permit not started within {@code startWithin} may be taken back.
     */
    public Permits(int size, String busy, Duration startWithin) {
        this.permits = new Semaphore(size);
        this.size = size;
        this.busy = busy;
        this.startWithinNanos = startWithin.toNanos();
    }

    /** A permit, taken now; or a 503 ({@link Busy}) when all are held. */
    public Permit take() {
        if (!permits.tryAcquire()) {
            reclaimUnstarted();
            if (!permits.tryAcquire()) {
                throw new Busy(busy + " (" + size + " at once): try again in a minute", 30);
            }
        }
        Permit p = new Permit(System.nanoTime());
        granted.add(p);
        return p;
    }

    /** The permits not held now. */
    public int available() {
        return permits.availablePermits();
    }

    private void reclaimUnstarted() {
        long now = System.nanoTime();
        for (Permit p : granted) {
            if (now - p.grantedAt > startWithinNanos && p.state.compareAndSet(GRANTED, RELEASED)) {
                granted.remove(p);
                permits.release();
            }
        }
    }

    /** One permit held; {@link #close} gives it back, once (later calls do nothing). */
    public final class Permit implements AutoCloseable {
        private final long grantedAt;
        private final AtomicInteger state = new AtomicInteger(GRANTED);

        private Permit(long grantedAt) {
            this.grantedAt = grantedAt;
        }

        /** Marks the work begun; false when the permit was taken back meanwhile (the work must not run). */
        public boolean start() {
            return state.compareAndSet(GRANTED, STARTED) || state.get() == STARTED;
        }

        @Override
        public void close() {
            if (state.getAndSet(RELEASED) != RELEASED) {
                granted.remove(this);
                permits.release();
            }
        }
    }

    /** A 503 that says when to ask again. */
    public static final class Busy extends ProblemException {
        private final int retryAfterSeconds;

        public Busy(String detail, int retryAfterSeconds) {
            super(503, detail);
            this.retryAfterSeconds = retryAfterSeconds;
        }

        public int retryAfterSeconds() {
            return retryAfterSeconds;
        }
    }
}
