package app.vigie.db;

import org.jboss.logging.Logger;

/**
 * The log of a periodic task that fails while its database is away: the first failure with its stack, then one
 * line a minute while it goes on, then one line when it works again, instead of a stack trace on every round.
 */
public final class FailureLog {
    private static final long EVERY_MILLIS = 60_000;

    private final Logger log;
    private final String what;
    private long failingSince;
    private long lastLogged;
    private int unlogged;

    /** {@code what} names the task, as the start of a sentence ("Alert delivery"). */
    public FailureLog(Logger log, String what) {
        this.log = log;
        this.what = what;
    }

    public synchronized void failed(Throwable e) {
        long now = System.currentTimeMillis();
        if (failingSince == 0) {
            failingSince = now;
            lastLogged = now;
            unlogged = 0;
            log.warnf(e, "%s failed; it is tried again", what);
            return;
        }
        unlogged++;
        if (now - lastLogged >= EVERY_MILLIS) {
            log.warnf("%s still fails after %d s (%d more failures), last: %s", what, (now - failingSince) / 1000,
                    unlogged, e);
            lastLogged = now;
            unlogged = 0;
        }
    }

    public synchronized void succeeded() {
        if (failingSince != 0) {
            log.infof("%s works again after %d s", what, (System.currentTimeMillis() - failingSince) / 1000);
            failingSince = 0;
        }
    }

    /** Whether the last round failed. */
    public synchronized boolean failing() {
        return failingSince != 0;
    }
}
