package app.vigie.auditlog.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import app.vigie.platform.Digests;

/**
 * The quarantine: every rejected line, kept with its source, position and reason, the first {@value #KEPT} bytes of
 * what was received, and the length and SHA-256 of all of it (so that the line can be matched to the sender's copy).
 * Lists read a short preview only; the kept bytes of one line are read on demand.
 */
public final class QuarantineStore {
    /** Bytes of a rejected line kept, at most. */
    public static final int KEPT = 64 * 1024;
    /** Bytes of a line a list shows, at most. */
    public static final int PREVIEW = 256;

    /** Source and stage of records accepted at intake but impossible in their stream's state when applied. */
    public static final String APPLY = "apply";
    private QuarantineStore() {
    }

    /**
     * One line. {@code raw}: the line as received when keeping it; read back, its first {@value #KEPT} bytes (a
     * list's {@value #PREVIEW}). {@code stream}, {@code boot} and {@code seq} are set when the line parsed that far.
     */
    public record Entry(long id, Instant receivedAt, String source, String sourceName, long position, String reason,
            byte[] raw, String stream, String boot, Long seq, long rawLength, String rawSha256) {
        public Entry(long id, Instant receivedAt, String source, String sourceName, long position, String reason,
                byte[] raw, String stream, String boot, Long seq) {
            this(id, receivedAt, source, sourceName, position, reason, raw, stream, boot, seq, raw.length,
                    Digests.sha256Hex(raw));
        }

        /** Whether {@code raw} is less than what was received. */
        public boolean truncated() {
            return raw.length < rawLength;
        }
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
                  stage, raw_length, raw_sha256) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                on conflict (source, source_name, position) do nothing""")) {
            for (Entry e : entries) {
                ps.setTimestamp(1, Timestamp.from(e.receivedAt()));
                ps.setString(2, e.source());
                ps.setString(3, e.sourceName());
                ps.setLong(4, e.position());
                ps.setString(5, e.reason());
                ps.setBytes(6, e.raw().length <= KEPT ? e.raw() : Arrays.copyOf(e.raw(), KEPT));
                ps.setString(7, e.stream());
                ps.setString(8, e.boot());
                if (e.seq() == null) {
                    ps.setNull(9, Types.BIGINT);
                } else {
                    ps.setLong(9, e.seq());
                }
                ps.setString(10, stage);
                ps.setLong(11, e.rawLength());
                ps.setString(12, e.rawSha256());
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    private static final String COLUMNS = "id, received_at, source, source_name, position, reason, "
            + "substring(raw from 1 for %d), stream, boot, seq, raw_length, raw_sha256";

    /** Newest first, each with a preview of {@value #PREVIEW} bytes. {@code source} may be null for every source. */
    public static List<Entry> page(Connection c, String source, int offset, int limit) throws SQLException {
        List<Entry> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("select " + COLUMNS.formatted(PREVIEW) + """
                 from quarantine where (?::text is null or source = ?)
                order by received_at desc, id desc offset ? limit ?""")) {
            ps.setString(1, source);
            ps.setString(2, source);
            ps.setInt(3, offset);
            ps.setInt(4, limit);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(entry(rs));
                }
            }
        }
        return out;
    }

    /** One line with the bytes kept of it. */
    public static Optional<Entry> one(Connection c, long id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("select " + COLUMNS.formatted(KEPT)
                + " from quarantine where id = ?")) {
            ps.setLong(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(entry(rs)) : Optional.empty();
            }
        }
    }

    private static Entry entry(ResultSet rs) throws SQLException {
        long seq = rs.getLong(10);
        Long s = rs.wasNull() ? null : seq;
        return new Entry(rs.getLong(1), rs.getTimestamp(2).toInstant(), rs.getString(3), rs.getString(4),
                rs.getLong(5), rs.getString(6), rs.getBytes(7), rs.getString(8), rs.getString(9), s, rs.getLong(11),
                rs.getString(12));
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
