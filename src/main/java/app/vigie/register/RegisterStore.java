package app.vigie.register;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.ToLongFunction;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import app.vigie.compliance.plan.Decision;
import app.vigie.compliance.plan.Obligation;
import app.vigie.compliance.rules.ObligationRule.Kind;
import app.vigie.compliance.service.ObligationService;
import app.vigie.incident.IncidentMeasure;
import app.vigie.incident.IncidentQueries;
import app.vigie.incident.IncidentView;
import app.vigie.incident.TenantView;
import app.vigie.notice.NoticeService;
import app.vigie.notice.Statements;

/** Builds register entries from an incident's facts and appends them to the chain; reads and checks the chain. */
@ApplicationScoped
public class RegisterStore {
    /** One lock for every append: the chain has one head. */
    private static final long APPEND_LOCK = 0x5649474945524547L;

    @Inject
    ObligationService obligations;

    @Inject
    ObjectMapper json;

    @Inject
    NoticeService notices;

    @ConfigProperty(name = "vigie.provider.legal-name")
    Optional<String> providerName;

    /** A stored entry: its place in the chain and its body as written. */
    public record Stored(long id, String register, UUID incidentId, Instant recordedAt, String recordedBy,
            RegisterEntry entry, String prevHash, String hash) {
    }

    /** The entry of {@code tenant}'s register (null: the provider's own) for an incident, as of {@code now}. */
    public RegisterEntry build(Connection c, IncidentView incident, String tenant, Instant now) throws SQLException {
        ObligationService.Plan plan = obligations.plan(c, incident.id(), now, false).orElseThrow();
        List<TenantView> tenants = IncidentQueries.tenants(c, IncidentQueries.exposures(c, incident.id()));
        List<RegisterEntry.Measure> measures = IncidentMeasure.of(incident.id()).stream()
                .map(m -> new RegisterEntry.Measure(m.takenAt(), m.text())).toList();
        RegisterEntry.Records records;
        String controller;
        if (tenant == null) {
            controller = providerName.filter(x -> !x.isBlank()).orElse(null);  // shown as "to be completed"
            records = new RegisterEntry.Records(sum(tenants, TenantView::exposedRequests),
                    sum(tenants, TenantView::exposedTokens), sum(tenants, TenantView::receivedTokens),
                    sum(tenants, TenantView::responsesReceived), tenants.size());
        } else {
            TenantView t = tenants.stream().filter(x -> x.tenant().equals(tenant)).findFirst().orElseThrow();
            controller = t.controller();
            records = new RegisterEntry.Records(t.exposedRequests(), t.exposedTokens(), t.receivedTokens(),
                    t.responsesReceived(), null);
        }
        List<Obligation> own = plan.of(tenant);
        Instant aware = tenant == null ? null : plan.controllerAwareAt(tenant);
        var severity = tenant == null ? null : plan.severity().get(tenant);
        Statements st = tenant == null ? Statements.NONE
                : notices.statements(c, incident.id(), tenant);
        String delay = st.delayReasons() != null ? st.delayReasons() : own.stream()
                .flatMap(o -> o.completions().stream()).map(x -> x.lateReasons()).filter(x -> x != null)
                .findFirst().orElse(null);
        // the nature of the breach for this register: its holder's own data read, or only others' data received
        String nature = tenant != null && records.exposedRequests() == 0 ? "received_only" : "confidentiality";
        List<RegisterEntry.DecisionLine> decisions = plan.decisions().getOrDefault(tenant == null ? "" : tenant,
                Map.of()).values().stream().sorted(Comparator.comparing(
                        Decision::name)).map(d -> new RegisterEntry.DecisionLine(d.name(),
                        d.value(), d.at(), d.justification())).toList();
        return new RegisterEntry(tenant == null ? "provider" : tenant, controller, incident.id(),
                incident.deployment(), incident.classification(), incident.status(), nature,
                incident.firstExposureAt(), incident.lastExposureAt(), incident.detectedAt(),
                aware, records,
                new RegisterEntry.Persons(st.personCategories(), st.approximatePersons(),
                        "stated by the controller; the processor does not read prompts"),
                st.likelyConsequences(), measures, notifications(own, Kind.AUTHORITY_NOTIFICATION, Kind.EARLY_WARNING),
                notifications(own, Kind.DATA_SUBJECT_COMMUNICATION),
                severity == null ? null : new RegisterEntry.Severity(severity.level(), severity.basis()),
                obligations.rulesVersion(), now, new TreeMap<>(incident.findings()), st.dataCategories(),
                st.specialCategories(), delay, decisions);
    }

    private static long sum(List<TenantView> tenants, ToLongFunction<TenantView> f) {
        return tenants.stream().mapToLong(f).sum();
    }

    private static List<RegisterEntry.Notification> notifications(List<Obligation> own, Kind... kinds) {
        List<Kind> wanted = List.of(kinds);
        return own.stream().filter(o -> wanted.contains(o.kind())).map(o -> new RegisterEntry.Notification(
                o.rule(), o.recipient(), o.recipientName(), o.status().name(), o.dueAt(), o.doneAt(),
                o.completions().isEmpty() ? null : o.completions().get(0).evidence(), o.reason(),
                o.reasonCode() == null ? null : o.reasonCode().name())).toList();
    }

    /** Appends an entry at the chain's head; the caller's transaction commits it. */
    public Stored append(Connection c, RegisterEntry entry, String actor, Instant now) throws SQLException {
        String body;
        try {
            body = json.writeValueAsString(entry);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        try (PreparedStatement ps = c.prepareStatement("select pg_advisory_xact_lock(?)")) {
            ps.setLong(1, APPEND_LOCK);
            ps.execute();
        }
        String previous = RegisterChain.GENESIS;
        try (PreparedStatement ps = c.prepareStatement("select hash from register_entry order by id desc limit 1");
                ResultSet rs = ps.executeQuery()) {
            if (rs.next()) {
                previous = rs.getString(1);
            }
        }
        String hash = RegisterChain.hash(previous, body);
        try (PreparedStatement ps = c.prepareStatement("""
                insert into register_entry (controller, incident_id, recorded_at, recorded_by, body, prev_hash, hash)
                values (?, ?, ?, ?, ?, ?, ?) returning id""")) {
            ps.setString(1, "provider".equals(entry.register()) ? "" : entry.register());
            ps.setObject(2, entry.incidentId());
            ps.setTimestamp(3, Timestamp.from(now));
            ps.setString(4, actor);
            ps.setString(5, body);
            ps.setString(6, previous);
            ps.setString(7, hash);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return new Stored(rs.getLong(1), entry.register(), entry.incidentId(), now, actor, entry, previous,
                        hash);
            }
        }
    }

    /** Entries, oldest first, of a register ({@code register}: a tenant, "provider", or null for all). */
    public List<Stored> list(Connection c, String register, UUID incident) throws SQLException {
        List<Stored> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                select id, controller, incident_id, recorded_at, recorded_by, body, prev_hash, hash
                from register_entry where (?::text is null or controller = ?) and (?::uuid is null or incident_id = ?)
                order by id""")) {
            String controller = register == null ? null : "provider".equals(register) ? "" : register;
            ps.setString(1, controller);
            ps.setString(2, controller);
            ps.setObject(3, incident);
            ps.setObject(4, incident);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String r = rs.getString(2);
                    out.add(new Stored(rs.getLong(1), r.isEmpty() ? "provider" : r, rs.getObject(3, UUID.class),
                            rs.getTimestamp(4).toInstant(), rs.getString(5), read(rs.getString(6)), rs.getString(7),
                            rs.getString(8)));
                }
            }
        }
        return out;
    }

    /** Checks the whole chain from its first entry, reading it in pages. */
    public RegisterChain.Verdict verify(Connection c) throws SQLException {
        RegisterChain.Checker checker = new RegisterChain.Checker();
        long after = 0;
        while (true) {
            int n = 0;
            try (PreparedStatement ps = c.prepareStatement(
                    "select id, body, prev_hash, hash from register_entry where id > ? order by id limit 1000")) {
                ps.setLong(1, after);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        n++;
                        after = rs.getLong(1);
                        if (!checker.accept(new RegisterChain.Link(after, rs.getString(2), rs.getString(3),
                                rs.getString(4)))) {
                            return checker.verdict();
                        }
                    }
                }
            }
            if (n < 1000) {
                return checker.verdict();
            }
        }
    }

    private RegisterEntry read(String body) {
        try {
            return json.readValue(body, RegisterEntry.class);
        } catch (JsonProcessingException e) {
            return null;  // a body changed into something unreadable: verify names it
        }
    }
}
