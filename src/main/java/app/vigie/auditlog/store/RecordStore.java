package app.vigie.auditlog.store;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiPredicate;

import app.vigie.auditlog.intake.IncomingLine;
import app.vigie.auditlog.record.AuditRecord;

/** SQL of the intake tables, each call inside the caller's transaction. */
public final class RecordStore {
    /** SQL of the number of records held back behind a gap in the stream of cursor row {@code s}. */
    public static final String HELD_BACK_OF_S = """
            (select coalesce(sum(case when g.seqs is null then g.last_seq - greatest(g.first_seq, s.next_seq) + 1
                    else (select count(*) from unnest(g.seqs) q where q >= s.next_seq) end), 0)
             from record_segment g where g.stream_boot_id = s.id and g.first_seq > s.next_seq - %d
               and g.last_seq >= s.next_seq)""".formatted(Segment.MAX_SPAN);

    private RecordStore() {
    }

    /**
     * The cursors of these (stream, boot) pairs, created when new (with the deployment given for the pair: that of
     * its first record) unless their deployment has {@code boots.max()} pairs already, locked until the transaction
     * ends. A pair that was not created has no cursor in the answer.
     */
    public static Map<StreamKey, StreamCursor> lockCursors(Connection c, Map<StreamKey, String> deployments,
            Instant now, BootCountStore boots) throws SQLException {
        List<StreamKey> sorted = deployments.keySet().stream().sorted().toList();
        String[] streams = sorted.stream().map(StreamKey::stream).toArray(String[]::new);
        String[] bootIds = sorted.stream().map(StreamKey::boot).toArray(String[]::new);
        String[] deployment = sorted.stream().map(deployments::get).toArray(String[]::new);
        // only the deployments of pairs not made yet are counted: a deployment at its bound whose chunks bring known
        // pairs only is not counted again and again
        Map<String, Integer> pairs = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("select t.d from unnest(?::text[], ?::text[], ?::text[])"
                + " as t(s, b, d) where not exists (select 1 from stream_boot x where x.stream = t.s and x.boot = t.b)")) {
            ps.setArray(1, c.createArrayOf("text", streams));
            ps.setArray(2, c.createArrayOf("text", bootIds));
            ps.setArray(3, c.createArrayOf("text", deployment));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    pairs.merge(rs.getString(1), 1, Integer::sum);
                }
            }
        }
        Map<String, Long> have = pairs.isEmpty() ? Map.of() : boots.counts(c, pairs);
        String[] counted = have.keySet().toArray(String[]::new);
        Long[] counts = Arrays.stream(counted).map(have::get).toArray(Long[]::new);
        // new pairs only are checked against their deployment's bound, each new pair ranked within its deployment,
        // so that a chunk cannot overshoot it either
        Map<String, Integer> created = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("""
                with fresh as (
                  select s, b, d, row_number() over (partition by d order by s, b) as k
                  from unnest(?::text[], ?::text[], ?::text[]) as t(s, b, d)
                  where not exists (select 1 from stream_boot x where x.stream = t.s and x.boot = t.b))
                insert into stream_boot (stream, boot, deployment, first_seen_at, last_seen_at)
                select fresh.s, fresh.b, fresh.d, ?, ?
                from fresh join unnest(?::text[], ?::bigint[]) as have(d, n) on have.d = fresh.d
                where have.n + fresh.k <= ?
                order by fresh.s, fresh.b
                on conflict (stream, boot) do nothing
                returning deployment""")) {
            Timestamp ts = Timestamp.from(now);
            ps.setArray(1, c.createArrayOf("text", streams));
            ps.setArray(2, c.createArrayOf("text", bootIds));
            ps.setArray(3, c.createArrayOf("text", deployment));
            ps.setTimestamp(4, ts);
            ps.setTimestamp(5, ts);
            ps.setArray(6, c.createArrayOf("text", counted));
            ps.setArray(7, c.createArrayOf("bigint", counts));
            ps.setLong(8, boots.max());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    created.merge(rs.getString(1), 1, Integer::sum);
                }
            }
        }
        boots.created(created);
        Map<StreamKey, StreamCursor> cursors = new LinkedHashMap<>();
        try (PreparedStatement ps = c.prepareStatement("""
                select id, stream, boot, next_seq, max_seq, purged_at, deployment from stream_boot
                where (stream, boot) in (select * from unnest(?::text[], ?::text[]))
                order by id for update""")) {
            ps.setArray(1, c.createArrayOf("text", streams));
            ps.setArray(2, c.createArrayOf("text", bootIds));
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
                "select id, stream, boot, next_seq, max_seq, purged_at, deployment from stream_boot where id = ? for update")) {
            ps.setLong(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? cursor(rs) : null;
            }
        }
    }

    private static StreamCursor cursor(ResultSet rs) throws SQLException {
        Timestamp purged = rs.getTimestamp(6);
        return new StreamCursor(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getLong(4), rs.getLong(5),
                purged == null ? null : purged.toInstant(), rs.getString(7));
    }

    /** A record to insert, with the cursor id of its stream and the line it came in (its UTF-8 bytes). */
    public record NewRecord(long streamBootId, AuditRecord record, IncomingLine line) {
    }

    /**
     * Inserts records whose keys are known to be free (their cursors are locked, and each seq is above the highest
     * accepted or was looked up), as segments: the records of each stream in seq order, compressed together.
     */
    public static void insertNew(Connection c, List<NewRecord> records, String source, Instant now)
            throws SQLException {
        if (records.isEmpty()) {
            return;
        }
        List<NewRecord> sorted = new ArrayList<>(records);
        sorted.sort(Comparator.comparingLong(NewRecord::streamBootId)
                .thenComparingLong(r -> r.record().seq()));
        List<Segment.Encoded> segments = new ArrayList<>();
        Segment.Builder current = null;
        for (NewRecord r : sorted) {
            IncomingLine line = r.line();
            if (current != null && (current.streamBootId() != r.streamBootId()
                    || !current.fits(r.record().seq(), line.length()))) {
                segments.add(current.encode());
                current = null;
            }
            if (current == null) {
                current = new Segment.Builder(r.streamBootId());
            }
            current.add(r.record().seq(), line.buf(), line.offset(), line.length());
        }
        segments.add(current.encode());
        try (PreparedStatement ps = c.prepareStatement("""
                insert into record_segment (stream_boot_id, first_seq, last_seq, records, seqs, source, received_at,
                  codec, raw_length, data) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""")) {
            Timestamp ts = Timestamp.from(now);
            for (Segment.Encoded e : segments) {
                ps.setLong(1, e.streamBootId());
                ps.setLong(2, e.first());
                ps.setLong(3, e.last());
                ps.setInt(4, e.records());
                ps.setArray(5, e.seqs() == null ? null : c.createArrayOf("bigint", e.seqs()));
                ps.setString(6, source);
                ps.setTimestamp(7, ts);
                ps.setString(8, Segment.LZ4);
                ps.setInt(9, e.rawLength());
                ps.setBytes(10, e.data());
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    /** The stored bodies of these keys (absent keys are missing from the map). */
    public static Map<Long2, String> bodies(Connection c, Collection<Long2> keys) throws SQLException {
        Map<Long2, String> found = new HashMap<>();
        if (keys.isEmpty()) {
            return found;
        }
        // Keys close together share a lookup: (stream, lo, hi) for each run of seqs less than a span apart.
        List<Long2> sorted = keys.stream().distinct()
                .sorted(Comparator.comparingLong(Long2::a).thenComparingLong(Long2::b)).toList();
        List<Long> ids = new ArrayList<>();
        List<Long> los = new ArrayList<>();
        List<Long> his = new ArrayList<>();
        for (Long2 k : sorted) {
            int last = ids.size() - 1;
            if (last >= 0 && ids.get(last) == k.a() && k.b() - his.get(last) < Segment.MAX_SPAN) {
                his.set(last, k.b());
            } else {
                ids.add(k.a());
                los.add(k.b());
                his.add(k.b());
            }
        }
        Set<Long2> wanted = new HashSet<>(sorted);
        try (PreparedStatement ps = c.prepareStatement("""
                select distinct s.stream_boot_id, s.first_seq, s.seqs, s.codec, s.raw_length, s.data
                from unnest(?::bigint[], ?::bigint[], ?::bigint[]) as k(id, lo, hi)
                join record_segment s on s.stream_boot_id = k.id and s.first_seq > k.lo - %d
                  and s.first_seq <= k.hi and s.last_seq >= k.lo""".formatted(Segment.MAX_SPAN))) {
            ps.setArray(1, c.createArrayOf("bigint", ids.toArray()));
            ps.setArray(2, c.createArrayOf("bigint", los.toArray()));
            ps.setArray(3, c.createArrayOf("bigint", his.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    for (StoredRecord r : decode(rs)) {
                        Long2 key = new Long2(r.streamBootId(), r.seq());
                        if (wanted.contains(key)) {
                            found.put(key, r.body());
                        }
                    }
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
                select stream_boot_id, first_seq, seqs, codec, raw_length, data from record_segment
                where stream_boot_id = ? and first_seq > ? and first_seq < ? and last_seq >= ?
                order by first_seq""")) {
            ps.setLong(1, streamBootId);
            ps.setLong(2, from - Segment.MAX_SPAN);
            ps.setLong(3, from + limit);
            ps.setLong(4, from);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    for (StoredRecord r : decode(rs)) {
                        if (r.seq() >= from && r.seq() < from + limit) {
                            out.add(r);
                        }
                    }
                }
            }
        }
        out.sort(Comparator.comparingLong(StoredRecord::seq));
        return out;
    }

    /** The stored record of a stream with the lowest seq, or null when none is stored. */
    public static StoredRecord first(Connection c, long streamBootId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                select stream_boot_id, first_seq, seqs, codec, raw_length, data from record_segment
                where stream_boot_id = ? order by first_seq limit 1""")) {
            ps.setLong(1, streamBootId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? decode(rs).get(0) : null;
            }
        }
    }

    private static List<StoredRecord> decode(ResultSet rs) throws SQLException {
        Array seqs = rs.getArray(3);
        return Segment.decode(rs.getLong(1), rs.getLong(2), seqs == null ? null : (Long[]) seqs.getArray(),
                rs.getString(4), rs.getInt(5), rs.getBytes(6));
    }

    /** The first held record at or after {@code from}: its seq and when it was received, or null. */
    public static HeldRecord firstHeld(Connection c, long streamBootId, long from) throws SQLException {
        HeldRecord best = null;
        try (PreparedStatement ps = c.prepareStatement("""
                select first_seq, seqs, received_at from record_segment
                where stream_boot_id = ? and first_seq > ? and last_seq >= ? order by first_seq""")) {
            ps.setFetchSize(16);
            ps.setLong(1, streamBootId);
            ps.setLong(2, from - Segment.MAX_SPAN);
            ps.setLong(3, from);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    long first = rs.getLong(1);
                    if (best != null && first > best.seq()) {
                        break;
                    }
                    Array array = rs.getArray(2);
                    long seq = first >= from ? first : firstAtOrAfter(array == null ? null : (Long[]) array.getArray(),
                            from);
                    if (best == null || seq < best.seq()) {
                        best = new HeldRecord(seq, rs.getTimestamp(3).toInstant());
                    }
                }
            }
        }
        return best;
    }

    /** The first seq at or after {@code from} of a segment that ends at or after it. */
    private static long firstAtOrAfter(Long[] seqs, long from) {
        if (seqs == null) {
            return from;
        }
        for (Long s : seqs) {
            if (s >= from) {
                return s;
            }
        }
        throw new IllegalStateException("a segment ending at or after " + from + " holds no seq there");
    }

    /** The first record held back behind a gap. */
    public record HeldRecord(long seq, Instant receivedAt) {
    }

    /** New values of one cursor: its next seq, and what a transaction added to it. */
    public record Advance(long id, long nextSeq, long maxSeq, long accepted, long duplicates) {
    }

    public static void advance(Connection c, long id, long nextSeq, long maxSeq, long accepted, long duplicates,
            Instant now) throws SQLException {
        advance(c, List.of(new Advance(id, nextSeq, maxSeq, accepted, duplicates)), now);
    }

    /** Moves locked cursors, in one statement. */
    public static void advance(Connection c, List<Advance> advances, Instant now) throws SQLException {
        if (advances.isEmpty()) {
            return;
        }
        int n = advances.size();
        Long[] ids = new Long[n];
        Long[] next = new Long[n];
        Long[] max = new Long[n];
        Long[] accepted = new Long[n];
        Long[] duplicates = new Long[n];
        for (int i = 0; i < n; i++) {
            Advance a = advances.get(i);
            ids[i] = a.id();
            next[i] = a.nextSeq();
            max[i] = a.maxSeq();
            accepted[i] = a.accepted();
            duplicates[i] = a.duplicates();
        }
        try (PreparedStatement ps = c.prepareStatement("""
                update stream_boot s set next_seq = u.nx, max_seq = greatest(s.max_seq, u.mx),
                  accepted = s.accepted + u.ac, duplicates = s.duplicates + u.du,
                  last_seen_at = greatest(s.last_seen_at, ?)
                from unnest(?::bigint[], ?::bigint[], ?::bigint[], ?::bigint[], ?::bigint[]) as u(id, nx, mx, ac, du)
                where s.id = u.id""")) {
            ps.setTimestamp(1, Timestamp.from(now));
            ps.setArray(2, c.createArrayOf("bigint", ids));
            ps.setArray(3, c.createArrayOf("bigint", next));
            ps.setArray(4, c.createArrayOf("bigint", max));
            ps.setArray(5, c.createArrayOf("bigint", accepted));
            ps.setArray(6, c.createArrayOf("bigint", duplicates));
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
        return streamsHoldingRecords(c, null);
    }

    /**
     * Ids of the streams that hold records behind a gap, of those {@code allowed} takes (stream, deployment of the
     * boot, null when not known); null: all.
     */
    public static List<Long> streamsHoldingRecords(Connection c, BiPredicate<String, String> allowed)
            throws SQLException {
        List<Long> ids = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(
                "select id, stream, deployment from stream_boot where max_seq >= next_seq order by id");
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                if (allowed == null || allowed.test(rs.getString(2), rs.getString(3))) {
                    ids.add(rs.getLong(1));
                }
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

    /** The id of (stream, boot), or null when no record of it was stored. */
    public static Long streamBootId(Connection tx, String stream, String boot) throws SQLException {
        try (PreparedStatement ps = tx.prepareStatement("select id from stream_boot where stream = ? and boot = ?")) {
            ps.setString(1, stream);
            ps.setString(2, boot);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : null;
            }
        }
    }

    /** One (stream, boot). {@code held_back}: accepted records waiting behind a missing seq. */
    public record StreamState(String stream, String boot, long nextSeq, long maxSeq, long accepted, long duplicates,
            long heldBack, long lostGaps, long lostRecords, Instant firstSeenAt, Instant lastSeenAt) {
    }

    /** The intake progress of every (stream, boot): applied, held back, lost. */
    public static List<StreamState> streams(Connection c) throws SQLException {
        return streams(c, null);
    }

    /**
     * The intake progress of the (stream, boot)s {@code allowed} takes (stream, deployment of the boot, null when
     * not known); null: all.
     */
    public static List<StreamState> streams(Connection c, BiPredicate<String, String> allowed) throws SQLException {
        List<StreamState> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                select s.stream, s.boot, s.next_seq, s.max_seq, s.accepted, s.duplicates,
                  %s,
                  (select count(*) from stream_gap g where g.stream_boot_id = s.id),
                  (select coalesce(sum(g.to_seq - g.from_seq + 1), 0) from stream_gap g
                    where g.stream_boot_id = s.id),
                  s.first_seen_at, s.last_seen_at, s.deployment
                from stream_boot s order by s.stream, s.first_seen_at, s.boot""".formatted(
                RecordStore.HELD_BACK_OF_S));
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                if (allowed != null && !allowed.test(rs.getString(1), rs.getString(12))) {
                    continue;
                }
                out.add(new StreamState(rs.getString(1), rs.getString(2), rs.getLong(3), rs.getLong(4),
                        rs.getLong(5), rs.getLong(6), rs.getLong(7), rs.getLong(8), rs.getLong(9),
                        rs.getTimestamp(10).toInstant(), rs.getTimestamp(11).toInstant()));
            }
        }
        return out;
    }
}
