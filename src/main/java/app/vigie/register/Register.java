package app.vigie.register;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.ToLongFunction;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;


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
import app.vigie.settings.SettingsService;

/**
 * The violation register: builds an entry from an incident's facts, appends it to the chain ({@link ChainedEntry}),
 * reads entries back and checks the chain.
 */
@ApplicationScoped
public class Register {
    /** The name of the provider's own register (stored with the controller {@code ''}): no tenant's register. */
    public static final String PROVIDER = "provider";
    /** Links the chain's check reads at a time. */
    private static final int VERIFY_PAGE = 1000;

    @Inject
    ObligationService obligations;

    @Inject
    ObjectMapper json;

    @Inject
    NoticeService notices;

    @Inject
    SettingsService settings;

    /** A stored entry: its place in the chain and its body as written. */
    public record Stored(long id, String register, UUID incidentId, Instant recordedAt, String recordedBy,
            RegisterEntry entry, String prevHash, String hash) {
    }

    /** The entry of {@code tenant}'s register (null: the provider's own) for an incident, as of {@code now}. */
    public RegisterEntry build(Connection c, IncidentView incident, String tenant, Instant now) throws SQLException {
        ObligationService.Plan plan = obligations.plan(c, incident.id(), now, false).orElseThrow();
        List<TenantView> tenants = IncidentQueries.tenants(c, incident.id());
        List<RegisterEntry.Measure> measures = IncidentMeasure.of(incident.id()).stream()
                .map(m -> new RegisterEntry.Measure(m.takenAt(), m.text())).toList();
        RegisterEntry.Records records;
        String controller;
        if (tenant == null) {
            controller = settings.identity().legalName();  // null: shown as "to be completed"
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
        return new RegisterEntry(tenant == null ? PROVIDER : tenant, controller, incident.id(),
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

    /**
     * The obligations of these kinds, less those planned only once a fact is recorded and not recorded (the public
     * communication of GDPR Art. 34(3)(c) before the effort is found disproportionate): they are no part of the case.
     */
    private static List<RegisterEntry.Notification> notifications(List<Obligation> own, Kind... kinds) {
        List<Kind> wanted = List.of(kinds);
        return own.stream().filter(o -> wanted.contains(o.kind())).filter(o -> !(o.status()
                == Obligation.Status.NOT_REQUIRED && o.reasonCode() == Obligation.ReasonCode.AWAITING_DECISION))
                .map(o -> new RegisterEntry.Notification(
                o.rule(), o.recipient(), o.recipientName(), o.status().name(), o.dueAt(), o.doneAt(),
                o.completions().isEmpty() ? null : o.completions().get(0).evidence(), o.reason(),
                o.reasonCode() == null ? null : o.reasonCode().name())).toList();
    }

    /**
     * Appends an entry at the chain's head, in the register its {@code tenant} names (null: the provider's own; a
     * tenant named {@value #PROVIDER} or empty is refused by the caller); the caller's transaction commits it.
     */
    public Stored append(String tenant, RegisterEntry entry, String actor, Instant now) {
        if (tenant != null && (tenant.isEmpty() || PROVIDER.equals(tenant))) {
            throw new IllegalArgumentException("no tenant's register is named '" + tenant + "'");
        }
        String body;
        try {
            body = json.writeValueAsString(entry);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        ChainedEntry e = ChainedEntry.append(tenant == null ? "" : tenant, entry.incidentId(), body, actor, now);
        return new Stored(e.id, entry.register(), entry.incidentId(), now, actor, entry, e.prevHash, e.hash);
    }

    /**
     * Entries, oldest first, of a register ({@code register}: a tenant, {@value #PROVIDER} for the provider's own, or
     * null for all), the name matched exactly.
     */
    public List<Stored> list(String register, UUID incident) {
        return stored(register == null ? null : PROVIDER.equals(register) ? "" : register, incident);
    }

    /**
     * Entries, oldest first, of the register of the tenant {@code tenant} only, its id matched exactly: never the
     * provider's own (a tenant of the log may be named {@value #PROVIDER}, or be empty), never another tenant's.
     */
    public List<Stored> ofTenant(String tenant, UUID incident) {
        if (tenant == null || tenant.isEmpty() || PROVIDER.equals(tenant)) {
            return List.of();  // no tenant's register is stored under these names (append refuses them)
        }
        return stored(tenant, incident);
    }

    private List<Stored> stored(String controller, UUID incident) {
        return ChainedEntry.of(controller, incident).stream().map(e -> new Stored(e.id,
                e.controller.isEmpty() ? PROVIDER : e.controller, e.incidentId, e.recordedAt, e.recordedBy,
                read(e.body), e.prevHash, e.hash)).toList();
    }

    /** Checks the whole chain from its first entry, reading it in pages. */
    public RegisterChain.Verdict verify() {
        RegisterChain.Checker checker = new RegisterChain.Checker();
        long after = 0;
        while (true) {
            List<RegisterChain.Link> page = ChainedEntry.links(after, VERIFY_PAGE);
            for (RegisterChain.Link link : page) {
                after = link.id();
                if (!checker.accept(link)) {
                    return checker.verdict();
                }
            }
            if (page.size() < VERIFY_PAGE) {
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
