package app.vigie.detection.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

/**
 * Two detection writes at once, for the tests of what they must not miss of each other: the first held open, the
 * second on a thread of its own, which must wait on a lock of the first before the first commits.
 */
final class TwoWriters implements AutoCloseable {
    private final DataSource dataSource;
    private final Instant at;
    /** The wait event the second must show ({@code pg_stat_activity.wait_event}), or null for any lock. */
    private final String waitEvent;
    private final ExecutorService second = Executors.newSingleThreadExecutor();

    TwoWriters(DataSource dataSource, Instant at, String waitEvent) {
        this.dataSource = dataSource;
        this.at = at;
        this.waitEvent = waitEvent;
    }

    /**
     * Writes {@code first} in a transaction held open, then {@code then} in another on the second thread, which must
     * wait on a lock of the first; commits the first and waits for the second to commit.
     */
    void writeAtOnce(DetectionBuffer first, DetectionBuffer then) throws Exception {
        Future<?> late;
        try (Connection a = dataSource.getConnection()) {
            a.setAutoCommit(false);
            DetectionStore.write(a, first, at);
            AtomicInteger pid = new AtomicInteger();
            late = second.submit(() -> {
                try (Connection c = dataSource.getConnection()) {
                    pid.set(backend(c));
                    c.setAutoCommit(false);
                    DetectionStore.write(c, then, at);
                    c.commit();
                }
                return null;
            });
            awaitLockWait(pid);
            assertThat(late.isDone()).isFalse();
            a.commit();
        }
        late.get(30, TimeUnit.SECONDS);
    }

    private static int backend(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("select pg_backend_pid()"); ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getInt(1);
        }
    }

    /** Until the second transaction's own connection waits on a lock (of the kind asked for). */
    private void awaitLockWait(AtomicInteger pid) throws Exception {
        long until = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(
                "select count(*) from pg_stat_activity where wait_event_type = 'Lock' and pid = ?"
                        + " and (?::text is null or wait_event = ?)")) {
            while (System.nanoTime() < until) {
                ps.setInt(1, pid.get());
                ps.setString(2, waitEvent);
                ps.setString(3, waitEvent);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    if (rs.getLong(1) > 0) {
                        return;
                    }
                }
                Thread.sleep(20);
            }
        }
        throw new AssertionError("the second transaction never waited for the first");
    }

    @Override
    public void close() {
        second.shutdownNow();
    }
}
