package app.vigie.auditlog.store;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.postgresql.PGConnection;

import app.vigie.auditlog.intake.IncomingLine;
import app.vigie.auditlog.record.AuditRecord;

/** SQL of the intake tables, each call inside the caller's transaction. */
public final class RecordStore {
    private RecordStore() {
    }

    /** The cursors of these (stream, boot) pairs, created when new, locked until the transaction ends. */
    public static Map<StreamKey, StreamCursor> lockCursors(Connection c, Collection<StreamKey> keys, Instant now)
            throws SQLException {
        List<StreamKey> sorted = keys.stream().distinct().sorted().toList();
        String[] streams = sorted.stream().map(StreamKey::stream).toArray(String[]::new);
        String[] boots = sorted.stream().map(StreamKey::boot).toArray(String[]::new);
        try (PreparedStatement ps = c.prepareStatement("""
                insert into stream_boot (stream, boot, first_seen_at, last_seen_at)
                select s, b, ?, ? from unnest(?::text[], ?::text[]) as t(s, b) order by s, b
                on conflict (stream, boot) do nothing""")) {
            Timestamp ts = Timestamp.from(now);
            ps.setTimestamp(1, ts);
            ps.setTimestamp(2, ts);
            ps.setArray(3, c.createArrayOf("text", streams));
            ps.setArray(4, c.createArrayOf("text", boots));
            ps.executeUpdate();
        }
        Map<StreamKey, StreamCursor> cursors = new LinkedHashMap<>();
        try (PreparedStatement ps = c.prepareStatement("""
                select id, stream, boot, next_seq, max_seq from stream_boot
                where (stream, boot) in (select * from unnest(?::text[], ?::text[]))
                order by id for update""")) {
            ps.setArray(1, c.createArrayOf("text", streams));
            ps.setArray(2, c.createArrayOf("text", boots));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    StreamCursor cur = cursor(rs);
                    cursors.put(new StreamKey(cur.stream(), cur.boot()), cur);
                }
            }
        }
        return cursors;
    }

    /** The current next seq of these streams (without locking). */
    public static Map<StreamKey, Long> nextSeqs(Connection c, Collection<StreamKey> keys) throws SQLException {
        Map<StreamKey, Long> next = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("""
                select stream, boot, next_seq from stream_boot
                where (stream, boot) in (select * from unnest(?::text[], ?::text[]))""")) {
            ps.setArray(1, c.createArrayOf("text", keys.stream().map(StreamKey::stream).toArray(String[]::new)));
            ps.setArray(2, c.createArrayOf("text", keys.stream().map(StreamKey::boot).toArray(String[]::new)));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    next.put(new StreamKey(rs.getString(1), rs.getString(2)), rs.getLong(3));
                }
            }
        }
        return next;
    }

    /** Locks the cursor of one stream by id. */
    public static StreamCursor lockCursor(Connection c, long id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "select id, stream, boot, next_seq, max_seq from stream_boot where id = ? for update")) {
            ps.setLong(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? cursor(rs) : null;
            }
        }
    }

    private static StreamCursor cursor(ResultSet rs) throws SQLException {
        return new StreamCursor(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getLong(4), rs.getLong(5));
    }

    /** A record to insert, with the cursor id of its stream and the line it came in (its UTF-8 bytes). */
    public record NewRecord(long streamBootId, AuditRecord record, IncomingLine line) {
    }

    /**
     * Inserts records whose keys are known to be free (their cursors are locked, and each seq is above the highest
     * accepted or was looked up): streamed with COPY, the fastest way into PostgreSQL.
     */
    public static void insertNew(Connection c, List<NewRecord> records, String source, Instant now)
            throws SQLException {
        if (records.isEmpty()) {
            return;
        }
        byte[] tail = ("\t" + source + "\t" + now + "\n").getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream rows = new ByteArrayOutputStream(records.size() * 400);
        for (NewRecord r : records) {
            String head = r.streamBootId() + "\t" + r.record().seq() + "\t" + r.record().type().name() + "\t"
                    + r.record().ts() + "\t";
            rows.writeBytes(head.getBytes(StandardCharsets.US_ASCII));
            escape(rows, r.line().buf(), r.line().offset(), r.line().length());
            rows.writeBytes(tail);
        }
        try {
            c.unwrap(PGConnection.class).getCopyAPI().copyIn(
                    "copy audit_record (stream_boot_id, seq, type, ts, body, source, received_at) from stdin",
                    new ByteArrayInputStream(rows.toByteArray()));
        } catch (IOException e) {
            throw new SQLException("copy of the records failed", e);
        }
    }

    /** Writes UTF-8 bytes as a COPY text field: backslash, tab, CR and LF escaped (never inside a multi-byte). */
    private static void escape(ByteArrayOutputStream out, byte[] buf, int offset, int length) {
        int start = offset;
        int end = offset + length;
        for (int i = offset; i < end; i++) {
            byte b = buf[i];
            if (b == '\\' || b == '\t' || b == '\r' || b == '\n') {
                out.write(buf, start, i - start);
                out.write('\\');
                out.write(b == '\\' ? '\\' : b == '\t' ? 't' : b == '\r' ? 'r' : 'n');
                start = i + 1;
            }
        }
        out.write(buf, start, end - start);
    }

    /** The stored bodies of these keys (absent keys are missing from the map). */
    public static Map<Long2, String> bodies(Connection c, Collection<Long2> keys) throws SQLException {
        Map<Long2, String> found = new HashMap<>();
        if (keys.isEmpty()) {
            return found;
        }
        Long[] ids = keys.stream().map(Long2::a).toArray(Long[]::new);
        Long[] seqs = keys.stream().map(Long2::b).toArray(Long[]::new);
        try (PreparedStatement ps = c.prepareStatement("""
                select stream_boot_id, seq, body from audit_record
                where (stream_boot_id, seq) in (select * from unnest(?::bigint[], ?::bigint[]))""")) {
            ps.setArray(1, c.createArrayOf("bigint", ids));
            ps.setArray(2, c.createArrayOf("bigint", seqs));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    found.put(new Long2(rs.getLong(1), rs.getLong(2)), rs.getString(3));
                }
            }
        }
        return found;
    }

    /** Stored records of a stream with {@code from <= seq < from + limit}, in seq order. */
    public static List<StoredRecord> range(Connection c, long streamBootId, long from, int limit)
            throws SQLException {
        List<StoredRecord> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                select seq, body from audit_record where stream_boot_id = ? and seq >= ? and seq < ?
                order by seq""")) {
            ps.setLong(1, streamBootId);
            ps.setLong(2, from);
            ps.setLong(3, from + limit);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new StoredRecord(streamBootId, rs.getLong(1), rs.getString(2)));
                }
            }
        }
        return out;
    }

    /** The first held record at or after {@code from}: its seq and when it was received, or null. */
    public static HeldRecord firstHeld(Connection c, long streamBootId, long from) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                select seq, received_at from audit_record where stream_boot_id = ? and seq >= ?
                order by seq limit 1""")) {
            ps.setLong(1, streamBootId);
            ps.setLong(2, from);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? new HeldRecord(rs.getLong(1), rs.getTimestamp(2).toInstant()) : null;
            }
        }
    }

    /** The first record held back behind a gap. */
    public record HeldRecord(long seq, Instant receivedAt) {
    }

    public static void advance(Connection c, long id, long nextSeq, long maxSeq, long accepted, long duplicates,
            Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                update stream_boot set next_seq = ?, max_seq = greatest(max_seq, ?), accepted = accepted + ?,
                duplicates = duplicates + ?, last_seen_at = greatest(last_seen_at, ?) where id = ?""")) {
            ps.setLong(1, nextSeq);
            ps.setLong(2, maxSeq);
            ps.setLong(3, accepted);
            ps.setLong(4, duplicates);
            ps.setTimestamp(5, Timestamp.from(now));
            ps.setLong(6, id);
            ps.executeUpdate();
        }
    }

    public static void recordGap(Connection c, long id, long from, long to, String cause, Instant now)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                insert into stream_gap (stream_boot_id, from_seq, to_seq, cause, declared_at)
                values (?, ?, ?, ?, ?)""")) {
            ps.setLong(1, id);
            ps.setLong(2, from);
            ps.setLong(3, to);
            ps.setString(4, cause);
            ps.setTimestamp(5, Timestamp.from(now));
            ps.executeUpdate();
        }
    }

    /** Ids of the streams that hold records behind a gap. */
    public static List<Long> streamsHoldingRecords(Connection c) throws SQLException {
        List<Long> ids = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(
                "select id from stream_boot where max_seq >= next_seq order by id");
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                ids.add(rs.getLong(1));
            }
        }
        return ids;
    }

    /** A pair of longs: (stream_boot id, seq). */
    public record Long2(long a, long b) {
    }

    /** A (stream, boot) pair, ordered for lock ordering. */
    public record StreamKey(String stream, String boot) implements Comparable<StreamKey> {
        @Override
        public int compareTo(StreamKey o) {
            int s = stream.compareTo(o.stream);
            return s != 0 ? s : boot.compareTo(o.boot);
        }
    }
}
