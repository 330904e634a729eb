package app.vigie.auditlog.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** The quarantine: every rejected line, kept with its raw bytes, source, position and reason. */
public final class QuarantineStore {
    /** Source and stage of records accepted at intake but impossible in their stream's state when applied. */
    public static final String APPLY = "apply";
    private QuarantineStore() {
    }

    /** One kept line. {@code stream}, {@code boot} and {@code seq} are set when the line parsed that far. */
    public record Entry(long id, Instant receivedAt, String source, String sourceName, long position, String reason,
            byte[] raw, String stream, String boot, Long seq) {
    }

    /** Keeps lines rejected at intake; an entry already kept for the same source position is not kept twice. */
    public static void keep(Connection c, List<Entry> entries) throws SQLException {
        keep(c, entries, "intake");
    }

    /** Keeps entries rejected at {@code stage}: intake, or apply (a record impossible in its stream's state). */
    public static void keep(Connection c, List<Entry> entries, String stage) throws SQLException {
        if (entries.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement("""
                insert into quarantine (received_at, source, source_name, position, reason, raw, stream, boot, seq,
                  stage) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict (source, source_name, position) do nothing""")) {
            for (Entry e : entries) {
                ps.setTimestamp(1, Timestamp.from(e.receivedAt()));
                ps.setString(2, e.source());
                ps.setString(3, e.sourceName());
                ps.setLong(4, e.position());
                ps.setString(5, e.reason());
                ps.setBytes(6, e.raw());
                ps.setString(7, e.stream());
                ps.setString(8, e.boot());
                if (e.seq() == null) {
                    ps.setNull(9, Types.BIGINT);
                } else {
                    ps.setLong(9, e.seq());
                }
                ps.setString(10, stage);
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    /** Newest first. {@code source} may be null for every source. */
    public static List<Entry> page(Connection c, String source, int offset, int limit) throws SQLException {
        List<Entry> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                select id, received_at, source, source_name, position, reason, raw, stream, boot, seq
                from quarantine where (?::text is null or source = ?)
                order by received_at desc, id desc offset ? limit ?""")) {
            ps.setString(1, source);
            ps.setString(2, source);
            ps.setInt(3, offset);
            ps.setInt(4, limit);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    long seq = rs.getLong(10);
                    out.add(new Entry(rs.getLong(1), rs.getTimestamp(2).toInstant(), rs.getString(3),
                            rs.getString(4), rs.getLong(5), rs.getString(6), rs.getBytes(7), rs.getString(8),
                            rs.getString(9), rs.wasNull() ? null : seq));
                }
            }
        }
        return out;
    }

    public static long count(Connection c, String source) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "select count(*) from quarantine where (?::text is null or source = ?)")) {
            ps.setString(1, source);
            ps.setString(2, source);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
