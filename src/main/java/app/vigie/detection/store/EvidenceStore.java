package app.vigie.detection.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** SQL of an incident's evidence: the boots it rests on, their lost gaps, and what was stored of it. */
public final class EvidenceStore {
    private EvidenceStore() {
    }

    /** A (stream, boot) of the evidence; {@code purgedAt} set when its records are gone. */
    public record EvidenceBoot(long id, String stream, String boot, long nextSeq, Instant purgedAt) {
    }

    /**
     * The boots an incident rests on, as the retention job keeps them: those its findings name, and those of its
     * deployment alive while it was (from before it was detected to when it was closed): the latter hold the reads
     * of an exposure on other streams and the records that served a rejected request.
     */
    public static List<EvidenceBoot> boots(Connection c, UUID incident) throws SQLException {
        List<EvidenceBoot> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                select sb.id, sb.stream, sb.boot, sb.next_seq, sb.purged_at from stream_boot sb, incident i
                where i.id = ? and ((sb.stream, sb.boot) in (select stream, boot from finding where incident_id = i.id)
                  or (sb.deployment = i.deployment and i.detected_at <= sb.last_seen_at
                    and coalesce(i.closed_at, 'infinity') >= sb.first_seen_at))
                order by sb.stream, sb.boot""")) {
            ps.setObject(1, incident);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Timestamp purged = rs.getTimestamp(5);
                    out.add(new EvidenceBoot(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getLong(4),
                            purged == null ? null : purged.toInstant()));
                }
            }
        }
        return out;
    }

    /** A stored finding, by what identifies it: its rule and subject. */
    public record StoredFinding(String rule, String subject, String stream, String boot) {
    }

    public static List<StoredFinding> findings(Connection c, UUID incident) throws SQLException {
        List<StoredFinding> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(
                "select rule, subject, stream, boot from finding where incident_id = ? order by id")) {
            ps.setObject(1, incident);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new StoredFinding(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4)));
                }
            }
        }
        return out;
    }

    /** A stored exposure: one (reader, victim) over every stream, and its size. */
    public record StoredExposure(String reader, String victim, int tokens) {
    }

    public static List<StoredExposure> exposures(Connection c, UUID incident) throws SQLException {
        List<StoredExposure> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                select reader_request, victim_request, tokens from exposure where incident_id = ?
                order by id""")) {
            ps.setObject(1, incident);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new StoredExposure(rs.getString(1), rs.getString(2), rs.getInt(3)));
                }
            }
        }
        return out;
    }
}
