package app.vigie.detection.store;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import app.vigie.auditlog.intake.CanonicalJson;
import app.vigie.auditlog.store.QuarantineStore;
import app.vigie.detection.core.ExposureRead;
import app.vigie.detection.core.Finding;
import app.vigie.detection.core.Ranges;
import app.vigie.detection.core.RequestFact;
import app.vigie.detection.core.Rule;

/** Writes what the detectors concluded: request facts, findings into incidents, exposures, impossible records. */
public final class DetectionStore {
    private DetectionStore() {
    }

    /** Writes what the buffer found; returns the tenants whose exposure it touched, per incident. */
    public static Map<UUID, java.util.Set<String>> write(Connection c, DetectionBuffer b, Instant now)
            throws SQLException {
        if (b.isEmpty()) {
            return Map.of();
        }
        Map<String, Detail> later = rejectedServed(c, b);
        Map<String, String> moving = later.isEmpty() ? Map.of() : moving(c, later);
        // every incident row this transaction writes is locked here, in one sorted pass: no two transactions
        // wait for each other's incidents
        java.util.SortedSet<String> deployments = new java.util.TreeSet<>();
        b.findings.values().forEach(f -> deployments.add(f.deployment()));
        b.exposures.values().forEach(e -> deployments.add(e.deployment()));
        deployments.addAll(moving.values());
        moving.keySet().forEach(request -> deployments.add(later.get(request).deployment()));
        Map<String, UUID> incidents = new HashMap<>();
        for (String deployment : deployments) {
            incidents.put(deployment, openIncident(c, deployment, now));
        }
        if (!later.isEmpty()) {
            completeRaised(c, later, moving, incidents, now);
        }
        insertFindings(c, b, incidents, now);
        Map<UUID, java.util.Set<String>> touched = countNewRequests(c, b, incidents);
        upsertExposures(c, b, incidents);
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

    /**
     * Before the exposures are written: the requests they bring that the incident did not have yet, per tenant (as
     * victim, or as cross-tenant reader), added to {@code incident_tenant_exposure}. Returns the tenants whose count
     * grew, per incident: only they can need a customer alert. The incident rows are locked (openIncident), so no
     * other transaction writes these incidents' exposures meanwhile.
     */
    private static Map<UUID, java.util.Set<String>> countNewRequests(Connection c, DetectionBuffer b,
            Map<String, UUID> incidents) throws SQLException {
        if (b.exposures.isEmpty()) {
            return Map.of();
        }
        java.util.Set<TenantRequest> victims = new java.util.LinkedHashSet<>();
        java.util.Set<TenantRequest> readers = new java.util.LinkedHashSet<>();
        for (ExposureRead e : b.exposures.values()) {
            UUID incident = incidents.get(e.deployment());
            victims.add(new TenantRequest(incident, e.victimTenant(), e.victimRequest()));
            if (e.kind().name().equals("CROSS_TENANT")) {
                readers.add(new TenantRequest(incident, e.readerTenant(), e.readerRequest()));
            }
        }
        // sorted: the counters' rows are then locked in one order by every writer
        Map<IncidentTenant, long[]> added = new java.util.TreeMap<>();
        countAbsent(c, victims, "e.victim_tenant = u.t and e.victim_request = u.r", added, 0);
        countAbsent(c, readers, "e.reader_tenant = u.t and e.reader_request = u.r and e.kind = 'CROSS_TENANT'",
                added, 1);
        Map<UUID, java.util.Set<String>> touched = new HashMap<>();
        if (added.isEmpty()) {
            return touched;
        }
        int n = added.size();
        UUID[] incident = new UUID[n];
        String[] tenant = new String[n];
        Long[] exposed = new Long[n];
        Long[] received = new Long[n];
        int i = 0;
        for (Map.Entry<IncidentTenant, long[]> e : added.entrySet()) {
            incident[i] = e.getKey().incident();
            tenant[i] = e.getKey().tenant();
            exposed[i] = e.getValue()[0];
            received[i] = e.getValue()[1];
            touched.computeIfAbsent(incident[i], k -> new java.util.TreeSet<>()).add(tenant[i]);
            i++;
        }
        try (PreparedStatement ps = c.prepareStatement("""
                insert into incident_tenant_exposure as x (incident_id, tenant, exposed_requests, received_requests)
                select * from unnest(?::uuid[], ?::text[], ?::bigint[], ?::bigint[])
                on conflict (incident_id, tenant) do update set
                  exposed_requests = x.exposed_requests + excluded.exposed_requests,
                  received_requests = x.received_requests + excluded.received_requests""")) {
            ps.setArray(1, c.createArrayOf("uuid", incident));
            ps.setArray(2, c.createArrayOf("text", tenant));
            ps.setArray(3, c.createArrayOf("bigint", exposed));
            ps.setArray(4, c.createArrayOf("bigint", received));
            ps.executeUpdate();
        }
        return touched;
    }

    /** Counts, per (incident, tenant), the (incident, tenant, request) keys no exposure matches yet. */
    private static void countAbsent(Connection c, java.util.Set<TenantRequest> keys, String match,
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
                            k -> new long[2])[side]++;
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
        Map<String, String> out = new java.util.TreeMap<>();
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
            java.util.Set<UUID> changed = new java.util.TreeSet<>();
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
     * Inserts the findings new to their incident; for those already there, an earlier occurrence (another stream or
     * instance read later) replaces the stored evidence. The update touches only rows it changes: a conflicting
     * insert with DO UPDATE would lock every existing finding of every transaction.
     */
    private static void insertFindings(Connection c, DetectionBuffer b, Map<String, UUID> incidents, Instant now)
            throws SQLException {
        if (b.findings.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement("""
                insert into finding (incident_id, rule, deployment, subject, stream, boot, first_seq, last_seq, detail,
                  seen_at, recorded_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                on conflict (incident_id, rule, subject) do nothing""")) {
            for (Finding f : b.findings.values()) {
                ps.setObject(1, incidents.get(f.deployment()));
                ps.setString(2, f.rule().name());
                ps.setString(3, f.deployment());
                ps.setString(4, f.subject());
                ps.setString(5, f.evidence().stream());
                ps.setString(6, f.evidence().boot());
                ps.setLong(7, f.evidence().firstSeq());
                ps.setLong(8, f.evidence().lastSeq());
                ps.setString(9, f.evidence().detail());
                ps.setTimestamp(10, Timestamp.from(f.at()));
                ps.setTimestamp(11, Timestamp.from(now));
                ps.addBatch();
            }
            ps.executeBatch();
        }
        // the batch's counts cannot tell a skipped row (rewritten batches answer "no info"): every finding is
        // checked; the update changes only rows whose stored occurrence is later
        List<Finding> known = new ArrayList<>(b.findings.values());
        try (PreparedStatement ps = c.prepareStatement("""
                update finding set deployment = ?, stream = ?, boot = ?, first_seq = ?, last_seq = ?, detail = ?,
                  seen_at = ?
                where incident_id = ? and rule = ? and subject = ?
                  and (?, ? collate "C", ? collate "C", ?) < (seen_at, stream collate "C", boot collate "C", first_seq)
                """)) {
            for (Finding f : known) {
                Timestamp at = Timestamp.from(f.at());
                ps.setString(1, f.deployment());
                ps.setString(2, f.evidence().stream());
                ps.setString(3, f.evidence().boot());
                ps.setLong(4, f.evidence().firstSeq());
                ps.setLong(5, f.evidence().lastSeq());
                ps.setString(6, f.evidence().detail());
                ps.setTimestamp(7, at);
                ps.setObject(8, incidents.get(f.deployment()));
                ps.setString(9, f.rule().name());
                ps.setString(10, f.subject());
                ps.setTimestamp(11, at);
                ps.setString(12, f.evidence().stream());
                ps.setString(13, f.evidence().boot());
                ps.setLong(14, f.evidence().firstSeq());
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    /**
     * Writes the exposures of the transaction, one row per (incident, reader, victim): the positions read so far,
     * from every stream, are united with the new ones (the incident rows are locked by openIncident, so no other
     * transaction writes these pairs meanwhile) and {@code tokens} is the size of the union. A row from before V14
     * has no positions: its count stays a lower bound.
     */
    private static void upsertExposures(Connection c, DetectionBuffer b, Map<String, UUID> incidents)
            throws SQLException {
        if (b.exposures.isEmpty()) {
            return;
        }
        List<ExposureRead> reads = new ArrayList<>(b.exposures.values());
        int n = reads.size();
        Map<String, Stored> stored = new HashMap<>();
        // one index lookup per pair (a join could scan the whole table)
        try (PreparedStatement ps = c.prepareStatement("""
                select u.i, u.r, u.v, e.positions, e.tokens
                from unnest(?::uuid[], ?::text[], ?::text[]) as u(i, r, v)
                cross join lateral (select x.positions, x.tokens from exposure x where x.incident_id = u.i
                  and x.reader_request = u.r and x.victim_request = u.v) e""")) {
            ps.setArray(1, c.createArrayOf("uuid", reads.stream().map(e -> incidents.get(e.deployment())).toArray()));
            ps.setArray(2, c.createArrayOf("text", reads.stream().map(ExposureRead::readerRequest).toArray()));
            ps.setArray(3, c.createArrayOf("text", reads.stream().map(ExposureRead::victimRequest).toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    java.sql.Array a = rs.getArray(4);
                    Ranges positions = Ranges.EMPTY;
                    if (a != null) {
                        Integer[] bounds = (Integer[]) a.getArray();
                        positions = Ranges.of(java.util.Arrays.stream(bounds).mapToInt(Integer::intValue).toArray());
                    }
                    stored.put(rs.getObject(1, UUID.class) + "\u0000" + rs.getString(2) + "\u0000" + rs.getString(3),
                            new Stored(positions, rs.getInt(5)));
                }
            }
        }
        try (PreparedStatement ps = c.prepareStatement("""
                insert into exposure (incident_id, kind, reader_request, reader_tenant, victim_request, victim_tenant,
                  positions, tokens, first_seen_at, last_seen_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                on conflict (incident_id, reader_request, victim_request) do update set
                  positions = excluded.positions,
                  tokens = greatest(exposure.tokens, excluded.tokens),
                  first_seen_at = least(exposure.first_seen_at, excluded.first_seen_at),
                  last_seen_at = greatest(exposure.last_seen_at, excluded.last_seen_at)""")) {
            for (ExposureRead e : reads) {
                UUID incident = incidents.get(e.deployment());
                Stored before = stored.getOrDefault(incident + "\u0000" + e.readerRequest() + "\u0000"
                        + e.victimRequest(),
                        Stored.NONE);
                Ranges positions = before.positions().union(e.positions());
                ps.setObject(1, incident);
                ps.setString(2, e.kind().name());
                ps.setString(3, e.readerRequest());
                ps.setString(4, e.readerTenant());
                ps.setString(5, e.victimRequest());
                ps.setString(6, e.victimTenant());
                int[] bounds = positions.bounds();
                Integer[] boxed = new Integer[bounds.length];
                for (int i = 0; i < bounds.length; i++) {
                    boxed[i] = bounds[i];
                }
                ps.setArray(7, c.createArrayOf("integer", boxed));
                ps.setInt(8, Math.max(before.tokens(), positions.size()));
                ps.setTimestamp(9, Timestamp.from(e.firstSeenAt()));
                ps.setTimestamp(10, Timestamp.from(e.attachAt()));
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    /** An exposure row as stored: its positions (empty before V14) and its count. */
    private record Stored(Ranges positions, int tokens) {
        static final Stored NONE = new Stored(Ranges.EMPTY, 0);
    }

    /**
     * Merges the request facts of the transaction with those of earlier ones, and raises
     * {@code REJECTED_REQUEST_SERVED} (with the deployment and place of the rejecting ADMIT) where the join holds.
     */
    private static Map<String, Detail> rejectedServed(Connection c, DetectionBuffer b) throws SQLException {
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
        int i = 0;
        for (DetectionBuffer.FactRow f : b.facts.values()) {
            RequestFact r = f.rejectedBy;
            request[i] = f.request;
            tenant[i] = f.tenant;
            rejected[i] = f.rejected;
            dep[i] = r == null ? null : r.deployment();
            stream[i] = r == null ? null : r.stream();
            boot[i] = r == null ? null : r.boot();
            seq[i] = r == null ? null : r.seq();
            at[i] = r == null ? null : r.at().toEpochMilli() * 1000;
            served[i] = f.served;
            finished[i] = f.finished;
            delivered[i] = f.delivered;
            output[i] = f.deliveredOutput;
            i++;
        }
        List<Finding> raised = new ArrayList<>();
        java.util.Map<String, Detail> later = new java.util.TreeMap<>();
        try (PreparedStatement ps = c.prepareStatement("""
                insert into request_fact as f (request, tenant, rejected, rejected_deployment, rejected_stream,
                  rejected_boot, rejected_seq, rejected_at, served, finished, delivered, delivered_output)
                select r, t, rj, d, s, b, q, timestamptz 'epoch' + a * interval '1 microsecond', sv, fi, de, o
                from unnest(?::text[], ?::text[], ?::boolean[], ?::text[], ?::text[], ?::text[], ?::bigint[],
                  ?::bigint[], ?::boolean[], ?::boolean[], ?::boolean[], ?::boolean[])
                  as u(r, t, rj, d, s, b, q, a, sv, fi, de, o)
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
                  delivered_output = f.delivered_output or excluded.delivered_output
                returning request, rejected and (served or delivered_output) and not served_finding, tenant,
                  rejected_deployment, rejected_stream, rejected_boot, rejected_seq, rejected_at, served,
                  delivered_output, served_finding""".formatted(EARLIER_REJECTION))) {
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
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String req = rs.getString(1);
                    String how = rs.getBoolean(9) ? "then allocated or attended" : "";
                    if (rs.getBoolean(10)) {
                        how += (how.isEmpty() ? "" : ", and ") + "finished delivered with output";
                    }
                    if (rs.getBoolean(2)) {
                        raised.add(new Finding(Rule.REJECTED_REQUEST_SERVED, rs.getString(4), req,
                                rs.getTimestamp(8).toInstant(), new Finding.Evidence(rs.getString(5),
                                        rs.getString(6), rs.getLong(7), rs.getLong(7), rejectedServed(req,
                                                rs.getString(3), rs.getLong(7), how))));
                    } else if (rs.getBoolean(11) && !how.isEmpty()) {
                        later.put(req, new Detail(rs.getString(4), rs.getString(5), rs.getString(6), rs.getLong(7),
                                rs.getTimestamp(8), rejectedServed(req, rs.getString(3), rs.getLong(7), how)));
                    }
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

    private static String rejectedServed(String request, String tenant, long seq, String how) {
        return "request " + request + " of tenant " + tenant + " was rejected at admission (seq " + seq + ") and "
                + how;
    }
}
