package app.vigie.detection.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;

import app.vigie.detection.core.TransferRead;
import app.vigie.detection.core.TransferSend;
import app.vigie.testing.Api;

/**
 * Spec v1.1's two halves written by two transactions at once: a read of received positions (the decode stream) and
 * the send that tells their origin (the prefill stream). Whichever commits second must wait for the first (the
 * advisory lock on the transferred request) and then join both: without it, each would miss the other's uncommitted
 * row and the exposure would never be found.
 */
@QuarkusTest
class TransferStoreTest {
    private static final Instant AT = Instant.parse("2026-08-03T10:00:00Z");

    @Inject
    AgroalDataSource dataSource;

    private final ExecutorService second = Executors.newSingleThreadExecutor();

    @AfterEach
    void stop() {
        second.shutdownNow();
    }

    @Test
    void aSendWrittenWhileTheReadCommitsIsJoined() throws Exception {
        String p = Api.uniquePrefix();
        writeAtOnce(readOf(p), sendOf(p));
        assertThat(exposure(p)).isEqualTo("CROSS_TENANT 4");
    }

    @Test
    void aReadWrittenWhileTheSendCommitsIsJoined() throws Exception {
        String p = Api.uniquePrefix();
        writeAtOnce(sendOf(p), readOf(p));
        assertThat(exposure(p)).isEqualTo("CROSS_TENANT 4");
    }

    @Test
    void bothHalvesInOneTransactionAndAgainAreOneExposure() throws Exception {
        String p = Api.uniquePrefix();
        DetectionBuffer both = readOf(p);
        sendOf(p).transferSends.forEach(both::transferSend);
        write(both);
        write(readOf(p));  // the same read judged again (a replay): nothing new
        assertThat(exposure(p)).isEqualTo("CROSS_TENANT 4");
        assertThat(count("select count(*) from transfer_read where reader = ?", p + "-r")).isEqualTo(1);
    }

    /** r (acme) read its positions 0-7, received by a sent transfer on the decode stream. */
    private static DetectionBuffer readOf(String p) {
        DetectionBuffer b = new DetectionBuffer();
        b.transferRead(new TransferRead(p + "/prod", p + "-r", "acme", 0, p + "-r", "acme", 0, 8, false, 8, AT,
                p + "/decode", "b1", 5));
        return b;
    }

    /** The sender read r's positions 4-7 after another tenant's request x wrote them. */
    private static DetectionBuffer sendOf(String p) {
        DetectionBuffer b = new DetectionBuffer();
        b.transferSend(new TransferSend(p + "/prod", p + "-r", "acme", 0, 8,
                List.of(new TransferSend.Origin(4, 8, p + "-x", "globex")), AT.minusSeconds(1), p + "/prefill", "b1",
                9));
        return b;
    }

    /** "KIND tokens" of the exposure of x to r. */
    private String exposure(String p) throws SQLException {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(
                "select kind, tokens from exposure where reader_request = ? and victim_request = ?")) {
            ps.setString(1, p + "-r");
            ps.setString(2, p + "-x");
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) + " " + rs.getInt(2) : "none";
            }
        }
    }

    private long count(String sql, String param) throws SQLException {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, param);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /**
     * Writes {@code first} in a transaction held open, then {@code then} in another on the second thread, which must
     * wait on a lock of the first; commits the first and waits for the second to commit.
     */
    private void writeAtOnce(DetectionBuffer first, DetectionBuffer then) throws Exception {
        Future<?> late;
        try (Connection a = dataSource.getConnection()) {
            a.setAutoCommit(false);
            DetectionStore.write(a, first, AT);
            AtomicInteger pid = new AtomicInteger();
            late = second.submit(() -> {
                try (Connection c = dataSource.getConnection()) {
                    pid.set(backend(c));
                    c.setAutoCommit(false);
                    DetectionStore.write(c, then, AT);
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

    /** Until the second transaction's own connection waits on the advisory lock. */
    private void awaitLockWait(AtomicInteger pid) throws Exception {
        long until = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(
                "select count(*) from pg_stat_activity where wait_event_type = 'Lock' and wait_event = 'advisory'"
                        + " and pid = ?")) {
            while (System.nanoTime() < until) {
                ps.setInt(1, pid.get());
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

    private void write(DetectionBuffer b) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            DetectionStore.write(c, b, AT);
            c.commit();
        }
    }
}
