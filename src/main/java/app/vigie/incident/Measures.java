package app.vigie.incident;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** The measures taken in an incident, in the order they were taken (V9__register.sql). */
public final class Measures {
    private Measures() {
    }

    public record Measure(long id, Instant takenAt, String text, String recordedBy, Instant recordedAt) {
    }

    public static List<Measure> of(Connection c, UUID incident) throws SQLException {
        List<Measure> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                select id, taken_at, text, recorded_by, recorded_at from incident_measure
                where incident_id = ? order by taken_at, id""")) {
            ps.setObject(1, incident);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new Measure(rs.getLong(1), rs.getTimestamp(2).toInstant(), rs.getString(3),
                            rs.getString(4), rs.getTimestamp(5).toInstant()));
                }
            }
        }
        return out;
    }

    public static Measure add(Connection c, UUID incident, Instant takenAt, String text, String actor, Instant now)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                insert into incident_measure (incident_id, taken_at, text, recorded_by, recorded_at)
                values (?, ?, ?, ?, ?) returning id""")) {
            ps.setObject(1, incident);
            ps.setTimestamp(2, Timestamp.from(takenAt));
            ps.setString(3, text);
            ps.setString(4, actor);
            ps.setTimestamp(5, Timestamp.from(now));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return new Measure(rs.getLong(1), takenAt, text, actor, now);
            }
        }
    }
}
