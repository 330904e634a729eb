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

/** SQL of an incident's evidence: the boots it rests on, and the findings and exposures stored of it. */
public final class EvidenceStore {
    private EvidenceStore() {
    }

    /** A (stream, boot) of the evidence; {@code purgedAt} set when its records are gone. */
    public record EvidenceBoot(long id, String stream, String boot, long nextSeq, Instant purgedAt) {
    }

    /**
     * The boots an incident rests on, as detection recorded them (table {@code incident_evidence_boot}): the boot of
     * each finding, every boot where a read of one of its exposures was judged, the boot that served a rejected
     * request. {@code purgedAt} is set for a boot whose records the retention job deleted (or is deleting).
     */
    public static List<EvidenceBoot> boots(Connection c, UUID incident) throws SQLException {
        List<EvidenceBoot> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                select sb.id, x.stream, x.boot, coalesce(sb.next_seq, 1), sb.purged_at
                from incident_evidence_boot x
                left join stream_boot sb on sb.stream = x.stream and sb.boot = x.boot
                where x.incident_id = ? order by x.stream, x.boot""")) {
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

    /** A stored exposure: one (reader, victim) over every stream, its size, and whether it is possible only. */
    public record StoredExposure(String reader, String victim, int tokens, boolean possible) {
    }

    public static List<StoredExposure> exposures(Connection c, UUID incident) throws SQLException {
        List<StoredExposure> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                select reader_request, victim_request, tokens, false from exposure where incident_id = ?
                union all
                select reader_request, victim_request, tokens, true from possible_exposure where incident_id = ?
                order by 4, 1, 2""")) {
            ps.setObject(1, incident);
            ps.setObject(2, incident);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new StoredExposure(rs.getString(1), rs.getString(2), rs.getInt(3), rs.getBoolean(4)));
                }
            }
        }
        return out;
    }
}
