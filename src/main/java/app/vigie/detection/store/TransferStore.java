package app.vigie.detection.store;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.BiPredicate;
import java.util.function.Function;

import app.vigie.db.Micros;
import app.vigie.detection.core.Provenance;
import app.vigie.detection.core.TransferRead;
import app.vigie.detection.core.TransferSend;

/**
 * Spec v1.1, provenance through transfers, kept in PostgreSQL: the sends judged on a sender's stream
 * ({@code transfer_send}) and the reads of what a sent transfer brought ({@code transfer_read}, V28), joined in
 * whichever transaction brings the second half, by {@link Provenance#join}. Two transactions bringing the two halves
 * of one transferred request take an advisory lock on it first (sorted, before any incident lock), so the second
 * sees the first's rows: no pair is missed, whatever the order the streams are read in.
 */
public final class TransferStore {
    /** The advisory lock space of transferred requests ("VTX1"). */
    private static final int LOCK_SPACE = 0x56545831;
    private static final char FIELD = '\u0001';
    private static final char ORIGIN = '\u0002';
    /** A transfer without id, in an encoded origin or hop. */
    private static final String NONE = "\u0003";

    private TransferStore() {
    }

    /**
     * Stores the buffer's reads and sends and adds to it what they resolve: exposures and findings. Spec 1.3, amendment
     * 4: a chain is followed through the sends of every transfer it passes by, each transferred request locked before
     * its sends are read (a send of a hop committing meanwhile either is seen here, or finds this transaction's rows
     * when it looks for the reads whose chain passes through it); the reads through transfers whose sends hold
     * positions a new send brought are judged again.
     */
    static void join(Connection c, DetectionBuffer b) throws SQLException {
        if (b.transferReads.isEmpty() && b.transferSends.isEmpty()) {
            return;
        }
        Set<String> requests = new TreeSet<>();
        b.transferReads.values().forEach(r -> requests.add(r.via()));
        b.transferSends.forEach(s -> requests.add(s.request()));
        lock(c, requests);
        List<TransferSend> newSends = insertSends(c, b.transferSends);
        // loaded by request (the index), joined by request and transfer (spec 1.3, amendment 2)
        Chains chains = new Chains(c, requests);
        // the sends the reads join, and those the new sends' received positions lead to (rarely any)
        Set<String> down = new TreeSet<>();
        b.transferReads.values().forEach(r -> down.add(r.via()));
        for (TransferSend s : newSends) {
            for (TransferSend.Origin o : s.foreign()) {
                if (o.received()) {
                    down.add(o.request());
                }
            }
        }
        chains.load(down, true);
        // a read whose every position a send covers, down its whole chain, has nothing for a flush to resolve
        // (amendment 5): stored as checked, it costs the flush's check no work (most reads, on a sound log)
        List<TransferRead> incoming = new ArrayList<>(b.transferReads.values());
        boolean[] covered = new boolean[incoming.size()];
        for (int i = 0; i < covered.length; i++) {
            covered[i] = Provenance.held(incoming.get(i), chains).isEmpty();
        }
        List<TransferRead> newReads = new ArrayList<>();
        Map<TransferRead, Provenance.Resolution> fellBack = new HashMap<>();
        insertReads(c, incoming, covered, newReads, fellBack);
        Set<String> sendRequests = new TreeSet<>();
        newSends.forEach(s -> sendRequests.add(s.request()));
        Set<String> up = referrers(c, newSends);
        Set<String> upRequests = new TreeSet<>();
        for (String key : up) {
            upRequests.add(TransferSend.requestOf(key));
        }
        chains.load(upRequests, false);
        Set<String> readsOf = new TreeSet<>(sendRequests);
        readsOf.addAll(upRequests);
        Map<String, List<TransferRead>> reads = reads(c, readsOf);
        // a pair both new here is joined twice, to the same effect (exposures unite, findings keep the earliest)
        for (TransferRead r : newReads) {
            for (TransferSend s : chains.apply(r.transferKey())) {
                join(r, s, chains, b);
            }
        }
        for (TransferSend s : newSends) {
            for (TransferRead r : reads.getOrDefault(s.transferKey(), List.of())) {
                join(r, s, chains, b);
            }
        }
        for (String key : up) {
            for (TransferRead r : reads.getOrDefault(key, List.of())) {
                for (TransferSend s : chains.apply(key)) {
                    join(r, s, chains, b);
                }
            }
        }
        // a send that extends a stored read's chain to a hop no send covers makes it wait for a flush again
        // (amendment 5), even when it was stored as covered; one a flush already resolved stays resolved
        Set<TransferRead> rejoined = new HashSet<>();
        newSends.forEach(s -> rejoined.addAll(reads.getOrDefault(s.transferKey(), List.of())));
        up.forEach(key -> rejoined.addAll(reads.getOrDefault(key, List.of())));
        List<UUID> reopen = new ArrayList<>();
        for (TransferRead r : rejoined) {
            if (!Provenance.held(r, chains).isEmpty()) {
                reopen.add(key(r));
            }
        }
        reopen(c, reopen);
        // a later ATTACH of a read a flush resolved counts too (amendment 7): its version 1 judgement again
        fellBack.forEach((r, held) -> Provenance.fallback(r, held, b));
    }

    /** Joins one pair into the buffer; the sender's boot becomes evidence of what it resolves. */
    private static void join(TransferRead r, TransferSend s, Chains chains, DetectionBuffer b) {
        if (Provenance.join(r, s, chains, b)) {
            b.exposureBoot(r.deployment(), s.stream(), s.boot());
            // and the boot of every send a chain from it passes by (amendment 4): the evidence check replays them
            Set<String> seen = new HashSet<>();
            ArrayDeque<TransferSend> todo = new ArrayDeque<>(List.of(s));
            while (!todo.isEmpty() && seen.size() <= Provenance.MAX_HOPS) {
                for (TransferSend.Origin o : todo.poll().foreign()) {
                    if (o.received() && seen.add(o.viaKey())) {
                        for (TransferSend hop : chains.apply(o.viaKey())) {
                            b.exposureBoot(r.deployment(), hop.stream(), hop.boot());
                            todo.add(hop);
                        }
                    }
                }
            }
        }
    }

    /**
     * The stored sends a chain may pass by (amendment 4), by transfer key: loaded by request, then the requests whose
     * received positions they hold, and so on ({@link Provenance#MAX_HOPS} rounds at most).
     */
    private static final class Chains implements Function<String, List<TransferSend>> {
        private final Connection c;
        private final Set<String> locked;
        private final Set<String> loaded = new HashSet<>();
        private final Map<String, List<TransferSend>> byKey = new HashMap<>();

        Chains(Connection c, Set<String> locked) {
            this.c = c;
            this.locked = new HashSet<>(locked);
        }

        /** Loads the sends of these requests and of every request a chain from them passes by, locked first if asked. */
        void load(Set<String> requests, boolean lock) throws SQLException {
            Set<String> todo = new TreeSet<>(requests);
            todo.removeAll(loaded);
            for (int round = 0; !todo.isEmpty() && round <= Provenance.MAX_HOPS; round++) {
                if (lock) {
                    Set<String> more = new TreeSet<>(todo);
                    more.removeAll(locked);
                    if (!more.isEmpty()) {
                        TransferStore.lock(c, more);  // out of the first sorted order: a deadlock is retried whole
                        locked.addAll(more);
                    }
                }
                Map<String, List<TransferSend>> got = sends(c, todo);
                loaded.addAll(todo);
                Set<String> next = new TreeSet<>();
                got.forEach((key, list) -> {
                    byKey.computeIfAbsent(key, k -> new ArrayList<>()).addAll(list);
                    for (TransferSend s : list) {
                        for (TransferSend.Origin o : s.foreign()) {
                            if (o.received() && !loaded.contains(o.request())) {
                                next.add(o.request());
                            }
                        }
                    }
                });
                todo = next;
            }
        }

        @Override
        public List<TransferSend> apply(String key) {
            return byKey.getOrDefault(key, List.of());
        }
    }

    /**
     * The transfer keys whose sends hold, through any number of hops, positions received by the transfers of {@code
     * sends} (those themselves excluded).
     */
    private static Set<String> referrers(Connection c, List<TransferSend> sends) throws SQLException {
        Set<String> out = new TreeSet<>();
        Set<String> seen = new HashSet<>();
        Set<String> level = new TreeSet<>();
        for (TransferSend s : sends) {
            level.add(s.transferKey());  // a possible send too: a chain may pass by its transfer
        }
        seen.addAll(level);
        for (int round = 0; !level.isEmpty() && round <= Provenance.MAX_HOPS; round++) {
            Set<String> requests = new TreeSet<>();
            level.forEach(k -> requests.add(TransferSend.requestOf(k)));
            Set<String> next = new TreeSet<>();
            try (PreparedStatement ps = c.prepareStatement("select distinct ref_request, ref_transfer, request,"
                    + " transfer from transfer_send_ref where ref_request = any(?::text[])")) {
                ps.setArray(1, c.createArrayOf("text", requests.toArray()));
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        String ref = TransferSend.transferKey(rs.getString(1), rs.getString(2));
                        String key = TransferSend.transferKey(rs.getString(3), rs.getString(4));
                        if (level.contains(ref) && seen.add(key)) {
                            next.add(key);
                            out.add(key);
                        }
                    }
                }
            }
            level = next;
        }
        return out;
    }

    private static void lock(Connection c, Set<String> requests) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                select pg_advisory_xact_lock(?, k)
                from (select distinct hashtext(r) as k from unnest(?::text[]) as u(r) order by 1) as keys""")) {
            ps.setInt(1, LOCK_SPACE);
            ps.setArray(2, c.createArrayOf("text", requests.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    // one row per lock taken, in the keys' order
                }
            }
        }
    }

    /** Marks these stored reads unchecked again, unless a flush resolved them (their resolution is kept). */
    private static void reopen(Connection c, List<UUID> keys) throws SQLException {
        if (keys.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement("update transfer_read set checked = false where key = any(?)"
                + " and checked and resolved_ranges is null and resolved_hops is null")) {
            ps.setArray(1, c.createArrayOf("uuid", keys.toArray()));
            ps.executeUpdate();
        }
    }

    /** Inserts the sends; returns those new to the table (a replayed one is already there). */
    private static List<TransferSend> insertSends(Connection c, List<TransferSend> sends) throws SQLException {
        if (sends.isEmpty()) {
            return List.of();
        }
        int n = sends.size();
        String[] stream = new String[n];
        String[] boot = new String[n];
        Long[] seq = new Long[n];
        String[] deployment = new String[n];
        String[] request = new String[n];
        String[] transfer = new String[n];
        String[] tenant = new String[n];
        Integer[] from = new Integer[n];
        Integer[] to = new Integer[n];
        String[] foreign = new String[n];
        Long[] at = new Long[n];
        Boolean[] possible = new Boolean[n];
        Map<String, TransferSend> byKey = new HashMap<>();
        for (int i = 0; i < n; i++) {
            TransferSend s = sends.get(i);
            stream[i] = s.stream();
            boot[i] = s.boot();
            seq[i] = s.seq();
            deployment[i] = s.deployment();
            request[i] = s.request();
            transfer[i] = s.transfer();
            tenant[i] = s.tenant();
            from[i] = s.from();
            to[i] = s.end();
            foreign[i] = encode(s.foreign());
            at[i] = Micros.of(s.at());
            possible[i] = s.possible();
            byKey.put(s.stream() + FIELD + s.boot() + FIELD + s.seq(), s);
        }
        List<TransferSend> inserted = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                insert into transfer_send (stream, boot, seq, deployment, request, tenant, from_pos, to_pos,
                  foreign_origins, seen_at, transfer, possible)
                select st, bt, sq, dp, rq, tn, fr, tp, fo, timestamptz 'epoch' + a * interval '1 microsecond', tf, ps
                from unnest(?::text[], ?::text[], ?::bigint[], ?::text[], ?::text[], ?::text[], ?::int[],
                  ?::int[], ?::text[], ?::bigint[], ?::text[], ?::boolean[])
                  as u(st, bt, sq, dp, rq, tn, fr, tp, fo, a, tf, ps)
                on conflict do nothing
                returning stream, boot, seq""")) {
            ps.setArray(1, c.createArrayOf("text", stream));
            ps.setArray(2, c.createArrayOf("text", boot));
            ps.setArray(3, c.createArrayOf("bigint", seq));
            ps.setArray(4, c.createArrayOf("text", deployment));
            ps.setArray(5, c.createArrayOf("text", request));
            ps.setArray(6, c.createArrayOf("text", tenant));
            ps.setArray(7, c.createArrayOf("int4", from));
            ps.setArray(8, c.createArrayOf("int4", to));
            ps.setArray(9, c.createArrayOf("text", foreign));
            ps.setArray(10, c.createArrayOf("bigint", at));
            ps.setArray(11, c.createArrayOf("text", transfer));
            ps.setArray(12, c.createArrayOf("boolean", possible));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    inserted.add(byKey.get(rs.getString(1) + FIELD + rs.getString(2) + FIELD + rs.getLong(3)));
                }
            }
        }
        insertRefs(c, inserted);
        return inserted;
    }

    /** Amendment 4: each new send that holds positions received by another transfer is referenced from it. */
    private static void insertRefs(Connection c, List<TransferSend> sends) throws SQLException {
        List<Object[]> rows = new ArrayList<>();
        for (TransferSend s : sends) {
            if (s.possible()) {
                continue;
            }
            Set<String> refs = new HashSet<>();
            for (TransferSend.Origin o : s.foreign()) {
                if (o.received() && refs.add(o.viaKey())) {
                    rows.add(new Object[] {s.stream(), s.boot(), s.seq(), s.request(), s.transfer(), o.request(),
                        o.viaTransfer()});
                }
            }
        }
        if (rows.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement("insert into transfer_send_ref (stream, boot, seq, request,"
                + " transfer, ref_request, ref_transfer) values (?, ?, ?, ?, ?, ?, ?)")) {
            for (Object[] row : rows) {
                for (int i = 0; i < row.length; i++) {
                    ps.setObject(i + 1, row[i]);
                }
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    /**
     * Inserts the reads; gives in {@code inserted}, as stored, those new to the table, those whose stored occurrence this one replaces
     * as earlier (the same read judged on two tensor-parallel ranks) and those whose last sight this one moves later
     * (a later ATTACH reading the same received positions): they are joined again, so that evidence and the span of
     * the exposures do not depend on the order the streams were read in. Those a flush resolved go to {@code resolved}
     * too, with the via positions it judged as in version 1.
     */
    private static void insertReads(Connection c, List<TransferRead> reads, boolean[] covered,
            List<TransferRead> inserted, Map<TransferRead, Provenance.Resolution> resolved) throws SQLException {
        if (reads.isEmpty()) {
            return;
        }
        int n = reads.size();
        Object[][] cols = new Object[18][n];
        for (int i = 0; i < n; i++) {
            TransferRead r = reads.get(i);
            UUID key = key(r);
            cols[14][i] = key;
            cols[0][i] = r.deployment();
            cols[1][i] = r.reader();
            cols[2][i] = r.readerTenant();
            cols[3][i] = r.readerFrom();
            cols[4][i] = r.via();
            cols[5][i] = r.viaTenant();
            cols[6][i] = r.viaFrom();
            cols[7][i] = r.tokens();
            cols[8][i] = r.shared();
            cols[9][i] = r.attachTokens();
            cols[10][i] = r.stream();
            cols[11][i] = r.boot();
            cols[12][i] = r.seq();
            cols[13][i] = Micros.of(r.at());
            cols[15][i] = Micros.of(r.lastAt());
            cols[16][i] = r.viaTransfer();
            cols[17][i] = covered[i];
        }
        String[] types = {"text", "text", "text", "int4", "text", "text", "int4", "int4", "bool", "int4", "text",
            "text", "int8", "int8", "uuid", "int8", "text", "bool"};
        try (PreparedStatement ps = c.prepareStatement("""
                insert into transfer_read as t (deployment, reader, reader_tenant, reader_from, via, via_tenant,
                  via_from, tokens, shared, attach_tokens, stream, boot, seq, seen_at, key, last_seen_at, via_transfer,
                  checked)
                select dp, rd, rt, rf, vi, vt, vf, tk, sh, at, st, bt, sq,
                  timestamptz 'epoch' + a * interval '1 microsecond', ky,
                  timestamptz 'epoch' + la * interval '1 microsecond', vx, ck
                from unnest(?::text[], ?::text[], ?::text[], ?::int[], ?::text[], ?::text[], ?::int[],
                  ?::int[], ?::boolean[], ?::int[], ?::text[], ?::text[], ?::bigint[], ?::bigint[], ?::uuid[],
                  ?::bigint[], ?::text[], ?::boolean[])
                  as u(dp, rd, rt, rf, vi, vt, vf, tk, sh, at, st, bt, sq, a, ky, la, vx, ck)
                on conflict (key) do update
                  set stream = case when %1$s then excluded.stream else t.stream end,
                    boot = case when %1$s then excluded.boot else t.boot end,
                    seq = case when %1$s then excluded.seq else t.seq end,
                    attach_tokens = case when %1$s then excluded.attach_tokens else t.attach_tokens end,
                    seen_at = case when %1$s then excluded.seen_at else t.seen_at end,
                    last_seen_at = greatest(t.last_seen_at, excluded.last_seen_at)
                  where %1$s or excluded.last_seen_at > t.last_seen_at
                returning %2$s, resolved_ranges, resolved_hops""".formatted(EARLIER, READ_COLUMNS))) {
            for (int k = 0; k < cols.length; k++) {
                ps.setArray(k + 1, c.createArrayOf(types[k], cols[k]));
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    TransferRead r = read(rs);  // as stored: the earliest place, the latest last sight
                    inserted.add(r);
                    Provenance.Resolution held = resolution(rs.getArray(17), rs.getString(18));
                    if (held != null) {
                        resolved.put(r, held);
                    }
                }
            }
        }
    }

    /** Every stored send of these requests, by {@link TransferSend#transferKey()}. */
    private static Map<String, List<TransferSend>> sends(Connection c, Set<String> requests) throws SQLException {
        Map<String, List<TransferSend>> out = new HashMap<>();
        if (requests.isEmpty()) {
            return out;
        }
        try (PreparedStatement ps = c.prepareStatement("""
                select stream, boot, seq, deployment, request, tenant, from_pos, to_pos, foreign_origins, seen_at,
                  transfer, possible
                from transfer_send where request = any(?::text[])""")) {
            ps.setArray(1, c.createArrayOf("text", requests.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    int from = rs.getInt(7);
                    TransferSend s = new TransferSend(rs.getString(4), rs.getString(5), rs.getString(11),
                            rs.getString(6), from, rs.getInt(8) - from, decode(rs.getString(9)),
                            rs.getTimestamp(10).toInstant(), rs.getString(1), rs.getString(2), rs.getLong(3),
                            rs.getBoolean(12));
                    out.computeIfAbsent(s.transferKey(), k -> new ArrayList<>()).add(s);
                }
            }
        }
        return out;
    }

    /** Whether the read being inserted ({@code excluded}) is an earlier occurrence than the stored one ({@code t}). */
    private static final String EARLIER = """
            ((excluded.seen_at, excluded.stream collate "C", excluded.boot collate "C", excluded.seq)
              < (t.seen_at, t.stream collate "C", t.boot collate "C", t.seq))""".strip();

    /** The columns {@link #read} maps, first in a select. */
    private static final String READ_COLUMNS = "deployment, reader, reader_tenant, reader_from, via, via_tenant,"
            + " via_from, tokens, shared, attach_tokens, stream, boot, seq, seen_at, last_seen_at, via_transfer";

    /** A stored read from a row whose first columns are {@link #READ_COLUMNS}. */
    private static TransferRead read(ResultSet rs) throws SQLException {
        return new TransferRead(rs.getString(1), rs.getString(2), rs.getString(3), rs.getInt(4), rs.getString(5),
                rs.getString(16), rs.getString(6), rs.getInt(7), rs.getInt(8), rs.getBoolean(9), rs.getInt(10),
                rs.getTimestamp(14).toInstant(), rs.getString(11), rs.getString(12), rs.getLong(13),
                rs.getTimestamp(15).toInstant());
    }

    /** Every stored read through these requests, by {@link TransferRead#transferKey()}. */
    private static Map<String, List<TransferRead>> reads(Connection c, Set<String> vias) throws SQLException {
        Map<String, List<TransferRead>> out = new HashMap<>();
        if (vias.isEmpty()) {
            return out;
        }
        try (PreparedStatement ps = c.prepareStatement("select " + READ_COLUMNS
                + " from transfer_read where via = any(?::text[])")) {
            ps.setArray(1, c.createArrayOf("text", vias.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    TransferRead r = read(rs);
                    out.computeIfAbsent(r.transferKey(), k -> new ArrayList<>()).add(r);
                }
            }
        }
        return out;
    }
    /** The row key of a read: the first 16 bytes of the SHA-256 of {@link TransferRead#key()}. */
    static UUID key(TransferRead r) {
        try {
            byte[] h = MessageDigest.getInstance("SHA-256").digest(r.key().getBytes(StandardCharsets.UTF_8));
            ByteBuffer b = ByteBuffer.wrap(h);
            return new UUID(b.getLong(), b.getLong());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }

    static String encode(List<TransferSend.Origin> origins) {
        return joined(origins, o -> {
            String request = o.request() == null ? "" : o.request();
            String tenant = o.tenant() == null ? "" : o.tenant();
            return o.received() ? List.of(String.valueOf(o.from()), String.valueOf(o.to()), request, tenant,
                    o.viaTransfer() == null ? NONE : o.viaTransfer(), String.valueOf(o.viaFrom()))
                    : List.of(String.valueOf(o.from()), String.valueOf(o.to()), request, tenant);
        });
    }

    /**
     * The small text codec of stored origins and hops: items joined by {@code ORIGIN}, each item's fields by
     * {@code FIELD} (identifiers never hold control characters: the intake refuses them); null for no item.
     */
    private static <T> String joined(List<T> items, Function<T, List<String>> fields) {
        if (items.isEmpty()) {
            return null;
        }
        StringBuilder b = new StringBuilder();
        for (T item : items) {
            if (b.length() > 0) {
                b.append(ORIGIN);
            }
            List<String> f = fields.apply(item);
            for (int i = 0; i < f.size(); i++) {
                if (i > 0) {
                    b.append(FIELD);
                }
                b.append(f.get(i));
            }
        }
        return b.toString();
    }

    /** The items {@link #joined} wrote, each read from its fields by {@code item}; none for null. */
    private static <T> List<T> split(String s, Function<String[], T> item) {
        List<T> out = new ArrayList<>();
        if (s != null) {
            for (String x : s.split(String.valueOf(ORIGIN))) {
                out.add(item.apply(x.split(String.valueOf(FIELD), -1)));
            }
        }
        return out;
    }

    /** A resolution kept with a read: its via ranges (flat pairs) and its hops ({@code resolved_hops}); null: none. */
    private static Provenance.Resolution resolution(Array ranges, String hops) throws SQLException {
        if (ranges == null && hops == null) {
            return null;
        }
        List<Provenance.Hop> list = split(hops, f -> new Provenance.Hop(f[0], f[1], f[2].equals(NONE) ? null : f[2],
                Integer.parseInt(f[3]), Integer.parseInt(f[4])));
        return new Provenance.Resolution(ranges == null ? List.of() : pairs((Integer[]) ranges.getArray()), list);
    }

    /** {@code resolved_hops} of a resolution (null: no hop). */
    static String encodeHops(List<Provenance.Hop> hops) {
        return joined(hops, h -> List.of(h.request(), h.tenant(), h.transfer() == null ? NONE : h.transfer(),
                String.valueOf(h.from()), String.valueOf(h.to())));
    }

    static List<TransferSend.Origin> decode(String s) {
        // four fields: an origin written by a request (all before amendment 4); six: a received position
        return split(s, f -> new TransferSend.Origin(Integer.parseInt(f[0]), Integer.parseInt(f[1]),
                f[2].isEmpty() ? null : f[2], f[3].isEmpty() ? null : f[3],
                f.length > 5 && !f[4].equals(NONE) ? f[4] : null, f.length > 5 ? Integer.parseInt(f[5]) : -1));
    }

    /** A bound past every stored read (PostgreSQL's timestamps end in the year 294276). */
    private static final Instant WHENEVER = Instant.parse("9999-12-31T00:00:00Z");

    /** Where {@link #resolveHeld} got to: how many reads it looked at and resolved, and the last one's position. */
    public record Resolved(int looked, int resolved, Instant lastStoredAt, UUID lastKey) {
    }

    /**
     * Spec 1.3, amendment 5, at a flush: resolves the reads not resolved yet, stored before {@code storedBefore} (null:
     * all), whose ATTACH's stream and deployment {@code streams} allows (null: all), at most {@code limit} from
     * ({@code afterStoredAt}, {@code afterKey}) on (null: the first), skipping those another instance is resolving.
     * The positions of each that no stored send of its transfer covers are judged as in version 1 into {@code b}
     * ({@link Provenance#fallback}); the read is marked resolved, with those positions kept for the evidence check.
     */
    public static Resolved resolveHeld(Connection c, DetectionBuffer b, Instant storedBefore,
            BiPredicate<String, String> streams, int limit, Instant afterStoredAt, UUID afterKey) throws SQLException {
        // first the candidates, unlocked, and those of the flush's streams among them; then the transferred requests'
        // advisory locks (the order the join takes them in: locks, then rows), then the rows, skipping any another
        // instance is resolving
        Map<UUID, TransferRead> chosen = new HashMap<>();
        Instant lastAt = null;
        UUID lastKey = null;
        try (PreparedStatement ps = c.prepareStatement("select " + READ_COLUMNS + ", key, stored_at from transfer_read"
                + " where not checked and stored_at < timestamptz 'epoch' + ? * interval '1 microsecond'"
                + " and (stored_at, key) > (timestamptz 'epoch' + ? * interval '1 microsecond', ?::uuid)"
                + " order by stored_at, key limit ?")) {
            ps.setLong(1, Micros.of(storedBefore == null ? WHENEVER : storedBefore));
            ps.setLong(2, Micros.of(afterStoredAt == null ? Instant.EPOCH : afterStoredAt));
            ps.setObject(3, afterKey == null ? new UUID(Long.MIN_VALUE, Long.MIN_VALUE) : afterKey);
            ps.setInt(4, limit);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    TransferRead r = read(rs);
                    lastKey = rs.getObject(17, UUID.class);
                    lastAt = rs.getTimestamp(18).toInstant();
                    if (streams == null || streams.test(r.stream(), r.deployment())) {
                        chosen.put(lastKey, r);
                    }
                }
            }
        }
        if (chosen.isEmpty()) {
            return new Resolved(0, 0, lastAt, lastKey);
        }
        Set<String> lockVias = new TreeSet<>();
        chosen.values().forEach(r -> lockVias.add(r.via()));
        // a send committing now either is seen here or joins the read itself (the lock is the join's)
        lock(c, lockVias);
        List<TransferRead> reads = new ArrayList<>();
        List<UUID> keys = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("select " + READ_COLUMNS + ", key from transfer_read"
                + " where key = any(?) and not checked order by key for update skip locked")) {
            ps.setArray(1, c.createArrayOf("uuid", chosen.keySet().toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    reads.add(read(rs));  // as stored now: a join may have moved its place or last sight meanwhile
                    keys.add(rs.getObject(17, UUID.class));
                }
            }
        }
        int looked = keys.size();
        if (reads.isEmpty()) {
            return new Resolved(looked, 0, lastAt, lastKey);
        }
        Set<String> vias = new TreeSet<>();
        reads.forEach(r -> vias.add(r.via()));
        Chains chains = new Chains(c, lockVias);
        chains.load(vias, true);
        int resolved = 0;
        Integer[][] ranges = new Integer[reads.size()][];
        String[] hops = new String[reads.size()];
        for (int i = 0; i < reads.size(); i++) {
            TransferRead r = reads.get(i);
            Provenance.Resolution held = Provenance.held(r, chains);
            List<int[]> via = held.viaRanges();
            ranges[i] = new Integer[2 * via.size()];
            for (int k = 0; k < via.size(); k++) {
                ranges[i][2 * k] = via.get(k)[0];
                ranges[i][2 * k + 1] = via.get(k)[1];
            }
            hops[i] = encodeHops(held.hops());
            if (!held.isEmpty()) {
                Provenance.fallback(r, held, b);
                resolved++;
            }
        }
        try (PreparedStatement ps = c.prepareStatement("update transfer_read set checked = true, resolved_ranges ="
                + " ?::int[], resolved_hops = ? where key = ?::uuid")) {
            for (int i = 0; i < keys.size(); i++) {
                ps.setArray(1, ranges[i].length == 0 ? null : c.createArrayOf("int4", ranges[i]));
                ps.setString(2, hops[i]);
                ps.setObject(3, keys.get(i));
                ps.addBatch();
            }
            ps.executeBatch();
        }
        return new Resolved(looked, resolved, lastAt, lastKey);
    }

    private static List<int[]> pairs(Integer[] flat) {
        List<int[]> out = new ArrayList<>();
        for (int i = 0; i + 1 < flat.length; i += 2) {
            out.add(new int[] {flat[i], flat[i + 1]});
        }
        return out;
    }

    /**
     * For the evidence check: the stored reads made on these (stream, boot) pairs that a flush resolved, each with the
     * via positions it judged as in version 1 then.
     */
    public static Map<TransferRead, Provenance.Resolution> resolvedReads(Connection c, List<String> streams,
            List<String> boots) throws SQLException {
        Map<TransferRead, Provenance.Resolution> out = new HashMap<>();
        if (streams.isEmpty()) {
            return out;
        }
        try (PreparedStatement ps = c.prepareStatement("select " + READ_COLUMNS + ", resolved_ranges, resolved_hops"
                + " from transfer_read t join unnest(?::text[], ?::text[]) as u(st, bt) on t.stream = u.st"
                + " and t.boot = u.bt where resolved_ranges is not null or resolved_hops is not null")) {
            ps.setArray(1, c.createArrayOf("text", streams.toArray()));
            ps.setArray(2, c.createArrayOf("text", boots.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(read(rs), resolution(rs.getArray(17), rs.getString(18)));
                }
            }
        }
        return out;
    }

    /**
     * For tests: the stored reads by readers whose id starts with {@code prefix} that a send does not cover yet (they
     * are not judged until it comes).
     */
    public static int unresolvedReads(Connection c, String prefix) throws SQLException {
        int n = 0;
        try (PreparedStatement ps = c.prepareStatement(
                "select distinct via from transfer_read where starts_with(reader, ?)")) {
            ps.setString(1, prefix);
            Set<String> vias = new TreeSet<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    vias.add(rs.getString(1));
                }
            }
            Map<String, List<TransferRead>> reads = reads(c, vias);
            Chains chains = new Chains(c, Set.of());
            chains.load(vias, false);
            for (List<TransferRead> list : reads.values()) {
                for (TransferRead r : list) {
                    n += Provenance.held(r, chains).isEmpty() ? 0 : 1;
                }
            }
        }
        return n;
    }
}
