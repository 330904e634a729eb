package app.vigie.db;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;

import org.jboss.logging.Logger;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

import io.agroal.api.AgroalDataSource;

/**
 * One connection held listening on a PostgreSQL notification channel, on a thread of its own: {@code onNotify} runs
 * once when it starts listening (for what was written while nobody listened) and then for each batch of
 * notifications. On a failure it logs, pauses and listens again; whoever uses it keeps a fallback for meanwhile
 * ({@link #listening()} says when it is needed).
 */
public final class ChannelListener {
    private static final Pattern CHANNEL = Pattern.compile("[a-z_]{1,63}");

    private final AgroalDataSource dataSource;
    private final String channel;
    private final Runnable onNotify;
    private final Logger log;
    private final String fallback;
    private final AtomicLong notifications = new AtomicLong();
    private volatile boolean running;
    private volatile boolean listening;
    private volatile Thread thread;

    /**
     * @param fallback what covers while the connection is down, for the log ("the periodic check covers")
     */
    public ChannelListener(AgroalDataSource dataSource, String channel, Runnable onNotify, Logger log,
            String fallback) {
        if (!CHANNEL.matcher(channel).matches()) {
            throw new IllegalArgumentException("not a channel name: " + channel);
        }
        this.dataSource = dataSource;
        this.channel = channel;
        this.onNotify = onNotify;
        this.log = log;
        this.fallback = fallback;
    }

    public void start() {
        running = true;
        thread = new Thread(this::listen, "vigie-listen-" + channel);
        thread.setDaemon(true);
        thread.start();
    }

    public void stop() throws InterruptedException {
        running = false;
        if (thread != null) {
            thread.join(3000);
        }
    }

    /** Whether the connection listens now. */
    public boolean listening() {
        return listening;
    }

    /** How many notifications arrived. */
    public long notifications() {
        return notifications.get();
    }

    private void listen() {
        while (running) {
            try (Connection c = dataSource.getConnection()) {
                c.setAutoCommit(true);
                try (Statement s = c.createStatement()) {
                    s.execute("listen " + channel);
                }
                PGConnection pg = c.unwrap(PGConnection.class);
                listening = true;
                onNotify.run();
                log.debugf("Listening on %s", channel);
                try {
                    while (running) {
                        PGNotification[] n = pg.getNotifications(1000);
                        if (n != null && n.length > 0) {
                            notifications.addAndGet(n.length);
                            onNotify.run();
                        }
                    }
                } finally {
                    // the connection goes back to the pool: it must not keep collecting notifications nobody reads
                    try (Statement s = c.createStatement()) {
                        s.execute("unlisten " + channel);
                    }
                }
            } catch (SQLException | RuntimeException e) {
                if (running) {
                    log.warnf("Listening on %s failed (%s); %s until it listens again", channel, e.toString(),
                            fallback);
                }
            } finally {
                listening = false;
            }
            for (int i = 0; i < 50 && running; i++) {
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }
}
