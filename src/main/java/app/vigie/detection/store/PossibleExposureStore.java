package app.vigie.detection.store;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import app.vigie.db.Micros;
import app.vigie.detection.core.ExposureRead;
import app.vigie.detection.core.Ranges;

/**
 * Spec 1.3, amendment 3: exposures that only a write to a slot in flight gives (the content read is uncertain), kept
 * in {@code possible_exposure} (V35), apart from the certain ones in {@code exposure}. A pair (incident, reader,
 * victim) is in one table at most: a certain read of a pair with a possible row takes that row's positions into
 * {@code exposure} ({@link #promote}); a possible read of a pair already certain adds its positions there
 * ({@link #write}). Called by {@link DetectionStore#write} with the incidents locked.
 */
final class PossibleExposureStore {
    private PossibleExposureStore() {
    }

    /** Where an exposure is stored: (incident, reader, victim). */
    private record Pair(UUID incident, String reader, String victim) {
    }

    /**
     * Before the certain exposures of the buffer are written: the possible rows of their pairs are deleted and their
     * positions and times merged into them (the exposure is certain now, with every position read).
     */
    static void promote(Connection c, DetectionBuffer b, Map<String, UUID> incidents) throws SQLException {
        if (b.exposures.isEmpty()) {
            return;
        }
        Map<Pair, String> keys = new HashMap<>();
        b.exposures.forEach((key, e) -> keys.put(new Pair(incidents.get(e.deployment()), e.readerRequest(),
                e.victimRequest()), key));
        List<Pair> pairs = new ArrayList<>(keys.keySet());
        try (PreparedStatement ps = c.prepareStatement("""
                delete from possible_exposure p using unnest(?::uuid[], ?::text[], ?::text[]) as u(i, r, v)
                where p.incident_id = u.i and p.reader_request = u.r and p.victim_request = u.v
                returning p.incident_id, p.reader_request, p.victim_request, p.positions, p.first_seen_at,
                  p.last_seen_at""")) {
            bindPairs(c, ps, pairs);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String key = keys.get(new Pair(rs.getObject(1, UUID.class), rs.getString(2), rs.getString(3)));
                    ExposureRead e = b.exposures.get(key);
                    ExposureRead stored = new ExposureRead(e.deployment(), e.kind(), e.readerRequest(),
                            e.readerTenant(), e.victimRequest(), e.victimTenant(), ranges(rs.getArray(4)),
                            rs.getTimestamp(5).toInstant(), rs.getTimestamp(6).toInstant(), e.stream(), e.boot(),
                            e.seq(), true);
                    b.exposures.put(key, e.merge(stored));
                }
            }
        }
    }

    /**
     * Writes possible exposures: those of a pair already certain add their positions to its {@code exposure} row;
     * the others are united with their {@code possible_exposure} row, or make it. Returns, per incident, the tenants
     * of the pairs made (the victim, and the reader of a cross-tenant one): they may need a customer alert, which
     * tells them possibly read.
     */
    static Map<UUID, Set<String>> write(Connection c, List<ExposureRead> possible, Map<String, UUID> incidents)
            throws SQLException {
        Map<UUID, Set<String>> touched = new HashMap<>();
        if (possible.isEmpty()) {
            return touched;
        }
        Set<Pair> certain = new HashSet<>();
        try (PreparedStatement ps = c.prepareStatement("""
                update exposure e set positions = vigie_ranges_union(e.positions, u.p::integer[]),
                  tokens = greatest(e.tokens, vigie_ranges_size(vigie_ranges_union(e.positions, u.p::integer[]))),
                  first_seen_at = least(e.first_seen_at, timestamptz 'epoch' + u.f * interval '1 microsecond'),
                  last_seen_at = greatest(e.last_seen_at, timestamptz 'epoch' + u.l * interval '1 microsecond')
                from unnest(?::uuid[], ?::text[], ?::text[], ?::text[], ?::bigint[], ?::bigint[]) as u(i, r, v, p, f, l)
                where e.incident_id = u.i and e.reader_request = u.r and e.victim_request = u.v
                returning e.incident_id, e.reader_request, e.victim_request""")) {
            List<Pair> pairs = new ArrayList<>();
            possible.forEach(e -> pairs.add(new Pair(incidents.get(e.deployment()), e.readerRequest(),
                    e.victimRequest())));
            bindPairs(c, ps, pairs);
            ps.setArray(4, c.createArrayOf("text", possible.stream().map(e -> DetectionStore.text(e.positions()))
                    .toArray()));
            ps.setArray(5, c.createArrayOf("bigint", possible.stream().map(e -> Micros.of(
                    e.firstSeenAt())).toArray()));
            ps.setArray(6, c.createArrayOf("bigint", possible.stream().map(e -> Micros.of(e.attachAt()))
                    .toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    certain.add(new Pair(rs.getObject(1, UUID.class), rs.getString(2), rs.getString(3)));
                }
            }
        }
        List<ExposureRead> rest = possible.stream().filter(e -> !certain.contains(new Pair(incidents.get(
                e.deployment()), e.readerRequest(), e.victimRequest()))).toList();
        if (rest.isEmpty()) {
            return touched;
        }
        try (PreparedStatement ps = c.prepareStatement("""
                insert into possible_exposure as x (incident_id, kind, reader_request, reader_tenant, victim_request,
                  victim_tenant, positions, tokens, first_seen_at, last_seen_at)
                select i, k, r, rt, v, vt, p::integer[], vigie_ranges_size(p::integer[]),
                  timestamptz 'epoch' + f * interval '1 microsecond', timestamptz 'epoch' + l * interval '1 microsecond'
                from unnest(?::uuid[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::bigint[],
                  ?::bigint[]) as u(i, k, r, rt, v, vt, p, f, l)
                order by 1, 3, 5
                on conflict (incident_id, reader_request, victim_request) do update set
                  positions = vigie_ranges_union(x.positions, excluded.positions),
                  tokens = vigie_ranges_size(vigie_ranges_union(x.positions, excluded.positions)),
                  first_seen_at = least(x.first_seen_at, excluded.first_seen_at),
                  last_seen_at = greatest(x.last_seen_at, excluded.last_seen_at)
                returning incident_id, victim_tenant, reader_tenant, kind, xmax = 0""")) {
            ps.setArray(1, c.createArrayOf("uuid", rest.stream().map(e -> incidents.get(e.deployment())).toArray()));
            ps.setArray(2, c.createArrayOf("text", rest.stream().map(e -> e.kind().name()).toArray()));
            ps.setArray(3, c.createArrayOf("text", rest.stream().map(ExposureRead::readerRequest).toArray()));
            ps.setArray(4, c.createArrayOf("text", rest.stream().map(ExposureRead::readerTenant).toArray()));
            ps.setArray(5, c.createArrayOf("text", rest.stream().map(ExposureRead::victimRequest).toArray()));
            ps.setArray(6, c.createArrayOf("text", rest.stream().map(ExposureRead::victimTenant).toArray()));
            ps.setArray(7, c.createArrayOf("text", rest.stream().map(e -> DetectionStore.text(e.positions()))
                    .toArray()));
            ps.setArray(8, c.createArrayOf("bigint", rest.stream().map(e -> Micros.of(e.firstSeenAt()))
                    .toArray()));
            ps.setArray(9, c.createArrayOf("bigint", rest.stream().map(e -> Micros.of(e.attachAt()))
                    .toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if (rs.getBoolean(5)) {  // inserted: a pair new to the incident
                        Set<String> tenants = touched.computeIfAbsent(rs.getObject(1, UUID.class),
                                k -> new HashSet<>());
                        tenants.add(rs.getString(2));
                        if ("CROSS_TENANT".equals(rs.getString(4))) {
                            tenants.add(rs.getString(3));
                        }
                    }
                }
            }
        }
        return touched;
    }

    private static void bindPairs(Connection c, PreparedStatement ps, List<Pair> pairs) throws SQLException {
        ps.setArray(1, c.createArrayOf("uuid", pairs.stream().map(Pair::incident).toArray()));
        ps.setArray(2, c.createArrayOf("text", pairs.stream().map(Pair::reader).toArray()));
        ps.setArray(3, c.createArrayOf("text", pairs.stream().map(Pair::victim).toArray()));
    }

    private static Ranges ranges(Array positions) throws SQLException {
        Integer[] flat = (Integer[]) positions.getArray();
        int[] bounds = new int[flat.length];
        for (int i = 0; i < flat.length; i++) {
            bounds[i] = flat[i];
        }
        return Ranges.of(bounds);
    }
}
