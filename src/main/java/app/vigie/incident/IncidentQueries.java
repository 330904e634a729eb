package app.vigie.incident;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.BiConsumer;
import java.util.stream.Stream;

import app.vigie.tenant.TenantEntry;

/**
 * Reads of incidents, their exposures, tenants and findings, counted exactly as api.md defines. The overview's own
 * reads are {@link OverviewQueries}; the dashboard's change channel is {@link ChangeQueries}.
 */
public final class IncidentQueries {
    /**
     * An incident with its counts, read from the counters the intake keeps (V23) rather than recounted over its
     * exposures: one row per incident.
     */
    private static final String SELECT = """
            select i.id, i.deployment, i.status, i.status_reason, i.detected_at, i.first_exposure_at,
              i.last_exposure_at, coalesce(cardinality(n.victim_tenants) > 0, false)
                or exists (select 1 from case_decision d where d.incident_id = i.id and d.tenant = ''
                  and d.decision = 'possible_exposures_breach' and d.value)
                  and exists (select 1 from possible_exposure p where p.incident_id = i.id),
              coalesce(n.leaked_responses, 0), coalesce(n.victim_tenants, '{}'), coalesce(n.recipient_tenants, '{}')
            from incident i left join incident_counter n on n.incident_id = i.id""";

    /** An incident still open, whose clocks run: neither dismissed nor closed (SQL, on {@code incident}). */
    public static final String RUNNING = "status not in ('CLOSED', 'DISMISSED')";

    private IncidentQueries() {
    }

    public static List<IncidentView> list(Connection c, String status) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(SELECT
                + " where (?::text is null or i.status = ?) order by i.detected_at desc, i.id")) {
            ps.setString(1, status);
            ps.setString(2, status);
            return views(c, ps);
        }
    }

    /** A page of {@link #list(Connection, String)}. */
    public static List<IncidentView> list(Connection c, String status, int limit, int offset) throws SQLException {
        return page(c, " where (?::text is null or i.status = ?)", limit, offset, status, status);
    }

    /**
     * A page of {@link #list(Connection, String)} in keyset form: at most {@code limit} incidents that come after the
     * incident {@code after} in the list's order (null: from the first). Empty when {@code after} is no incident.
     */
    public static Optional<List<IncidentView>> listAfter(Connection c, String status, UUID after, int limit)
            throws SQLException {
        if (after != null && !exists(c, after)) {
            return Optional.empty();
        }
        return Optional.of(page(c, " where (?::text is null or i.status = ?) and (?::uuid is null or exists (select 1"
                + " from incident a where a.id = ? and (i.detected_at < a.detected_at or (i.detected_at ="
                + " a.detected_at and i.id > a.id))))", limit, 0, status, status, after, after));
    }

    /**
     * A page of the incidents {@code where} selects, newest first. The page is chosen first: the select list's counts
     * are then made for its rows only, not for those skipped.
     */
    static List<IncidentView> page(Connection c, String where, int limit, int offset, Object... params)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(SELECT + " join (select i.id from incident i" + where
                + " order by i.detected_at desc, i.id limit ? offset ?) p on p.id = i.id"
                + " order by i.detected_at desc, i.id")) {
            int k = 1;
            for (Object p : params) {
                ps.setObject(k++, p);
            }
            ps.setInt(k++, limit);
            ps.setInt(k, offset);
            return views(c, ps);
        }
    }

    /** How many incidents are still open (neither closed nor dismissed). */
    public static Optional<IncidentView> get(Connection c, UUID id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(SELECT + " where i.id = ?")) {
            ps.setObject(1, id);
            return views(c, ps).stream().findFirst();
        }
    }

    public static boolean exists(Connection c, UUID id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("select 1 from incident where id = ?")) {
            ps.setObject(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    /** One row of {@link #SELECT}. */
    private record Row(UUID id, String deployment, String status, String reason, Instant detectedAt,
            Instant firstExposureAt, Instant lastExposureAt, boolean breach, long leaked, List<String> victims,
            List<String> recipients) {
    }

    private static List<IncidentView> views(Connection c, PreparedStatement ps) throws SQLException {
        List<Row> rows = new ArrayList<>();
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                rows.add(new Row(rs.getObject(1, UUID.class), rs.getString(2), rs.getString(3), rs.getString(4),
                        instant(rs.getTimestamp(5)), instant(rs.getTimestamp(6)), instant(rs.getTimestamp(7)),
                        rs.getBoolean(8), rs.getLong(9), strings(rs.getArray(10)), strings(rs.getArray(11))));
            }
        }
        Map<UUID, Map<String, Long>> counts = findingCounts(c, rows.stream().map(Row::id).toList());
        Map<UUID, Possible> possible = possible(c, rows.stream().map(Row::id).toList());
        Set<String> affected = new HashSet<>();
        rows.forEach(r -> {
            affected.addAll(r.victims());
            affected.addAll(r.recipients());
            Possible p = possible.get(r.id());
            if (p != null) {
                affected.addAll(p.victims());
                affected.addAll(p.recipients());
            }
        });
        Set<String> mapped = TenantEntry.legalNames(affected).keySet();
        List<IncidentView> out = new ArrayList<>();
        for (Row r : rows) {
            Possible p = possible.getOrDefault(r.id(), Possible.NONE);
            List<String> possibleVictims = p.victims().stream().filter(t -> !r.victims().contains(t)).sorted()
                    .toList();
            List<String> possibleRecipients = p.recipients().stream().filter(t -> !r.recipients().contains(t))
                    .sorted().toList();
            List<String> unmapped = Stream.of(r.victims(), r.recipients(), possibleVictims, possibleRecipients)
                    .flatMap(List::stream).distinct().sorted().filter(t -> !mapped.contains(t)).toList();
            out.add(new IncidentView(r.id(), r.deployment(), r.status(),
                    r.breach() ? "PERSONAL_DATA_BREACH" : "SECURITY_EVENT", r.firstExposureAt(), r.lastExposureAt(),
                    r.detectedAt(), r.leaked(), r.victims(), r.recipients(), counts.getOrDefault(r.id(), Map.of()),
                    r.reason(), unmapped, p.leaked(), possibleVictims, possibleRecipients));
        }
        return out;
    }

    /** What an incident's possible exposures add (V35): their victim and recipient tenants, their leaked responses. */
    private record Possible(List<String> victims, List<String> recipients, long leaked) {
        static final Possible NONE = new Possible(List.of(), List.of(), 0);
    }

    /**
     * Per incident with possible exposures: their tenants, and the delivered readers of a possible cross-tenant
     * exposure that are not already leaked responses of the incident (a response counts once, as certain if it is).
     */
    private static Map<UUID, Possible> possible(Connection c, List<UUID> ids) throws SQLException {
        Map<UUID, Possible> out = new HashMap<>();
        if (ids.isEmpty()) {
            return out;
        }
        try (PreparedStatement ps = c.prepareStatement("""
                select p.incident_id, array_agg(distinct p.victim_tenant), array_agg(distinct p.reader_tenant),
                  count(distinct p.reader_request) filter (where p.kind = 'CROSS_TENANT' and f.finished
                    and f.delivered and not exists (select 1 from incident_leaked_response l
                      where l.incident_id = p.incident_id and l.reader_request = p.reader_request))
                from possible_exposure p left join request_fact f on f.request = p.reader_request
                where p.incident_id = any(?) group by 1""")) {
            ps.setArray(1, c.createArrayOf("uuid", ids.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getObject(1, UUID.class), new Possible(strings(rs.getArray(2)),
                            strings(rs.getArray(3)), rs.getLong(4)));
                }
            }
        }
        return out;
    }

    private static Map<UUID, Map<String, Long>> findingCounts(Connection c, List<UUID> ids) throws SQLException {
        Map<UUID, Map<String, Long>> counts = new HashMap<>();
        if (ids.isEmpty()) {
            return counts;
        }
        try (PreparedStatement ps = c.prepareStatement("""
                select incident_id, rule, findings from incident_finding_count
                where incident_id = any(?) and findings > 0""")) {
            ps.setArray(1, c.createArrayOf("uuid", ids.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    counts.computeIfAbsent(rs.getObject(1, UUID.class), k -> new TreeMap<>())
                            .put(rs.getString(2), rs.getLong(3));
                }
            }
        }
        return counts;
    }

    public static List<ExposureView> exposures(Connection c, UUID id) throws SQLException {
        return exposures(c, id, null, null, Integer.MAX_VALUE);
    }

    /**
     * The incident's exposures that concern {@code tenant}: its requests read (cross or intra), and its requests that
     * read another tenant's; in the order of {@link #exposures(Connection, UUID)}. Read through the indexes by
     * victim and by reader tenant, so that one customer's document does not read the whole incident.
     */
    public static List<ExposureView> exposuresOf(Connection c, UUID id, String tenant) throws SQLException {
        return ofTenant(c, id, tenant, OWN, "exposure", "false");
    }

    /** The exposures a processor alert tells a tenant: its victim requests', and its readers' of another tenant. */
    private static final String OWN = "and (e.victim_tenant = ? or (e.reader_tenant = ? and e.kind = 'CROSS_TENANT'))";

    /**
     * As {@link #exposuresOf}, the possible exposures (spec 1.3, amendment 3; V35): those a processor alert tells the
     * controller as possibly read, apart from the certain ones.
     */
    public static List<ExposureView> possibleExposuresOf(Connection c, UUID id, String tenant) throws SQLException {
        return ofTenant(c, id, tenant, OWN, "possible_exposure", "true");
    }

    /**
     * The incident's exposures whose victim or reader is {@code tenant} (its id matched exactly), whatever their
     * kind, in the order of {@link #exposures(Connection, UUID)}, the possible ones among them marked: a controller's
     * regulator pack reads these, never the whole incident's (issue 41).
     */
    public static List<ExposureView> exposuresTouching(Connection c, UUID id, String tenant) throws SQLException {
        return ofTenant(c, id, tenant, "and (e.victim_tenant = ? or e.reader_tenant = ?)", WITH_POSSIBLE,
                "e.possible");
    }

    /**
     * The exposures of {@code relation} ({@code exposure}, {@code possible_exposure} or {@link #WITH_POSSIBLE}, whose
     * possible column is {@code possible}) that {@code condition}, binding the tenant twice, selects.
     */
    private static List<ExposureView> ofTenant(Connection c, UUID id, String tenant, String condition,
            String relation, String possible) throws SQLException {
        List<ExposureView> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(EXPOSURES.formatted(condition, "", relation, possible))) {
            ps.setObject(1, id);
            ps.setString(2, tenant);
            ps.setString(3, tenant);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(exposure(rs));
                }
            }
        }
        return out;
    }

    /**
     * The incident's exposures in their order (reader, then victim request, by code point), from the first after the
     * pair ({@code afterReader}, {@code afterVictim}) (null: from the first), at most {@code limit}: a walk of the
     * index exposure_pair (V23).
     */
    public static List<ExposureView> exposures(Connection c, UUID id, String afterReader, String afterVictim,
            int limit) throws SQLException {
        return exposures(c, id, afterReader, afterVictim, limit, false);
    }

    /**
     * As {@link #exposures(Connection, UUID, String, String, int)}, with the possible exposures among them when
     * {@code withPossible} (spec 1.3, amendment 3: {@code possible} true; api.md's {@code GET …/exposures}). Every
     * other reader of exposures (documents, counts, pages) gets the certain ones only, and the possible ones apart.
     */
    public static List<ExposureView> exposures(Connection c, UUID id, String afterReader, String afterVictim,
            int limit, boolean withPossible) throws SQLException {
        List<ExposureView> out = new ArrayList<>();
        // the pair's condition only when there is one: a plan made for "null or ..." would not walk the index
        try (PreparedStatement ps = c.prepareStatement(EXPOSURES.formatted(afterReader == null ? ""
                : "and (e.reader_request collate \"C\", e.victim_request collate \"C\") > (?::text, ?::text)",
                "limit ?", withPossible ? WITH_POSSIBLE : "exposure", withPossible ? "e.possible" : "false"))) {
            int k = 1;
            ps.setObject(k++, id);
            if (afterReader != null) {
                ps.setString(k++, afterReader);
                ps.setString(k++, afterVictim);
            }
            ps.setInt(k, limit);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(exposure(rs));
                }
            }
        }
        return out;
    }

    /**
     * Tokens read from one tenant by another, of one kind ({@code intra}: the same tenant's, or an intra-tenant
     * exposure) and one fate of the response ({@code delivered} true, false, or null while unknown).
     */
    public record PairTokens(String victimTenant, String readerTenant, boolean intra, Boolean delivered,
            long tokens, boolean possible) {
        /** Tokens of certain exposures. */
        public PairTokens(String victimTenant, String readerTenant, boolean intra, Boolean delivered, long tokens) {
            this(victimTenant, readerTenant, intra, delivered, tokens, false);
        }
    }

    /**
     * A response that carried another tenant's tokens: its request, when it first read them, whether delivered;
     * {@code possible}: it may have (spec 1.3, amendment 3), no certain exposure of it says so.
     */
    public record Leak(String readerRequest, Instant firstSeenAt, boolean delivered, boolean possible) {
        public Leak(String readerRequest, Instant firstSeenAt, boolean delivered) {
            this(readerRequest, firstSeenAt, delivered, false);
        }
    }

    /**
     * What the incident page and the documents show of an incident's exposures, summed: the affected tenants (sorted,
     * with their controllers), the tokens per pair of tenants, kind and fate (the matrix), and the leaking responses
     * (the picture).
     */
    public record ExposureSums(List<TenantView> tenants, List<PairTokens> pairs, List<Leak> leaks) {
    }

    /** A pair of tenants, a kind and a fate: what {@link PairTokens} sums tokens per. */
    private record Pair(String victim, String reader, boolean intra, Boolean delivered) {
    }

    /**
     * The incident's {@link ExposureSums}, from one pass over its exposures that the database groups per reader
     * request and victim tenant before the readers' facts are joined (an incident of a million exposures read by a
     * thousand requests gives some twenty thousand rows), and the distinct requests exposed per tenant from the
     * counts the intake keeps (V13). Nothing here is read into memory per exposure.
     */
    public static ExposureSums exposureSums(Connection c, UUID id) throws SQLException {
        return exposureSums(c, id, false);
    }

    /**
     * As {@link #exposureSums(Connection, UUID)}; with {@code withPossible}, the possible exposures (V35) too, apart:
     * their tokens in the tenants' possible counts (a tenant touched by them only is listed), their pairs marked
     * possible, and the readers of a possible cross-tenant exposure that no certain one makes a leak as possible leaks.
     * Documents take the certain ones only (they say what is established); the API and the incident page both.
     */
    public static ExposureSums exposureSums(Connection c, UUID id, boolean withPossible) throws SQLException {
        Map<String, long[]> tokens = new TreeMap<>();             // tenant: [as victim, as reader, possibly so]
        Map<String, Set<String>> roles = new HashMap<>();
        Map<String, Set<String>> responses = new HashMap<>();     // reader tenant: its delivered cross readers
        Map<Pair, Long> pairs = new LinkedHashMap<>();
        Map<String, Instant> firstLeak = new HashMap<>();
        Map<String, Boolean> delivered = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("""
                select x.reader_request, x.reader_tenant, x.victim_tenant, x.intra, x.tokens, x.first_cross,
                  case when f.finished then f.delivered end
                from (select reader_request, reader_tenant, victim_tenant,
                        kind = 'INTRA_TENANT' or victim_tenant = reader_tenant as intra, sum(tokens) as tokens,
                        min(first_seen_at) filter (where kind = 'CROSS_TENANT') as first_cross
                      from exposure where incident_id = ? group by 1, 2, 3, 4) x
                left join request_fact f on f.request = x.reader_request""")) {
            ps.setObject(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String reader = rs.getString(1);
                    String readerTenant = rs.getString(2);
                    String victimTenant = rs.getString(3);
                    boolean intra = rs.getBoolean(4);
                    long n = rs.getLong(5);
                    Timestamp firstCross = rs.getTimestamp(6);
                    Boolean fate = rs.getBoolean(7);
                    if (rs.wasNull()) {
                        fate = null;
                    }
                    tokens.computeIfAbsent(victimTenant, t -> new long[4])[0] += n;
                    tokens.computeIfAbsent(readerTenant, t -> new long[4])[1] += n;
                    roles.computeIfAbsent(victimTenant, t -> new HashSet<>()).add("VICTIM");
                    roles.computeIfAbsent(readerTenant, t -> new HashSet<>()).add("RECIPIENT");
                    pairs.merge(new Pair(victimTenant, readerTenant, intra, fate), n, Long::sum);
                    if (firstCross != null) {
                        firstLeak.merge(reader, firstCross.toInstant(), (a, b) -> a.isBefore(b) ? a : b);
                        delivered.put(reader, Boolean.TRUE.equals(fate));
                        if (Boolean.TRUE.equals(fate)) {
                            responses.computeIfAbsent(readerTenant, t -> new HashSet<>()).add(reader);
                        }
                    }
                }
            }
        }
        Map<String, Long> exposed = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement(
                "select tenant, exposed_requests from incident_tenant_exposure where incident_id = ?")) {
            ps.setObject(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    exposed.put(rs.getString(1), rs.getLong(2));
                }
            }
        }
        // spec 1.3, amendment 3: the possible exposures, apart (tokens[2] as victim, [3] as reader)
        Map<Pair, Long> possiblePairs = new LinkedHashMap<>();
        Map<String, Instant> possibleLeak = new HashMap<>();
        Map<String, Boolean> possiblyDelivered = new HashMap<>();
        if (withPossible) {
            try (PreparedStatement ps = c.prepareStatement("""
                    select p.reader_request, p.reader_tenant, p.victim_tenant,
                      p.kind = 'INTRA_TENANT' or p.victim_tenant = p.reader_tenant, p.tokens,
                      case when p.kind = 'CROSS_TENANT' then p.first_seen_at end, case when f.finished then f.delivered end
                    from possible_exposure p left join request_fact f on f.request = p.reader_request
                    where p.incident_id = ?""")) {
                ps.setObject(1, id);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        String reader = rs.getString(1);
                        long n = rs.getLong(5);
                        Boolean fate = rs.getBoolean(7);
                        if (rs.wasNull()) {
                            fate = null;
                        }
                        tokens.computeIfAbsent(rs.getString(3), t -> new long[4])[2] += n;
                        tokens.computeIfAbsent(rs.getString(2), t -> new long[4])[3] += n;
                        roles.computeIfAbsent(rs.getString(3), t -> new HashSet<>()).add("VICTIM");
                        roles.computeIfAbsent(rs.getString(2), t -> new HashSet<>()).add("RECIPIENT");
                        possiblePairs.merge(new Pair(rs.getString(3), rs.getString(2), rs.getBoolean(4), fate), n,
                                Long::sum);
                        Timestamp firstCross = rs.getTimestamp(6);
                        if (firstCross != null && !firstLeak.containsKey(reader)) {
                            possibleLeak.merge(reader, firstCross.toInstant(), (a, b) -> a.isBefore(b) ? a : b);
                            possiblyDelivered.put(reader, Boolean.TRUE.equals(fate));
                        }
                    }
                }
            }
        }
        Map<String, String> names = TenantEntry.legalNames(List.copyOf(tokens.keySet()));
        List<TenantView> tenants = new ArrayList<>();
        tokens.forEach((tenant, t) -> tenants.add(new TenantView(tenant, roles.get(tenant).stream().sorted().toList(),
                roles.get(tenant).contains("VICTIM") ? exposed.getOrDefault(tenant, 0L) : 0, t[0], t[1],
                responses.getOrDefault(tenant, Set.of()).size(), false, null, t[2], t[3])
                .withController(names.get(tenant))));
        List<PairTokens> sums = new ArrayList<>();
        pairs.forEach((k, n) -> sums.add(new PairTokens(k.victim(), k.reader(), k.intra(), k.delivered(), n)));
        possiblePairs.forEach((k, n) -> sums.add(new PairTokens(k.victim(), k.reader(), k.intra(), k.delivered(), n,
                true)));
        List<Leak> leaks = new ArrayList<>();
        firstLeak.forEach((reader, at) -> leaks.add(new Leak(reader, at, delivered.get(reader))));
        possibleLeak.forEach((reader, at) -> leaks.add(new Leak(reader, at, possiblyDelivered.get(reader), true)));
        return new ExposureSums(tenants, sums, leaks);
    }

    /**
     * The affected tenants of an incident with their controllers, sorted by tenant ({@link #exposureSums}): those of
     * certain exposures, as documents state them.
     */
    public static List<TenantView> tenants(Connection c, UUID id) throws SQLException {
        return exposureSums(c, id).tenants();
    }

    /** As {@link #tenants(Connection, UUID)}, with the possible exposures' counts and tenants (api.md 1.3). */
    public static List<TenantView> tenantsWithPossible(Connection c, UUID id) throws SQLException {
        return exposureSums(c, id, true).tenants();
    }

    /** Per rule: how many findings the incident has and when the first was seen. */
    public record FindingCount(String rule, long findings, Instant firstSeenAt) {
    }

    public static List<FindingCount> findingCounts(Connection c, UUID id) throws SQLException {
        List<FindingCount> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(
                "select rule, count(*), min(seen_at) from finding where incident_id = ? group by 1 order by 1")) {
            ps.setObject(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new FindingCount(rs.getString(1), rs.getLong(2), instant(rs.getTimestamp(3))));
                }
            }
        }
        return out;
    }

    /** One page of the incident's findings in their order (by id): {@code limit} from the {@code offset}-th. */
    public static List<FindingView> findingsPage(Connection c, UUID id, int offset, int limit) throws SQLException {
        List<FindingView> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(FINDING_COLUMNS
                + " from finding where incident_id = ? order by id limit ? offset ?")) {
            ps.setObject(1, id);
            ps.setInt(2, limit);
            ps.setInt(3, offset);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(finding(rs));
                }
            }
        }
        return out;
    }

    public static List<FindingView> findings(Connection c, UUID id) throws SQLException {
        return findings(c, id, 0, Integer.MAX_VALUE);
    }

    /**
     * The incident's findings in their order (by id), from the first after the finding {@code after} (0: from the
     * first), at most {@code limit}.
     */
    public static List<FindingView> findings(Connection c, UUID id, long after, int limit) throws SQLException {
        List<FindingView> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(FINDING_COLUMNS
                + " from finding where incident_id = ? and id > ? order by id limit ?")) {
            ps.setObject(1, id);
            ps.setLong(2, after);
            ps.setInt(3, limit);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(finding(rs));
                }
            }
        }
        return out;
    }

    /**
     * The incident's findings grouped by subject (in code point order), each subject once with its rules and when each
     * was seen: what root-cause hints are matched on. Streams the rows: an incident may have many.
     */
    public static void findingsBySubject(Connection c, UUID id, BiConsumer<String, Map<String, Instant>> each)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                select subject, rule, seen_at from finding where incident_id = ?
                order by subject collate "C", rule""")) {
            ps.setObject(1, id);
            ps.setFetchSize(10_000);
            try (ResultSet rs = ps.executeQuery()) {
                String subject = null;
                Map<String, Instant> rules = new HashMap<>();
                while (rs.next()) {
                    String s = rs.getString(1);
                    if (subject != null && !subject.equals(s)) {
                        each.accept(subject, rules);
                        rules = new HashMap<>();
                    }
                    subject = s;
                    rules.put(rs.getString(2), instant(rs.getTimestamp(3)));
                }
                if (subject != null) {
                    each.accept(subject, rules);
                }
            }
        }
    }

    /**
     * An incident's exposures with the delivery of their reader's response, in their order (reader, then victim
     * request, by code point): the first parameter is the incident; {@code %1$s} adds conditions, {@code %2$s} a limit,
     * {@code %3$s} is the relation ({@code exposure}, or {@link #WITH_POSSIBLE}) and {@code %4$s} its possible column.
     */
    private static final String EXPOSURES = """
            select e.kind, e.victim_tenant, e.victim_request, e.reader_tenant, e.reader_request, e.tokens,
              e.first_seen_at, case when f.finished then f.delivered end, %4$s
            from %3$s e left join request_fact f on f.request = e.reader_request
            where e.incident_id = ? %1$s
            order by e.reader_request collate "C", e.victim_request collate "C"
            %2$s""";

    /**
     * The certain and the possible exposures (V35) as one relation for {@link #EXPOSURES}; a pair is in one table at
     * most. Its conditions are pushed into both branches, and the order merges their indexes.
     */
    private static final String WITH_POSSIBLE = """
            (select incident_id, kind, victim_tenant, victim_request, reader_tenant, reader_request, tokens,
               first_seen_at, false as possible from exposure
             union all
             select incident_id, kind, victim_tenant, victim_request, reader_tenant, reader_request, tokens,
               first_seen_at, true from possible_exposure)""";

    /** An exposure from the columns of {@link #EXPOSURES}. */
    private static ExposureView exposure(ResultSet rs) throws SQLException {
        // unknown until a FINISH of the reader is applied: null, never false (read before wasNull)
        Boolean delivered = rs.getBoolean(8);
        if (rs.wasNull()) {
            delivered = null;
        }
        return new ExposureView(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
                rs.getLong(6), instant(rs.getTimestamp(7)), delivered, rs.getBoolean(9));
    }

    private static final String FINDING_COLUMNS =
            "select id, rule, subject, deployment, stream, boot, first_seq, last_seq, detail, seen_at, recorded_at";

    private static FindingView finding(ResultSet rs) throws SQLException {
        return new FindingView(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
                rs.getString(6), rs.getLong(7), rs.getLong(8), rs.getString(9), instant(rs.getTimestamp(10)),
                instant(rs.getTimestamp(11)));
    }

    /** The incident {@code uuid} (asked for as {@code id}) if {@code tenant} is affected by it; 404 otherwise. */
    public static IncidentView affected(Connection c, UUID uuid, String id, String tenant) throws SQLException {
        return IncidentIds.affected(get(c, uuid).orElseThrow(() -> IncidentIds.notFound(id)), tenant);
    }

    /**
     * As {@link #affected}, a tenant touched by possible exposures only too (spec 1.3, amendment 3): for the processor
     * alert, which tells them as possibly read; a document stating a breach has happened is not made for it.
     */
    public static IncidentView affectedOrPossibly(Connection c, UUID uuid, String id, String tenant)
            throws SQLException {
        IncidentView incident = get(c, uuid).orElseThrow(() -> IncidentIds.notFound(id));
        return IncidentIds.possiblyAffected(incident, tenant) ? incident : IncidentIds.affected(incident, tenant);
    }

    private static Instant instant(Timestamp t) {
        return t == null ? null : t.toInstant();
    }

    private static List<String> strings(Array a) throws SQLException {
        return a == null ? List.of() : Arrays.asList((String[]) a.getArray());
    }

    /**
     * The incidents touching the tenant, newest first; {@code only}: that one alone, if it does. A possible exposure
     * touches it too (spec 1.3, amendment 3): its alert sends the customer to its portal.
     */
    public static List<UUID> touching(Connection c, String tenant, UUID only) throws SQLException {
        List<UUID> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                select i.id from incident i where (?::uuid is null or i.id = ?)
                  and (exists (select 1 from exposure e where e.incident_id = i.id
                    and (e.victim_tenant = ? or (e.reader_tenant = ? and e.kind = 'CROSS_TENANT')))
                  or exists (select 1 from possible_exposure e where e.incident_id = i.id
                    and (e.victim_tenant = ? or (e.reader_tenant = ? and e.kind = 'CROSS_TENANT'))))
                order by i.detected_at desc""")) {
            ps.setObject(1, only);
            ps.setObject(2, only);
            ps.setString(3, tenant);
            ps.setString(4, tenant);
            ps.setString(5, tenant);
            ps.setString(6, tenant);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getObject(1, UUID.class));
                }
            }
        }
        return out;
    }
}
