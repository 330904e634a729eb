package app.vigie.detection.store;

import java.nio.charset.StandardCharsets;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;

import app.vigie.auditlog.intake.CanonicalJson;
import app.vigie.auditlog.store.QuarantineStore;
import app.vigie.db.Micros;
import app.vigie.detection.core.ExposureKind;
import app.vigie.detection.core.ExposureRead;
import app.vigie.detection.core.Finding;
import app.vigie.detection.core.Ranges;
import app.vigie.detection.core.RequestFact;
import app.vigie.detection.core.RequestFacts;

/** Writes what the detectors concluded: request facts, findings into incidents, exposures, impossible records. */
public final class DetectionStore {
    private DetectionStore() {
    }

    /** Writes what the buffer found; returns the tenants whose exposure it touched, per incident. */
    public static Map<UUID, Set<String>> write(Connection c, DetectionBuffer b, Instant now)
            throws SQLException {
        if (b.isEmpty()) {
            return Map.of();
        }
        // spec v1.1: reads of transferred content and the sends that tell its origin, joined before anything is locked
        // but their requests (TransferStore), so that what they resolve is written below like any other finding
        TransferStore.join(c, b);
        // spec 1.3, amendment 3: possible exposures are written apart (writePossible); what follows counts certain ones
        List<ExposureRead> possible = b.takePossible();
        // every cross-tenant reader's facts are written (so its request_fact row is locked) before its exposures:
        // see leakedPairs
        for (ExposureRead e : b.exposures.values()) {
            if (e.kind() == ExposureKind.CROSS_TENANT && !b.facts.containsKey(e.readerRequest())) {
                b.facts.put(e.readerRequest(), new RequestFacts(e.readerRequest(), e.readerTenant(), false, null,
                        false, false, null, false));
            }
        }
        // The incident rows of what the detectors found are locked first, in one sorted pass (no two transactions
        // wait for each other's incidents), and only then the request facts: a transaction waiting for an incident
        // holds no request_fact row that another, storing the other stream of the same requests, needs. (Facts first
        // made such a transaction wait for the incident's whole queue; Kafka's partitions, one per stream, met it at
        // every batch.)
        Map<String, UUID> incidents = new HashMap<>();
        SortedSet<String> found = new TreeSet<>();
        b.findings.values().forEach(f -> found.add(f.deployment()));
        b.exposures.values().forEach(e -> found.add(e.deployment()));
        possible.forEach(e -> found.add(e.deployment()));
        lockIncidents(c, found, incidents, now);
        Set<String> delivered = new TreeSet<>();
        Map<String, String[]> servedBoots = new TreeMap<>();
        Map<String, Detail> later = rejectedServed(c, b, delivered, servedBoots);
        Map<String, String> moving = later.isEmpty() ? Map.of() : moving(c, later);
        // then those the merged facts add (a rejected request served, raised now or moving): rarely any; taken out of
        // the sorted order, so two transactions may deadlock here, which PostgreSQL breaks and Transactions retries
        SortedSet<String> more = new TreeSet<>();
        b.findings.values().forEach(f -> more.add(f.deployment()));
        more.addAll(moving.values());
        moving.keySet().forEach(request -> more.add(later.get(request).deployment()));
        lockIncidents(c, more, incidents, now);
        Map<UUID, Set<String>> leaked = leakedPairs(c, b, incidents, delivered);
        lockCounters(c, b, incidents, leaked);
        if (!later.isEmpty()) {
            completeRaised(c, later, moving, incidents, now);
        }
        insertFindings(c, b, incidents, now);
        PossibleExposureStore.promote(c, b, incidents);
        Map<UUID, Set<String>> touched = new HashMap<>(countNewRequests(c, b, incidents));
        upsertExposures(c, b, incidents);
        // a tenant a possible exposure touches first is alerted too (possibly read); one alerted already is not again
        PossibleExposureStore.write(c, possible, incidents).forEach((incident, tenants) -> touched.merge(incident,
                tenants, (known, added) -> {
                    Set<String> both = new TreeSet<>(known);
                    both.addAll(added);
                    return both;
                }));
        recordEvidence(c, b, incidents, servedBoots);
        countLeaked(c, leaked);
        for (Map.Entry<String, DetectionBuffer.ExposureSpan> e : b.spans.entrySet()) {
            try (PreparedStatement ps = c.prepareStatement("""
                    update incident set first_exposure_at = least(coalesce(first_exposure_at, ?), ?),
                      last_exposure_at = greatest(coalesce(last_exposure_at, ?), ?) where id = ?""")) {
                Timestamp first = Timestamp.from(e.getValue().first());
                Timestamp last = Timestamp.from(e.getValue().last());
                ps.setTimestamp(1, first);
                ps.setTimestamp(2, first);
                ps.setTimestamp(3, last);
                ps.setTimestamp(4, last);
                ps.setObject(5, incidents.get(e.getKey()));
                ps.executeUpdate();
            }
        }
        List<QuarantineStore.Entry> kept = new ArrayList<>();
        for (DetectionBuffer.Invalid i : b.invalid) {
            kept.add(new QuarantineStore.Entry(0, now, QuarantineStore.APPLY,
                    i.record().stream() + "@" + i.record().boot(),
                    i.record().seq(), i.reason(), CanonicalJson.of(i.record()).getBytes(StandardCharsets.UTF_8),
                    i.record().stream(), i.record().boot(), i.record().seq()));
        }
        QuarantineStore.keep(c, kept, QuarantineStore.APPLY);
        return touched;
    }

    /** Opens or locks the open incident of each deployment not locked yet, in the set's order. */
    private static void lockIncidents(Connection c, SortedSet<String> deployments, Map<String, UUID> incidents,
            Instant now) throws SQLException {
        for (String deployment : deployments) {
            if (!incidents.containsKey(deployment)) {
                incidents.put(deployment, openIncident(c, deployment, now));
            }
        }
    }

    /**
     * Records the boots the incidents rest on (table {@code incident_evidence_boot}, V25): the boot of each finding,
     * each boot where a read of an exposure was judged, and the boot that served a rejected request (joined to the
     * incident holding its finding, written or moved above). The retention job keeps their records, the evidence
     * check replays them.
     */
    private static void recordEvidence(Connection c, DetectionBuffer b, Map<String, UUID> incidents,
            Map<String, String[]> servedBoots) throws SQLException {
        Set<EvidenceBoot> rows = new HashSet<>();
        b.findings.values().forEach(f -> rows.add(new EvidenceBoot(incidents.get(f.deployment()),
                f.evidence().stream(), f.evidence().boot())));
        b.exposureBoots.forEach(e -> rows.add(new EvidenceBoot(incidents.get(e.deployment()), e.stream(), e.boot())));
        if (!rows.isEmpty()) {
            // in the order of the served boots' insert below, so that two transactions take the keys alike
            try (PreparedStatement ps = c.prepareStatement("""
                    insert into incident_evidence_boot (incident_id, stream, boot)
                    select i, s, b from unnest(?::uuid[], ?::text[], ?::text[]) as u(i, s, b)
                    order by 1, 2, 3
                    on conflict do nothing""")) {
                ps.setArray(1, c.createArrayOf("uuid", rows.stream().map(EvidenceBoot::incident).toArray()));
                ps.setArray(2, c.createArrayOf("text", rows.stream().map(EvidenceBoot::stream).toArray()));
                ps.setArray(3, c.createArrayOf("text", rows.stream().map(EvidenceBoot::boot).toArray()));
                ps.executeUpdate();
            }
        }
        if (!servedBoots.isEmpty()) {
            try (PreparedStatement ps = c.prepareStatement("""
                    insert into incident_evidence_boot (incident_id, stream, boot)
                    select distinct f.incident_id, u.s, u.b from unnest(?::text[], ?::text[], ?::text[]) as u(r, s, b)
                    join finding f on f.rule = 'REJECTED_REQUEST_SERVED' and f.subject = u.r
                    order by 1, 2, 3
                    on conflict do nothing""")) {
                ps.setArray(1, c.createArrayOf("text", servedBoots.keySet().toArray()));
                ps.setArray(2, c.createArrayOf("text", servedBoots.values().stream().map(v -> v[0]).toArray()));
                ps.setArray(3, c.createArrayOf("text", servedBoots.values().stream().map(v -> v[1]).toArray()));
                ps.executeUpdate();
            }
        }
    }

    /** A boot an incident rests on ({@code incident_evidence_boot}). */
    private record EvidenceBoot(UUID incident, String stream, String boot) {
    }

    /**
     * The (incident, reader) pairs this transaction makes leaked responses: each of its delivered requests with a
     * cross-tenant exposure, stored before or written now. Exact under concurrency: a transaction writing a cross-tenant
     * exposure of a reader and one writing the reader's delivered FINISH both hold the reader's {@code request_fact}
     * row from their facts' upsert (done before this is called) to their commit, so whichever comes second sees the
     * other's exposures here (a new snapshot per statement), and no other can add one meanwhile.
     */
    private static Map<UUID, Set<String>> leakedPairs(Connection c, DetectionBuffer b, Map<String, UUID> incidents,
            Set<String> delivered) throws SQLException {
        Map<UUID, Set<String>> pairs = new HashMap<>();
        if (delivered.isEmpty()) {
            return pairs;
        }
        try (PreparedStatement ps = c.prepareStatement("select distinct incident_id, reader_request from exposure"
                + " where reader_request = any(?) and kind = 'CROSS_TENANT'")) {
            ps.setArray(1, c.createArrayOf("text", delivered.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    pairs.computeIfAbsent(rs.getObject(1, UUID.class), k -> new HashSet<>()).add(rs.getString(2));
                }
            }
        }
        for (ExposureRead e : b.exposures.values()) {
            if (e.kind() == ExposureKind.CROSS_TENANT && delivered.contains(e.readerRequest())) {
                pairs.computeIfAbsent(incidents.get(e.deployment()), k -> new HashSet<>()).add(e.readerRequest());
            }
        }
        return pairs;
    }

    /**
     * Locks, in one sorted pass, the {@code incident_counter} rows this transaction's triggers will write (V23): those
     * of the incidents its exposures go to, and those its leaked responses are added to (whatever incident they are).
     * Taken after the incident rows and before any counter is written, so that two transactions never hold each
     * other's counters (the rows are created first when missing; an existing row is locked without being rewritten).
     */
    private static void lockCounters(Connection c, DetectionBuffer b, Map<String, UUID> incidents,
            Map<UUID, Set<String>> leaked) throws SQLException {
        Set<UUID> counted = new HashSet<>(leaked.keySet());
        b.exposures.values().forEach(e -> counted.add(incidents.get(e.deployment())));
        if (counted.isEmpty()) {
            return;
        }
        Array ids = c.createArrayOf("uuid", counted.toArray());
        try (PreparedStatement ps = c.prepareStatement("insert into incident_counter (incident_id)"
                + " select x from unnest(?::uuid[]) as u(x) order by x on conflict do nothing")) {
            ps.setArray(1, ids);
            ps.executeUpdate();
        }
        // ORDER BY before FOR UPDATE: PostgreSQL locks the rows in that order
        try (PreparedStatement ps = c.prepareStatement("select incident_id from incident_counter"
                + " where incident_id = any(?) order by incident_id for no key update")) {
            ps.setArray(1, ids);
            ps.executeQuery().close();
        }
    }

    /** The leaked responses of {@link #leakedPairs} added to {@code incident_leaked_response} (V23). */
    private static void countLeaked(Connection c, Map<UUID, Set<String>> leaked) throws SQLException {
        if (leaked.isEmpty()) {
            return;
        }
        List<UUID> incident = new ArrayList<>();
        List<String> reader = new ArrayList<>();
        leaked.forEach((i, readers) -> readers.forEach(r -> {
            incident.add(i);
            reader.add(r);
        }));
        try (PreparedStatement ps = c.prepareStatement("""
                insert into incident_leaked_response (incident_id, reader_request)
                select * from unnest(?::uuid[], ?::text[]) order by 1, 2
                on conflict do nothing""")) {
            ps.setArray(1, c.createArrayOf("uuid", incident.toArray()));
            ps.setArray(2, c.createArrayOf("text", reader.toArray()));
            ps.executeUpdate();
        }
    }

    /**
     * Before the exposures are written: the requests they bring that the incident did not have yet, per tenant (as
     * victim, or as cross-tenant reader), added to {@code incident_tenant_exposure}. Returns the tenants whose count
     * grew, per incident: only they can need a customer alert. The incident rows are locked (openIncident), so no
     * other transaction writes these incidents' exposures meanwhile.
     */
    private static Map<UUID, Set<String>> countNewRequests(Connection c, DetectionBuffer b,
            Map<String, UUID> incidents) throws SQLException {
        if (b.exposures.isEmpty()) {
            return Map.of();
        }
        Set<TenantRequest> victims = new LinkedHashSet<>();
        Set<TenantRequest> readers = new LinkedHashSet<>();
        // sorted: the counters' rows are then locked in one order by every writer. [exposed, received, recipient]
        Map<IncidentTenant, long[]> added = new TreeMap<>();
        for (ExposureRead e : b.exposures.values()) {
            UUID incident = incidents.get(e.deployment());
            victims.add(new TenantRequest(incident, e.victimTenant(), e.victimRequest()));
            if (e.kind() == ExposureKind.CROSS_TENANT) {
                readers.add(new TenantRequest(incident, e.readerTenant(), e.readerRequest()));
            }
            // a reader of either kind is one of the incident's recipient tenants
            added.computeIfAbsent(new IncidentTenant(incident, e.readerTenant()), k -> new long[3])[2] = 1;
        }
        countAbsent(c, victims, "e.victim_tenant = u.t and e.victim_request = u.r", added, 0);
        countAbsent(c, readers, "e.reader_tenant = u.t and e.reader_request = u.r and e.kind = 'CROSS_TENANT'",
                added, 1);
        Map<UUID, Set<String>> touched = new HashMap<>();
        int n = added.size();
        UUID[] incident = new UUID[n];
        String[] tenant = new String[n];
        Long[] exposed = new Long[n];
        Long[] received = new Long[n];
        Boolean[] recipient = new Boolean[n];
        int i = 0;
        for (Map.Entry<IncidentTenant, long[]> e : added.entrySet()) {
            incident[i] = e.getKey().incident();
            tenant[i] = e.getKey().tenant();
            exposed[i] = e.getValue()[0];
            received[i] = e.getValue()[1];
            recipient[i] = e.getValue()[2] == 1;
            if (exposed[i] > 0 || received[i] > 0) {
                touched.computeIfAbsent(incident[i], k -> new TreeSet<>()).add(tenant[i]);
            }
            i++;
        }
        // a row is written only when a count grows or the tenant reads for the first time
        try (PreparedStatement ps = c.prepareStatement("""
                insert into incident_tenant_exposure as x (incident_id, tenant, exposed_requests, received_requests,
                  recipient)
                select * from unnest(?::uuid[], ?::text[], ?::bigint[], ?::bigint[], ?::boolean[])
                on conflict (incident_id, tenant) do update set
                  exposed_requests = x.exposed_requests + excluded.exposed_requests,
                  received_requests = x.received_requests + excluded.received_requests,
                  recipient = x.recipient or excluded.recipient
                where excluded.exposed_requests > 0 or excluded.received_requests > 0
                  or (excluded.recipient and not x.recipient)""")) {
            ps.setArray(1, c.createArrayOf("uuid", incident));
            ps.setArray(2, c.createArrayOf("text", tenant));
            ps.setArray(3, c.createArrayOf("bigint", exposed));
            ps.setArray(4, c.createArrayOf("bigint", received));
            ps.setArray(5, c.createArrayOf("boolean", recipient));
            ps.executeUpdate();
        }
        return touched;
    }

    /** Counts, per (incident, tenant), the (incident, tenant, request) keys no exposure matches yet. */
    private static void countAbsent(Connection c, Set<TenantRequest> keys, String match,
            Map<IncidentTenant, long[]> added, int side) throws SQLException {
        if (keys.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement("select u.i, u.t from unnest(?::uuid[], ?::text[], ?::text[])"
                + " as u(i, t, r) where not exists (select 1 from exposure e where e.incident_id = u.i and " + match
                + ")")) {
            ps.setArray(1, c.createArrayOf("uuid", keys.stream().map(TenantRequest::incident).toArray()));
            ps.setArray(2, c.createArrayOf("text", keys.stream().map(TenantRequest::tenant).toArray()));
            ps.setArray(3, c.createArrayOf("text", keys.stream().map(TenantRequest::request).toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    added.computeIfAbsent(new IncidentTenant(rs.getObject(1, UUID.class), rs.getString(2)),
                            k -> new long[3])[side]++;
                }
            }
        }
    }

    /** A request of a tenant in an incident. */
    private record TenantRequest(UUID incident, String tenant, String request) {
    }

    /** A tenant in an incident, ordered by incident then tenant. */
    private record IncidentTenant(UUID incident, String tenant) implements Comparable<IncidentTenant> {
        @Override
        public int compareTo(IncidentTenant o) {
            int byIncident = incident.toString().compareTo(o.incident.toString());
            return byIncident != 0 ? byIncident : tenant.compareTo(o.tenant);
        }
    }

    /** A raised REJECTED_REQUEST_SERVED as the request's facts now say it: its first rejection and its detail. */
    private record Detail(String deployment, String stream, String boot, long seq, Timestamp at, String text) {
        static Detail of(Finding f) {
            return new Detail(f.deployment(), f.evidence().stream(), f.evidence().boot(), f.evidence().firstSeq(),
                    Timestamp.from(f.at()), f.evidence().detail());
        }
    }

    /** The rejection in {@code excluded} comes before the stored one: smallest (ts, stream, boot, seq). */
    private static final String EARLIER_REJECTION = "(excluded.rejected_at is not null and (f.rejected_at is null or"
            + " (excluded.rejected_at, excluded.rejected_stream collate \"C\", excluded.rejected_boot collate \"C\","
            + " excluded.rejected_seq) < (f.rejected_at, f.rejected_stream collate \"C\", f.rejected_boot collate"
            + " \"C\", f.rejected_seq)))";

    /**
     * The REJECTED_REQUEST_SERVED findings raised earlier whose first rejection is now of another deployment: request
     * to the deployment whose incident holds them now (not locked: only their incidents are, in {@link #write}).
     */
    private static Map<String, String> moving(Connection c, Map<String, Detail> later) throws SQLException {
        Map<String, String> out = new TreeMap<>();
        try (PreparedStatement ps = c.prepareStatement("""
                select f.subject, f.deployment from finding f join incident i on i.id = f.incident_id
                where f.rule = 'REJECTED_REQUEST_SERVED' and f.subject = any(?) and i.status <> 'CLOSED'""")) {
            ps.setArray(1, c.createArrayOf("text", later.keySet().toArray(String[]::new)));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if (!rs.getString(2).equals(later.get(rs.getString(1)).deployment())) {
                        out.put(rs.getString(1), rs.getString(2));
                    }
                }
            }
        }
        return out;
    }

    /**
     * Brings REJECTED_REQUEST_SERVED findings raised by earlier transactions up to date with the facts that came
     * since: the other stream's records complete the detail, and a rejection that comes before the one it was raised
     * with (read later, from another stream or instance) becomes its evidence and deployment. A finding whose
     * deployment changes moves to that deployment's open incident, and both incidents count as changed. So the
     * finding says the same whatever order the streams were read in. The incidents are locked by the caller.
     */
    private static void completeRaised(Connection c, Map<String, Detail> later, Map<String, String> moving,
            Map<String, UUID> incidents, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                update finding f set detail = ?, deployment = ?, stream = ?, boot = ?, first_seq = ?, last_seq = ?,
                  seen_at = ?, incident_id = coalesce(?, f.incident_id)
                from incident i
                where i.id = f.incident_id and i.status <> 'CLOSED' and f.rule = 'REJECTED_REQUEST_SERVED'
                  and f.subject = ? and (f.detail, f.deployment, f.stream, f.boot, f.first_seq, f.seen_at)
                    is distinct from (?, ?, ?, ?, ?, ?)""")) {
            for (Map.Entry<String, Detail> e : later.entrySet()) {
                Detail d = e.getValue();
                ps.setString(1, d.text());
                ps.setString(2, d.deployment());
                ps.setString(3, d.stream());
                ps.setString(4, d.boot());
                ps.setLong(5, d.seq());
                ps.setLong(6, d.seq());
                ps.setTimestamp(7, d.at());
                ps.setObject(8, moving.containsKey(e.getKey()) ? incidents.get(d.deployment()) : null);
                ps.setString(9, e.getKey());
                ps.setString(10, d.text());
                ps.setString(11, d.deployment());
                ps.setString(12, d.stream());
                ps.setString(13, d.boot());
                ps.setLong(14, d.seq());
                ps.setTimestamp(15, d.at());
                ps.addBatch();
            }
            ps.executeBatch();
        }
        if (!moving.isEmpty()) {
            Set<UUID> changed = new TreeSet<>();
            moving.forEach((request, from) -> {
                changed.add(incidents.get(from));
                changed.add(incidents.get(later.get(request).deployment()));
            });
            try (PreparedStatement ps = c.prepareStatement("update incident set updated_at = ? where id = any(?)")) {
                ps.setTimestamp(1, Timestamp.from(now));
                ps.setArray(2, c.createArrayOf("uuid", changed.toArray()));
                ps.executeUpdate();
            }
        }
    }

    /** The open incident of the deployment, created when there is none. */
    static UUID openIncident(Connection c, String deployment, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                insert into incident (id, deployment, status, detected_at, updated_at) values (?, ?, 'OPEN', ?, ?)
                on conflict (deployment) where status <> 'CLOSED' do nothing""")) {
            ps.setObject(1, UUID.randomUUID());
            ps.setString(2, deployment);
            ps.setTimestamp(3, Timestamp.from(now));
            ps.setTimestamp(4, Timestamp.from(now));
            ps.executeUpdate();
        }
        try (PreparedStatement ps = c.prepareStatement(
                "select id from incident where deployment = ? and status <> 'CLOSED' for no key update")) {
            ps.setString(1, deployment);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getObject(1, UUID.class);
            }
        }
    }

    /**
     * Inserts the findings new to their incident and, in the same statement, lets an earlier occurrence (another
     * stream or instance read later) replace the stored evidence of a finding already there. One set-based statement:
     * the incident rows are locked while it runs, so its cost bounds how fast one large incident takes records. The
     * update sees the rows as they were before the statement (not those it inserts) and touches only rows it changes.
     */
    private static void insertFindings(Connection c, DetectionBuffer b, Map<String, UUID> incidents, Instant now)
            throws SQLException {
        if (b.findings.isEmpty()) {
            return;
        }
        int n = b.findings.size();
        Object[] incident = new Object[n];
        String[] rule = new String[n];
        String[] deployment = new String[n];
        String[] subject = new String[n];
        String[] stream = new String[n];
        String[] boot = new String[n];
        Long[] first = new Long[n];
        Long[] last = new Long[n];
        String[] detail = new String[n];
        Long[] at = new Long[n];
        int k = 0;
        for (Finding f : b.findings.values()) {
            incident[k] = incidents.get(f.deployment());
            rule[k] = f.rule().name();
            deployment[k] = f.deployment();
            subject[k] = f.subject();
            stream[k] = f.evidence().stream();
            boot[k] = f.evidence().boot();
            first[k] = f.evidence().firstSeq();
            last[k] = f.evidence().lastSeq();
            detail[k] = f.evidence().detail();
            at[k] = Micros.of(f.at());
            k++;
        }
        try (PreparedStatement ps = c.prepareStatement("""
                with u as (
                  select i, r, d, s, st, bt, fs, ls, dt, timestamptz 'epoch' + a * interval '1 microsecond' as at
                  from unnest(?::uuid[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::bigint[],
                    ?::bigint[], ?::text[], ?::bigint[]) as x(i, r, d, s, st, bt, fs, ls, dt, a)),
                ins as (
                  insert into finding (incident_id, rule, deployment, subject, stream, boot, first_seq, last_seq,
                    detail, seen_at, recorded_at)
                  select i, r, d, s, st, bt, fs, ls, dt, at, ? from u
                  on conflict (incident_id, rule, subject) do nothing)
                update finding f set deployment = u.d, stream = u.st, boot = u.bt, first_seq = u.fs,
                  last_seq = u.ls, detail = u.dt, seen_at = u.at
                from u
                where f.incident_id = u.i and f.rule = u.r and f.subject = u.s
                  and (u.at, u.st collate "C", u.bt collate "C", u.fs, u.dt collate "C")
                    < (f.seen_at, f.stream collate "C", f.boot collate "C", f.first_seq, f.detail collate "C")""")) {
            ps.setArray(1, c.createArrayOf("uuid", incident));
            ps.setArray(2, c.createArrayOf("text", rule));
            ps.setArray(3, c.createArrayOf("text", deployment));
            ps.setArray(4, c.createArrayOf("text", subject));
            ps.setArray(5, c.createArrayOf("text", stream));
            ps.setArray(6, c.createArrayOf("text", boot));
            ps.setArray(7, c.createArrayOf("bigint", first));
            ps.setArray(8, c.createArrayOf("bigint", last));
            ps.setArray(9, c.createArrayOf("text", detail));
            ps.setArray(10, c.createArrayOf("bigint", at));
            ps.setTimestamp(11, Timestamp.from(now));
            ps.executeUpdate();
        }
    }

    /**
     * Writes the exposures of the transaction, one row per (incident, reader, victim), in one statement: the positions
     * read so far, from every stream, are united with the new ones by PostgreSQL ({@code vigie_ranges_union}, V14:
     * the same merge as {@link Ranges#union}, without reading the rows back while the incident is locked) and
     * {@code tokens} is the size of the union. A row from before V14 has no positions: its count stays a lower bound.
     */
    private static void upsertExposures(Connection c, DetectionBuffer b, Map<String, UUID> incidents)
            throws SQLException {
        if (b.exposures.isEmpty()) {
            return;
        }
        List<ExposureRead> reads = new ArrayList<>(b.exposures.values());
        int n2 = reads.size();
        Object[] incident = new Object[n2];
        String[] kind = new String[n2];
        String[] reader = new String[n2];
        String[] readerTenant = new String[n2];
        String[] victim = new String[n2];
        String[] victimTenant = new String[n2];
        String[] positions = new String[n2];
        Integer[] tokens = new Integer[n2];
        Long[] first = new Long[n2];
        Long[] last = new Long[n2];
        for (int k = 0; k < n2; k++) {
            ExposureRead e = reads.get(k);
            incident[k] = incidents.get(e.deployment());
            Ranges union = e.positions();
            kind[k] = e.kind().name();
            reader[k] = e.readerRequest();
            readerTenant[k] = e.readerTenant();
            victim[k] = e.victimRequest();
            victimTenant[k] = e.victimTenant();
            positions[k] = text(union);
            tokens[k] = union.size();
            first[k] = Micros.of(e.firstSeenAt());
            last[k] = Micros.of(e.attachAt());
        }
        try (PreparedStatement ps = c.prepareStatement("""
                insert into exposure (incident_id, kind, reader_request, reader_tenant, victim_request, victim_tenant,
                  positions, tokens, first_seen_at, last_seen_at)
                select i, k, r, rt, v, vt, p::integer[], t, timestamptz 'epoch' + f * interval '1 microsecond',
                  timestamptz 'epoch' + l * interval '1 microsecond'
                from unnest(?::uuid[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[],
                  ?::integer[], ?::bigint[], ?::bigint[]) as x(i, k, r, rt, v, vt, p, t, f, l)
                on conflict (incident_id, reader_request, victim_request) do update set
                  positions = vigie_ranges_union(exposure.positions, excluded.positions),
                  tokens = greatest(exposure.tokens,
                    vigie_ranges_size(vigie_ranges_union(exposure.positions, excluded.positions))),
                  first_seen_at = least(exposure.first_seen_at, excluded.first_seen_at),
                  last_seen_at = greatest(exposure.last_seen_at, excluded.last_seen_at)""")) {
            ps.setArray(1, c.createArrayOf("uuid", incident));
            ps.setArray(2, c.createArrayOf("text", kind));
            ps.setArray(3, c.createArrayOf("text", reader));
            ps.setArray(4, c.createArrayOf("text", readerTenant));
            ps.setArray(5, c.createArrayOf("text", victim));
            ps.setArray(6, c.createArrayOf("text", victimTenant));
            ps.setArray(7, c.createArrayOf("text", positions));
            ps.setArray(8, c.createArrayOf("integer", tokens));
            ps.setArray(9, c.createArrayOf("bigint", first));
            ps.setArray(10, c.createArrayOf("bigint", last));
            ps.executeUpdate();
        }
    }

    /** Positions as PostgreSQL's text of an integer array of [from, to) pairs, flattened: "{0,4,8,12}". */
    static String text(Ranges positions) {
        int[] bounds = positions.bounds();
        StringBuilder text = new StringBuilder(8 + bounds.length * 6).append('{');
        for (int i = 0; i < bounds.length; i++) {
            text.append(i == 0 ? "" : ",").append(bounds[i]);
        }
        return text.append('}').toString();
    }

    /**
     * Keeps the request facts of the transaction merged with those of earlier ones (the union {@link RequestFacts}
     * defines, done by the upsert so that concurrent transactions on other streams or instances merge too), and has
     * the core judge each merged request: a new {@code REJECTED_REQUEST_SERVED} is raised, one raised earlier is
     * returned to be brought up to date. {@code leakable} receives the requests whose merged facts say delivered.
     */
    private static Map<String, Detail> rejectedServed(Connection c, DetectionBuffer b, Set<String> leakable,
            Map<String, String[]> servedBoots) throws SQLException {
        if (b.facts.isEmpty()) {
            return Map.of();
        }
        int n = b.facts.size();
        String[] request = new String[n];
        String[] tenant = new String[n];
        Boolean[] rejected = new Boolean[n];
        String[] dep = new String[n];
        String[] stream = new String[n];
        String[] boot = new String[n];
        Long[] seq = new Long[n];
        Long[] at = new Long[n];
        Boolean[] served = new Boolean[n];
        Boolean[] finished = new Boolean[n];
        Boolean[] delivered = new Boolean[n];
        Boolean[] output = new Boolean[n];
        String[] servedStream = new String[n];
        String[] servedBoot = new String[n];
        int i = 0;
        for (RequestFacts f : b.facts.values()) {
            String[] where = b.servedAt.get(f.request());
            servedStream[i] = where == null ? null : where[0];
            servedBoot[i] = where == null ? null : where[1];
            RequestFact r = f.firstRejection();
            request[i] = f.request();
            tenant[i] = f.tenant();
            rejected[i] = f.rejected();
            dep[i] = r == null ? null : r.deployment();
            stream[i] = r == null ? null : r.stream();
            boot[i] = r == null ? null : r.boot();
            seq[i] = r == null ? null : r.seq();
            at[i] = r == null ? null : r.at().toEpochMilli() * 1000;
            served[i] = f.served();
            finished[i] = f.finished();
            delivered[i] = f.delivered();
            output[i] = f.deliveredOutput();
            i++;
        }
        List<Finding> raised = new ArrayList<>();
        Map<String, Detail> later = new TreeMap<>();
        try (PreparedStatement ps = c.prepareStatement("""
                insert into request_fact as f (request, tenant, rejected, rejected_deployment, rejected_stream,
                  rejected_boot, rejected_seq, rejected_at, served, finished, delivered, delivered_output,
                  served_stream, served_boot)
                select r, t, rj, d, s, b, q, timestamptz 'epoch' + a * interval '1 microsecond', sv, fi, de, o, ss, sb
                from unnest(?::text[], ?::text[], ?::boolean[], ?::text[], ?::text[], ?::text[], ?::bigint[],
                  ?::bigint[], ?::boolean[], ?::boolean[], ?::boolean[], ?::boolean[], ?::text[], ?::text[])
                  as u(r, t, rj, d, s, b, q, a, sv, fi, de, o, ss, sb)
                order by r
                on conflict (request) do update set
                  tenant = coalesce(f.tenant, excluded.tenant),
                  rejected = f.rejected or excluded.rejected,
                  rejected_deployment = case when %1$s then excluded.rejected_deployment else f.rejected_deployment end,
                  rejected_stream = case when %1$s then excluded.rejected_stream else f.rejected_stream end,
                  rejected_boot = case when %1$s then excluded.rejected_boot else f.rejected_boot end,
                  rejected_seq = case when %1$s then excluded.rejected_seq else f.rejected_seq end,
                  rejected_at = case when %1$s then excluded.rejected_at else f.rejected_at end,
                  served = f.served or excluded.served,
                  finished = f.finished or excluded.finished,
                  delivered = case when f.delivered is null then excluded.delivered
                    when excluded.delivered is null then f.delivered else f.delivered or excluded.delivered end,
                  delivered_output = f.delivered_output or excluded.delivered_output,
                  served_stream = coalesce(f.served_stream, excluded.served_stream),
                  served_boot = case when f.served_stream is null then excluded.served_boot else f.served_boot end,
                  touched_at = now()
                returning request, tenant, rejected, rejected_deployment, rejected_stream, rejected_boot,
                  rejected_seq, rejected_at, served, finished, delivered, delivered_output, served_finding,
                  served_stream, served_boot"""
                .formatted(EARLIER_REJECTION))) {
            ps.setArray(1, c.createArrayOf("text", request));
            ps.setArray(2, c.createArrayOf("text", tenant));
            ps.setArray(3, c.createArrayOf("boolean", rejected));
            ps.setArray(4, c.createArrayOf("text", dep));
            ps.setArray(5, c.createArrayOf("text", stream));
            ps.setArray(6, c.createArrayOf("text", boot));
            ps.setArray(7, c.createArrayOf("bigint", seq));
            ps.setArray(8, c.createArrayOf("bigint", at));
            ps.setArray(9, c.createArrayOf("boolean", served));
            ps.setArray(10, c.createArrayOf("boolean", finished));
            ps.setArray(11, c.createArrayOf("boolean", delivered));
            ps.setArray(12, c.createArrayOf("boolean", output));
            ps.setArray(13, c.createArrayOf("text", servedStream));
            ps.setArray(14, c.createArrayOf("text", servedBoot));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    RequestFacts merged = stored(rs);
                    if (Boolean.TRUE.equals(merged.delivered())) {
                        leakable.add(merged.request());
                    }
                    boolean raisedBefore = rs.getBoolean(13);
                    if (merged.rejectedButServed() && rs.getString(14) != null) {
                        servedBoots.put(merged.request(), new String[] {rs.getString(14), rs.getString(15)});
                    }
                    merged.finding().ifPresent(f -> {
                        if (raisedBefore) {
                            later.put(f.subject(), Detail.of(f));
                        } else {
                            raised.add(f);
                        }
                    });
                }
            }
        }
        if (!raised.isEmpty()) {
            try (PreparedStatement ps = c.prepareStatement(
                    "update request_fact set served_finding = true where request = any(?)")) {
                ps.setArray(1, c.createArrayOf("text", raised.stream().map(Finding::subject).toArray(String[]::new)));
                ps.executeUpdate();
            }
            raised.forEach(b::finding);
        }
        return later;
    }

    /** The merged facts of a request as {@code request_fact} keeps them (columns 1 to 12 of the upsert's answer). */
    private static RequestFacts stored(ResultSet rs) throws SQLException {
        String request = rs.getString(1);
        String tenant = rs.getString(2);
        Timestamp at = rs.getTimestamp(8);
        RequestFact rejection = at == null ? null
                : new RequestFact(RequestFact.Kind.ADMIT_REJECTED, request, tenant, rs.getString(4), at.toInstant(),
                        rs.getString(5), rs.getString(6), rs.getLong(7), false, 0);
        boolean delivered = rs.getBoolean(11);
        Boolean finishedDelivered = rs.wasNull() ? null : delivered;
        return new RequestFacts(request, tenant, rs.getBoolean(3), rejection, rs.getBoolean(9), rs.getBoolean(10),
                finishedDelivered, rs.getBoolean(12));
    }
}
