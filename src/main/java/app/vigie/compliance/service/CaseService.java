package app.vigie.compliance.service;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.jboss.logging.Logger;

import io.agroal.api.AgroalDataSource;

import app.vigie.audit.AuditTrail;
import app.vigie.compliance.plan.CaseFacts;
import app.vigie.compliance.plan.Completion;
import app.vigie.compliance.plan.Decision;
import app.vigie.compliance.plan.Obligation;
import app.vigie.compliance.severity.EnisaSeverity;
import app.vigie.db.Transactions;
import app.vigie.db.UnitOfWork;
import app.vigie.incident.IncidentIds;
import app.vigie.incident.OverviewQueries;
import app.vigie.incident.IncidentView;
import app.vigie.incident.PossibleDecisionListener;
import app.vigie.problem.ProblemException;

/**
 * The use cases of an incident's cases: reading its obligations and a party's case, recording the controller's
 * awareness, a decision, a severity, a completion. Each change is one transaction that locks the incident, checks
 * the change against the plan, writes it with its audit event, and answers from the plan made after it. See
 * docs/obligations.md.
 */
@ApplicationScoped
public class CaseService {
    private static final Logger LOG = Logger.getLogger(CaseService.class);
    @Inject
    AgroalDataSource dataSource;

    @Inject
    ObligationService service;

    @Inject
    ComplianceRules rules;

    @Inject
    ObjectMapper json;

    @Inject
    Clock clock;

    @Inject
    @Any
    Instance<PossibleDecisionListener> possibleDecided;

    public record AwarenessBody(String awareAt, String evidence) {
    }

    public record DecisionBody(Boolean value, String decidedAt, String justification) {
    }

    public record OverrideBody(String level, String justification) {
    }

    public record SeverityBody(EnisaSeverity.Inputs inputs, OverrideBody override) {
    }

    public record CompletionBody(String doneAt, String evidence, String phase, String lateReasons) {
    }

    /**
     * A party's case: what is recorded and what may be decided. {@code tenant} null: the provider's own.
     * {@code controllerAwareAt}: the earlier of {@code alertDeliveredAt} (Vigie's first alert delivered) and
     * {@code recordedAwareAt} (an awareness recorded otherwise, with its evidence).
     */
    public record CaseView(String tenant, String controller, boolean mapped, String country, String exposure,
            Instant controllerAwareAt, Instant alertDeliveredAt, Instant recordedAwareAt, String awarenessEvidence,
            List<Decision> decisions, Set<String> decisionsAllowed, ObligationService.SeverityView severity,
            String rulesVersion) {
    }

    /** The incident's obligations, all parties'. */
    public List<Obligation> obligations(String id) throws SQLException {
        return read(id, (c, plan) -> plan.obligations());
    }

    /** The obligations of one affected tenant's controller. */
    public List<Obligation> tenantObligations(String id, String tenant) throws SQLException {
        return read(id, (c, plan) -> plan.of(affected(plan, tenant)));
    }

    /** One affected tenant's case. */
    public CaseView tenantCase(String id, String tenant) throws SQLException {
        return read(id, (c, plan) -> view(plan, affected(plan, tenant)));
    }

    /** The provider's own case. */
    public CaseView providerCase(String id) throws SQLException {
        return read(id, (c, plan) -> view(plan, ""));
    }

    /** Records when a tenant's controller became aware otherwise than by Vigie's alert, with its evidence. */
    public CaseView setAwareness(String id, String tenant, AwarenessBody body, String actor) throws SQLException {
        if (body == null) {
            throw new ProblemException(400, "a body {\"aware_at\": ..., \"evidence\": ...} is required");
        }
        return write(id, (c, plan, now) -> {
            String t = affected(plan, tenant);
            Instant at = CaseInput.time("aware_at", body.awareAt(), true, plan.incident().detectedAt(), now);
            String evidence = CaseInput.text("evidence", body.evidence(), true);
            CaseAwareness.Awareness before = plan.awareness().get(t);
            CaseAwareness.Awareness after = new CaseAwareness.Awareness(at, evidence, actor, now);
            CaseAwareness.record(plan.incident().id(), t, after);
            AuditTrail.record(actor, "case.awareness", target(plan, t), write(before), write(after));
            return t;
        }, this::view);
    }

    /** Records a tenant's severity (ENISA's inputs, the controller's override, or both), checked. */
    public CaseView assessSeverity(String id, String tenant, SeverityBody body, String actor) throws SQLException {
        if (body == null || body.inputs() == null && body.override() == null) {
            throw new ProblemException(400, "give 'inputs' (ENISA's), an 'override' {level, justification}, or both");
        }
        List<String> problems = new ArrayList<>();
        if (body.inputs() != null) {
            problems.addAll(rules.severity().problems(body.inputs()));
        }
        String level = null;
        String justification = null;
        if (body.override() != null) {
            level = body.override().level() == null ? null : body.override().level().strip().toUpperCase(Locale.ROOT);
            if (level == null || !CaseFacts.LEVELS.contains(level)) {
                problems.add("'override.level' must be one of LOW, MEDIUM, HIGH, VERY_HIGH");
            }
            justification = body.override().justification() == null ? null : body.override().justification().strip();
            if (justification == null || justification.isEmpty()) {
                problems.add("'override.justification' is required: the controller's reasons for its level");
            } else if (justification.length() > CaseInput.TEXT_MAX) {
                problems.add("'override.justification' has at most " + CaseInput.TEXT_MAX + " characters");
            }
        }
        if (!problems.isEmpty()) {
            throw new ProblemException(400, String.join("; ", problems));
        }
        String overrideLevel = level;
        String overrideJustification = justification;
        return write(id, (c, plan, now) -> {
            String t = affected(plan, tenant);
            CaseSeverity.Row row = new CaseSeverity.Row(
                    body.inputs() == null ? null : json.writeValueAsString(body.inputs()), overrideLevel,
                    overrideJustification, actor, now);
            ObligationService.SeverityView before = plan.severity().get(t);
            CaseSeverity.record(plan.incident().id(), t, row);
            AuditTrail.record(actor, "case.severity", target(plan, t), write(before),
                    write(service.severity(row)));
            return t;
        }, this::view);
    }

    /** The escalations sent for the incident's deadlines. */
    @UnitOfWork
    public List<Escalation.Row> escalations(String id) throws SQLException {
        UUID uuid = IncidentIds.uuid(id);
        try (Connection c = Transactions.connection(dataSource)) {
            if (CaseStore.incident(c, uuid, false).isEmpty()) {
                throw IncidentIds.notFound(id);
            }
            return Escalation.after(uuid, 0, Integer.MAX_VALUE);
        }
    }

    /** An open incident and its plan (none when the incident has no plan yet). */
    public record OpenIncident(IncidentView incident, Optional<ObligationService.Plan> plan) {
    }

    /**
     * A page of open incidents: {@code total} those the filter selects, {@code open} every open incident, and the
     * summary the last reminder check counted (counted by the overview itself before the first check).
     */
    public record OpenIncidents(int total, int pages, int page, List<OpenIncident> incidents, int open,
            Optional<DeadlineStore.Summary> summary) {
    }

    /**
     * The open incidents {@code filter} selects, newest first, {@code size} a page, with their plans at {@code now},
     * and the last summary, read in one transaction; a page past the last gives the last.
     */
    @UnitOfWork
    public OpenIncidents openIncidents(OverviewQueries.OpenFilter filter, int page, int size, Instant now)
            throws SQLException {
        try (Connection c = Transactions.connection(dataSource)) {
            // incidents detected since the last reminder check: planned here, so that the counts include them
            List<CaseStore.IncidentRow> unplanned = CaseStore.unplanned(c, size);
            if (!unplanned.isEmpty()) {
                DeadlineStore.save(c, service.plans(c, unplanned, now, (i, e) -> LOG.errorf(e,
                        "Incident %s could not be planned for the overview", i.id())), now);
            }
            int all = OverviewQueries.countOpen(c, OverviewQueries.OpenFilter.ALL, now, DeadlineStore.SOON);
            int total = filter == OverviewQueries.OpenFilter.ALL ? all
                    : OverviewQueries.countOpen(c, filter, now, DeadlineStore.SOON);
            int pages = Math.max(1, (total + size - 1) / size);
            int shown = Math.min(page, pages);
            List<IncidentView> open = OverviewQueries.listOpen(c, filter, now, DeadlineStore.SOON, size,
                    (shown - 1) * size);
            Map<UUID, ObligationService.Plan> plans = new HashMap<>();
            service.plans(c, open.stream().map(i -> new CaseStore.IncidentRow(i.id(), i.detectedAt(), i.status(),
                    i.statusReason())).toList(), now, (i, e) -> {
                        throw e;
                    }).forEach(p -> plans.put(p.incident().id(), p));
            // before the first reminder check (a service just started), the summary is counted here, once
            Optional<DeadlineStore.Summary> summary = DeadlineStore.last(c);
            if (summary.isEmpty()) {
                summary = Optional.of(DeadlineStore.refresh(c, now));
            }
            return new OpenIncidents(total, pages, shown, open.stream()
                    .map(i -> new OpenIncident(i, Optional.ofNullable(plans.get(i.id())))).toList(), all,
                    summary);
        }
    }

    /** Every escalation written, oldest first, from after the id {@code after}: at most {@code limit}, as a feed. */
    @UnitOfWork
    public List<Escalation.Row> escalations(long after, int limit) throws SQLException {
        return Escalation.after(null, after, limit);
    }

    /** Records a decision of a tenant's case ({@code tenant} null: the provider's), one the plan allows. */
    public CaseView decide(String id, String tenant, String decision, DecisionBody body, String actor)
            throws SQLException {
        if (body == null || body.value() == null) {
            throw new ProblemException(400, "field 'value' (true or false) is required");
        }
        return write(id, (c, plan, now) -> {
            String t = tenant == null ? "" : affected(plan, tenant);
            Set<String> allowed = service.decisionsAllowed(plan, t);
            if (!allowed.contains(decision)) {
                throw new ProblemException(400, "'" + decision + "' is not a decision of "
                        + (t.isEmpty() ? "the provider's case" : "tenant " + t + "'s case") + " in this incident: "
                        + (allowed.isEmpty() ? "none applies" : "one of " + String.join(", ", allowed)));
            }
            Instant at = body.decidedAt() == null ? now
                    : CaseInput.time("decided_at", body.decidedAt(), false, plan.incident().detectedAt(), now);
            Decision d = new Decision(decision, body.value(), at,
                    CaseInput.text("justification", body.justification(), true));
            Decision before = plan.decisions().getOrDefault(t, Map.of()).get(decision);
            CaseDecision.record(plan.incident().id(), t, d, actor, now);
            AuditTrail.record(actor, "case.decision", target(plan, t), write(before), write(d));
            if (t.isEmpty() && decision.equals(ObligationService.POSSIBLE_BREACH)) {
                // the tenants the possible exposures touch learn the conclusion (a breach or not) by an alert
                for (PossibleDecisionListener l : possibleDecided) {
                    l.possibleDecided(c, plan.incident().id(), plan.possiblyAffected(), body.value(), now);
                }
            }
            return t;
        }, this::view);
    }

    /**
     * Records an obligation done ({@code tenant} null: the provider's), with its evidence, its phase and, when late,
     * the reasons; answers the obligation as planned after it.
     */
    public Obligation complete(String id, String tenant, String rule, String recipient, CompletionBody body,
            String actor) throws SQLException {
        if (body == null) {
            throw new ProblemException(400, "a body {\"done_at\": ..., \"evidence\": ...} is required");
        }
        Obligation[] key = new Obligation[1];
        return write(id, (c, plan, now) -> {
            String t = tenant == null ? null : affected(plan, tenant);
            Obligation o = plan.of(t).stream().filter(x -> x.rule().equals(rule) && x.recipient().equals(recipient))
                    .findFirst().orElseThrow(() -> new ProblemException(404, "no obligation " + rule + " toward "
                            + recipient + " in " + (t == null ? "the provider's case" : "tenant " + t + "'s case")
                            + "; there are: " + String.join(", ", plan.of(t).stream()
                                    .map(x -> x.rule() + " toward " + x.recipient()).toList())));
            Instant at = CaseInput.time("done_at", body.doneAt(), true, plan.incident().detectedAt(), now);
            String evidence = CaseInput.text("evidence", body.evidence(), true);
            String reasons = body.lateReasons() == null ? null
                    : CaseInput.text("late_reasons", body.lateReasons(), false);
            String phase = CompletionPhase.of(o, body.phase());
            boolean first = phase == null || phase.equals("INITIAL");
            if (o.lateReasonsRequired() && first && o.lateAfter() != null && at.isAfter(o.lateAfter())
                    && reasons == null) {
                throw new ProblemException(400, "done after its due time " + o.lateAfter() + ": 'late_reasons' is "
                        + "required (" + o.source() + ")");
            }
            Completion completion = new Completion(phase, at, evidence, reasons, actor, now);
            ObligationCompletion.add(plan.incident().id(), o, completion);
            AuditTrail.record(actor, "obligation.completion", target(plan, t == null ? "" : t) + "/" + rule + "/"
                    + recipient, write(o.status()), write(completion));
            key[0] = o;
            return t == null ? "" : t;
        }, (plan, t) -> {
            Obligation o = key[0];
            return plan.of(t.isEmpty() ? null : t).stream().filter(x -> x.key().equals(o.key())).findFirst()
                    .orElseThrow();
        });
    }

    /** A read of one incident's plan. */
    @FunctionalInterface
    interface PlanRead<T> {
        T read(Connection c, ObligationService.Plan plan) throws SQLException;
    }

    /** A change to a case, in the transaction that locked the incident; returns the tenant it changed. */
    @FunctionalInterface
    interface CaseChange {
        String change(Connection c, ObligationService.Plan plan, Instant now) throws SQLException,
                JsonProcessingException;
    }

    /** The answer of a change, from the plan made after it. */
    @FunctionalInterface
    interface AfterChange<T> {
        T answer(ObligationService.Plan plan, String tenant);
    }

    @UnitOfWork
    <T> T read(String id, PlanRead<T> read) throws SQLException {
        UUID uuid = IncidentIds.uuid(id);
        try (Connection c = Transactions.connection(dataSource)) {
            return read.read(c, service.plan(c, uuid, clock.instant(), false)
                    .orElseThrow(() -> IncidentIds.notFound(id)));
        }
    }

    @UnitOfWork
    <T> T write(String id, CaseChange change, AfterChange<T> answer) throws SQLException {
        UUID uuid = IncidentIds.uuid(id);
        try (Connection c = Transactions.connection(dataSource)) {
            Instant now = clock.instant();
            ObligationService.Plan plan = service.plan(c, uuid, now, true)
                    .orElseThrow(() -> IncidentIds.notFound(id));
            String tenant;
            try {
                tenant = change.change(c, plan, now);
            } catch (JsonProcessingException e) {
                throw new IllegalStateException(e);
            }
            ObligationService.Plan after = service.plan(c, uuid, now, false).orElseThrow();
            DeadlineStore.save(c, List.of(after), now);  // the overview's counts and filters follow at once
            return answer.answer(after, tenant);
        }
    }

    private CaseView view(ObligationService.Plan plan, String tenant) {
        CaseAwareness.Awareness a = plan.awareness().get(tenant);
        var profile = plan.profiles().get(tenant);
        Instant delivered = plan.alertsDelivered().get(tenant);
        var exposure = plan.exposure().get(tenant);
        return new CaseView(tenant.isEmpty() ? null : tenant, profile == null ? null : profile.legalName(),
                profile == null || profile.mapped(), profile == null ? rules.provider().country() : profile.country(),
                exposure == null ? null : exposure.name().toLowerCase(Locale.ROOT), plan.controllerAwareAt(tenant),
                delivered, a == null ? null : a.awareAt(), plan.awarenessEvidence(tenant),
                plan.decisions().getOrDefault(tenant, Map.of()).values().stream()
                        .sorted(Comparator.comparing(Decision::name)).toList(),
                service.decisionsAllowed(plan, tenant), plan.severity().get(tenant), rules.version());
    }

    private static String affected(ObligationService.Plan plan, String tenant) {
        if (!plan.tenants().contains(tenant)) {
            throw new ProblemException(404, "tenant '" + tenant + "' has no exposure in incident "
                    + plan.incident().id());
        }
        return tenant;
    }

    private String write(Object o) {
        try {
            return o == null ? null : json.writeValueAsString(o);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String target(ObligationService.Plan plan, String tenant) {
        return "incident:" + plan.incident().id() + (tenant.isEmpty() ? "/provider" : "/tenant:" + tenant);
    }
}
