package app.vigie.detection.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;

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

    private TwoWriters two;

    @AfterEach
    void stop() {
        if (two != null) {
            two.close();
        }
    }

    /** The second waits on the first's advisory lock on the transferred request. */
    private void writeAtOnce(DetectionBuffer first, DetectionBuffer then) throws Exception {
        two = new TwoWriters(dataSource, AT, "advisory");
        two.writeAtOnce(first, then);
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
        return readOf(p, "t1");
    }

    /** The same, received by transfer {@code transfer} (null: a read stored before spec 1.3, without id). */
    private static DetectionBuffer readOf(String p, String transfer) {
        DetectionBuffer b = new DetectionBuffer();
        b.transferRead(new TransferRead(p + "/prod", p + "-r", "acme", 0, p + "-r", transfer, "acme", 0, 8, false, 8,
                AT, p + "/decode", "b1", 5));
        return b;
    }

    /** The sender read r's positions 4-7 after another tenant's request x wrote them (transfer t1). */
    private static DetectionBuffer sendOf(String p) {
        return sendOf(p, "t1", 9);
    }

    private static DetectionBuffer sendOf(String p, String transfer, long seq) {
        DetectionBuffer b = new DetectionBuffer();
        b.transferSend(new TransferSend(p + "/prod", p + "-r", transfer, "acme", 0, 8,
                List.of(new TransferSend.Origin(4, 8, p + "-x", "globex")), AT.minusSeconds(1), p + "/prefill", "b1",
                seq));
        return b;
    }

    /**
     * Spec 1.3, amendment 2: the stored halves join by request and transfer. A send of another transfer of r (a
     * retry to another receiver) names no victim of this read; a read stored before 1.3 (no id) joins only a send
     * without one; the same positions read through two transfers are two reads.
     */
    @Test
    void storedHalvesJoinByRequestAndTransfer() throws Exception {
        String p = Api.uniquePrefix();
        write(readOf(p, "t1"));
        write(sendOf(p, "t2", 9));
        assertThat(exposure(p)).isEqualTo("none");
        write(sendOf(p, null, 10));
        assertThat(exposure(p)).isEqualTo("none");
        write(readOf(p, null));
        assertThat(exposure(p)).isEqualTo("CROSS_TENANT 4");
        assertThat(count("select count(*) from transfer_read where reader = ?", p + "-r")).isEqualTo(2);
        assertThat(count("select count(*) from transfer_send where request = ? and transfer = 't2'", p + "-r"))
                .isEqualTo(1);
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

    private void write(DetectionBuffer b) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            DetectionStore.write(c, b, AT);
            c.commit();
        }
    }
}
