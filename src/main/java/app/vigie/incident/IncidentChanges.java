package app.vigie.incident;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import io.agroal.api.AgroalDataSource;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.operators.multi.processors.BroadcastProcessor;

import app.vigie.db.ChannelListener;
import app.vigie.db.FailureLog;
import app.vigie.db.Transactions;
import app.vigie.db.UnitOfWork;

/**
 * Tells the open dashboards (through the pages' event stream) when incidents change. Each instance listens on PostgreSQL's channel
 * {@code vigie_dashboard}, which every transaction that changes what the overview shows notifies at its commit
 * (V24's triggers), whichever instance wrote it; every subscriber then gets an {@code incidents} event and reloads
 * its table, at most one event per {@code vigie.dashboard.push-min-gap} (a burst of commits is one reload). While the
 * listening connection is down, the fallback is the check of before: a fingerprint of what the overview shows
 * (counts and highest ids, from indexes) read every {@code vigie.dashboard.push-check-every}.
 */
@ApplicationScoped
public class IncidentChanges {
    private static final Logger LOG = Logger.getLogger(IncidentChanges.class);
    private final FailureLog checkLog = new FailureLog(LOG, "Dashboard change check");
    static final String CHANGED = "incidents";
    static final String PING = "ping";
    static final String CHANNEL = ChangeQueries.CHANGES;

    @Inject
    AgroalDataSource dataSource;

    @ConfigProperty(name = "vigie.dashboard.push-min-gap", defaultValue = "PT0.2S")
    Duration minGap;

    /** Whether to listen for notifications; false leaves only the periodic check (to compare them). */
    @ConfigProperty(name = "vigie.dashboard.listen", defaultValue = "true")
    boolean listen;

    private final BroadcastProcessor<String> changes = BroadcastProcessor.create();
    private volatile String last;
    private final AtomicBoolean pending = new AtomicBoolean();
    private volatile long lastSent;
    private volatile ChannelListener listener;
    private ScheduledExecutorService sender;

    void start(@Observes StartupEvent event) {
        sender = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "vigie-dashboard-events");
            t.setDaemon(true);
            return t;
        });
        if (listen) {
            listener = new ChannelListener(dataSource, CHANNEL, this::changed, LOG, "the dashboards' periodic check "
                    + "covers");
            listener.start();
        }
    }

    void stop(@Observes ShutdownEvent event) throws InterruptedException {
        if (listener != null) {
            listener.stop();
        }
        if (sender != null) {
            sender.shutdownNow();
        }
    }

    /** An event for the subscribers, at most one per {@code minGap}: changes during the gap share the next one. */
    void changed() {
        if (pending.compareAndSet(false, true)) {
            long wait = Math.max(0, lastSent + minGap.toMillis() - System.currentTimeMillis());
            sender.schedule(() -> {
                pending.set(false);
                lastSent = System.currentTimeMillis();
                changes.onNext(CHANGED);
            }, wait, TimeUnit.MILLISECONDS);
        }
    }

    /** The fallback while nobody listens: a change of the fingerprint is a change. */
    @Scheduled(every = "${vigie.dashboard.push-check-every:2s}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void check() {
        if (listening()) {
            last = null;  // read afresh when listening stops
            return;
        }
        try {
            String now = mark();
            if (last != null && !last.equals(now)) {
                changes.onNext(CHANGED);
            }
            last = now;
            checkLog.succeeded();
        } catch (SQLException | RuntimeException e) {
            // open dashboards fall back to their periodic refresh
            checkLog.failed(e);
        }
    }

    /** The fingerprint of what the overview shows, read in a transaction of its own. */
    @UnitOfWork
    String mark() throws SQLException {
        try (Connection c = Transactions.connection(dataSource)) {
            return ChangeQueries.changeMark(c);
        }
    }

    /** Whether this instance listens on the channel now. */
    public boolean listening() {
        return listener != null && listener.listening();
    }

    /** How many notifications this instance has received. */
    public long notifications() {
        return listener == null ? 0 : listener.notifications();
    }

    /** {@value #CHANGED} when the incidents change, {@value #PING} every {@code keepAlive} to hold the connection. */
    public Multi<String> stream(Duration keepAlive) {
        return Multi.createBy().merging().streams(changes, Multi.createFrom().ticks().every(keepAlive)
                .map(tick -> PING));
    }

}
