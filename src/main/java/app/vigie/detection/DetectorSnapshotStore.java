package app.vigie.detection;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Optional;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.Inflater;
import java.util.zip.InflaterInputStream;

import org.jboss.logging.Logger;

import app.vigie.detection.core.DetectorLimits;
import app.vigie.detection.core.StreamDetector;

/** Detector states stored in PostgreSQL, deflated, one per (stream, boot). */
final class DetectorSnapshotStore {
    private static final Logger LOG = Logger.getLogger(DetectorSnapshotStore.class);

    private DetectorSnapshotStore() {
    }

    static void save(Connection tx, StreamDetector d) throws SQLException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(1 << 16);
        try (DataOutputStream out = new DataOutputStream(new DeflaterOutputStream(bytes,
                new Deflater(Deflater.BEST_SPEED), 1 << 16))) {
            d.snapshot(out);
        } catch (IOException e) {
            throw new SQLException("cannot write the snapshot of " + d.stream(), e);
        }
        try (PreparedStatement ps = tx.prepareStatement("""
                insert into detector_snapshot (stream, boot, seq, state, taken_at) values (?, ?, ?, ?, ?)
                on conflict (stream, boot) do update set seq = excluded.seq, state = excluded.state,
                  taken_at = excluded.taken_at""")) {
            ps.setString(1, d.stream());
            ps.setString(2, d.boot());
            ps.setLong(3, d.nextSeq() - 1);
            ps.setBytes(4, bytes.toByteArray());
            ps.setTimestamp(5, Timestamp.from(Instant.now()));
            ps.executeUpdate();
        }
    }

    /** The stored state of (stream, boot) when it is older than {@code seq}; empty otherwise or if unreadable. */
    static Optional<StreamDetector> load(Connection tx, String stream, String boot, long seq,
            DetectorLimits.PoolBudget budget) throws SQLException {
        try (PreparedStatement ps = tx.prepareStatement(
                "select seq, state from detector_snapshot where stream = ? and boot = ? and seq < ?")) {
            ps.setString(1, stream);
            ps.setString(2, boot);
            ps.setLong(3, seq);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                try (DataInputStream in = new DataInputStream(new InflaterInputStream(
                        new ByteArrayInputStream(rs.getBytes(2)), new Inflater(), 1 << 16))) {
                    return Optional.of(StreamDetector.restore(in, budget));
                } catch (IOException e) {
                    LOG.warnf("The snapshot of %s boot %s is unreadable (%s); replaying from the start", stream, boot,
                            e.getMessage());
                    return Optional.empty();
                }
            }
        }
    }
}
