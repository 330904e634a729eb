package app.vigie.compliance.service;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.agroal.api.AgroalDataSource;

import app.vigie.audit.AuditTrail;
import app.vigie.compliance.plan.CaseFacts;
import app.vigie.compliance.plan.Completion;
import app.vigie.compliance.plan.Decision;
import app.vigie.compliance.plan.Obligation;
import app.vigie.compliance.severity.EnisaSeverity;
import app.vigie.db.Transactions;
import app.vigie.incident.IncidentIds;
import app.vigie.problem.ProblemException;
import app.vigie.security.Role;

/**
 * An incident's obligations and the facts of each case that drive them: the controller's awareness, decisions,
 * severity (ENISA's inputs and the controller's override), completions with their evidence. Every change is
 * audited. See docs/obligations.md.
 */
@Path("/api/incidents/{id}")
@Produces(MediaType.APPLICATION_JSON)
public class ObligationResource {
    /** Times up to this far ahead of the server's clock are accepted (clock skew), not more. */
    private static final Duration SKEW = Duration.ofMinutes(5);
    private static final int TEXT_MAX = 4000;

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

    @GET
    @Path("obligations")
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public List<Obligation> obligations(@PathParam("id") String id) throws SQLException {
        return read(id, (c, plan) -> plan.obligations());
    }

    @GET
    @Path("tenants/{tenant}/obligations")
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public List<Obligation> tenantObligations(@PathParam("id") String id, @PathParam("tenant") String tenant)
            throws SQLException {
        return read(id, (c, plan) -> plan.of(affected(plan, tenant)));
    }

    @GET
    @Path("tenants/{tenant}/case")
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public CaseView tenantCase(@PathParam("id") String id, @PathParam("tenant") String tenant) throws SQLException {
        return read(id, (c, plan) -> view(plan, affected(plan, tenant)));
    }

    @GET
    @Path("case")
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public CaseView providerCase(@PathParam("id") String id) throws SQLException {
        return read(id, (c, plan) -> view(plan, ""));
    }

    @PUT
    @Path("tenants/{tenant}/awareness")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST})
    public CaseView awareness(@PathParam("id") String id, @PathParam("tenant") String tenant, AwarenessBody body,
            @Context SecurityContext who) throws SQLException {
        if (body == null) {
            throw new ProblemException(400, "a body {\"aware_at\": ..., \"evidence\": ...} is required");
        }
        String actor = actor(who);
        return write(id, (c, plan, now) -> {
            String t = affected(plan, tenant);
            Instant at = time("aware_at", body.awareAt(), true, plan, now);
            String evidence = text("evidence", body.evidence(), true);
            CaseStore.Awareness before = plan.awareness().get(t);
            CaseStore.Awareness after = new CaseStore.Awareness(at, evidence, actor, now);
            CaseStore.setAwareness(c, plan.incident().id(), t, after);
            AuditTrail.record(c, actor, "case.awareness", target(plan, t), write(before), write(after));
            return t;
        }, this::view);
    }

    @PUT
    @Path("tenants/{tenant}/decisions/{decision}")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST})
    public CaseView tenantDecision(@PathParam("id") String id, @PathParam("tenant") String tenant,
            @PathParam("decision") String decision, DecisionBody body, @Context SecurityContext who)
            throws SQLException {
        return decide(id, tenant, decision, body, actor(who));
    }

    @PUT
    @Path("decisions/{decision}")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST})
    public CaseView providerDecision(@PathParam("id") String id, @PathParam("decision") String decision,
            DecisionBody body, @Context SecurityContext who) throws SQLException {
        return decide(id, null, decision, body, actor(who));
    }

    @PUT
    @Path("tenants/{tenant}/severity")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST})
    public CaseView severity(@PathParam("id") String id, @PathParam("tenant") String tenant, SeverityBody body,
            @Context SecurityContext who) throws SQLException {
        return assessSeverity(id, tenant, body, actor(who));
    }

    /** Records a tenant's severity, checked, for a caller that checked who may (the API above, a portal). */
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
            } else if (justification.length() > TEXT_MAX) {
                problems.add("'override.justification' has at most " + TEXT_MAX + " characters");
            }
        }
        if (!problems.isEmpty()) {
            throw new ProblemException(400, String.join("; ", problems));
        }
        String overrideLevel = level;
        String overrideJustification = justification;
        return write(id, (c, plan, now) -> {
            String t = affected(plan, tenant);
            CaseStore.SeverityRow row = new CaseStore.SeverityRow(
                    body.inputs() == null ? null : json.writeValueAsString(body.inputs()), overrideLevel,
                    overrideJustification, actor, now);
            ObligationService.SeverityView before = plan.severity().get(t);
            CaseStore.setSeverity(c, plan.incident().id(), t, row);
            AuditTrail.record(c, actor, "case.severity", target(plan, t), write(before),
                    write(service.severity(row)));
            return t;
        }, this::view);
    }

    @POST
    @Path("tenants/{tenant}/obligations/{rule}/{recipient}/completions")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST})
    public Response tenantCompletion(@PathParam("id") String id, @PathParam("tenant") String tenant,
            @PathParam("rule") String rule, @PathParam("recipient") String recipient, CompletionBody body,
            @Context SecurityContext who) throws SQLException {
        return complete(id, tenant, rule, recipient, body, actor(who));
    }

    @POST
    @Path("obligations/{rule}/{recipient}/completions")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST})
    public Response providerCompletion(@PathParam("id") String id, @PathParam("rule") String rule,
            @PathParam("recipient") String recipient, CompletionBody body, @Context SecurityContext who)
            throws SQLException {
        return complete(id, null, rule, recipient, body, actor(who));
    }

    @GET
    @Path("escalations")
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public List<CaseStore.EscalationRow> escalations(@PathParam("id") String id) throws SQLException {
        UUID uuid = IncidentIds.uuid(id);
        return Transactions.run(dataSource, c -> {
            if (CaseStore.incident(c, uuid, false).isEmpty()) {
                throw IncidentIds.notFound(id);
            }
            return CaseStore.escalations(c, uuid, 0, Integer.MAX_VALUE);
        });
    }

    private CaseView decide(String id, String tenant, String decision, DecisionBody body, String actor)
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
            Instant at = body.decidedAt() == null ? now : time("decided_at", body.decidedAt(), false, plan, now);
            Decision d = new Decision(decision, body.value(), at, text("justification", body.justification(), true));
            Decision before = plan.decisions().getOrDefault(t, Map.of()).get(decision);
            CaseStore.setDecision(c, plan.incident().id(), t, d, actor, now);
            AuditTrail.record(c, actor, "case.decision", target(plan, t), write(before), write(d));
            return t;
        }, this::view);
    }

    private Response complete(String id, String tenant, String rule, String recipient, CompletionBody body,
            String actor) throws SQLException {
        if (body == null) {
            throw new ProblemException(400, "a body {\"done_at\": ..., \"evidence\": ...} is required");
        }
        Obligation[] key = new Obligation[1];
        Obligation done = write(id, (c, plan, now) -> {
            String t = tenant == null ? null : affected(plan, tenant);
            Obligation o = plan.of(t).stream().filter(x -> x.rule().equals(rule) && x.recipient().equals(recipient))
                    .findFirst().orElseThrow(() -> new ProblemException(404, "no obligation " + rule + " toward "
                            + recipient + " in " + (t == null ? "the provider's case" : "tenant " + t + "'s case")
                            + "; there are: " + String.join(", ", plan.of(t).stream()
                                    .map(x -> x.rule() + " toward " + x.recipient()).toList())));
            Instant at = time("done_at", body.doneAt(), true, plan, now);
            String evidence = text("evidence", body.evidence(), true);
            String reasons = body.lateReasons() == null ? null : text("late_reasons", body.lateReasons(), false);
            String phase = phase(o, body.phase());
            boolean first = phase == null || phase.equals("INITIAL");
            if (o.lateReasonsRequired() && first && o.lateAfter() != null && at.isAfter(o.lateAfter())
                    && reasons == null) {
                throw new ProblemException(400, "done after its due time " + o.lateAfter() + ": 'late_reasons' is "
                        + "required (" + o.source() + ")");
            }
            Completion completion = new Completion(phase, at, evidence, reasons, actor, now);
            CaseStore.addCompletion(c, plan.incident().id(), o, completion);
            AuditTrail.record(c, actor, "obligation.completion", target(plan, t == null ? "" : t) + "/" + rule + "/"
                    + recipient, write(o.status()), write(completion));
            key[0] = o;
            return t == null ? "" : t;
        }, (plan, t) -> {
            Obligation o = key[0];
            return plan.of(t.isEmpty() ? null : t).stream().filter(x -> x.key().equals(o.key())).findFirst()
                    .orElseThrow();
        });
        return Response.status(201).entity(done).build();
    }

    /**
     * INITIAL then COMPLEMENTARY for a phased notification; nothing for the others, once, or as many times as a
     * repeatable report is made (DORA's updated intermediate reports).
     */
    private static String phase(Obligation o, String given) {
        String p = given == null ? null : given.strip().toUpperCase(Locale.ROOT);
        if (!o.phased()) {
            if (p != null) {
                throw new ProblemException(400, o.rule() + " is not phased: give no 'phase'");
            }
            if (!o.completions().isEmpty() && !o.repeatable()) {
                throw new ProblemException(409, o.rule() + " toward " + o.recipient() + " is already recorded done ("
                        + o.completions().get(0).doneAt() + ", " + o.completions().get(0).evidence() + ")");
            }
            return null;
        }
        String expected = o.completions().isEmpty() ? "INITIAL" : "COMPLEMENTARY";
        if (p == null) {
            return expected;
        }
        if (!p.equals("INITIAL") && !p.equals("COMPLEMENTARY")) {
            throw new ProblemException(400, "'phase' must be INITIAL or COMPLEMENTARY");
        }
        if (!p.equals(expected)) {
            throw new ProblemException(409, o.completions().isEmpty()
                    ? "the first notification of " + o.rule() + " is the INITIAL one"
                    : "the INITIAL notification of " + o.rule() + " is already recorded: the next are COMPLEMENTARY");
        }
        return p;
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

    private <T> T read(String id, PlanRead<T> read) throws SQLException {
        UUID uuid = IncidentIds.uuid(id);
        return Transactions.run(dataSource, c -> read.read(c, service.plan(c, uuid, clock.instant(), false)
                .orElseThrow(() -> IncidentIds.notFound(id))));
    }

    private <T> T write(String id, CaseChange change, AfterChange<T> answer) throws SQLException {
        UUID uuid = IncidentIds.uuid(id);
        return Transactions.run(dataSource, c -> {
            Instant now = clock.instant();
            ObligationService.Plan plan = service.plan(c, uuid, now, true)
                    .orElseThrow(() -> IncidentIds.notFound(id));
            String tenant;
            try {
                tenant = change.change(c, plan, now);
            } catch (JsonProcessingException e) {
                throw new IllegalStateException(e);
            }
            return answer.answer(service.plan(c, uuid, now, false).orElseThrow(), tenant);
        });
    }

    private CaseView view(ObligationService.Plan plan, String tenant) {
        CaseStore.Awareness a = plan.awareness().get(tenant);
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

    /** An RFC 3339 time of the body: not in the future, not before the incident was detected. */
    private static Instant time(String field, String value, boolean required, ObligationService.Plan plan,
            Instant now) {
        if (value == null || value.isBlank()) {
            if (required) {
                throw new ProblemException(400, "field '" + field + "' is required (RFC 3339, e.g. "
                        + "2026-10-25T09:30:00+02:00)");
            }
            return null;
        }
        Instant at;
        try {
            at = OffsetDateTime.parse(value.strip()).toInstant();
        } catch (DateTimeParseException e) {
            throw new ProblemException(400, "field '" + field + "' must be an RFC 3339 time with its offset, such as "
                    + "2026-10-25T09:30:00+02:00 or 2026-10-25T07:30:00Z; got '" + value + "'");
        }
        if (at.isAfter(now.plus(SKEW))) {
            throw new ProblemException(400, "field '" + field + "' is in the future: " + at);
        }
        if (at.isBefore(plan.incident().detectedAt())) {
            throw new ProblemException(400, "field '" + field + "' is before the incident was detected ("
                    + plan.incident().detectedAt() + "): " + at);
        }
        return at;
    }

    private static String text(String field, String value, boolean required) {
        String v = value == null ? null : value.strip();
        if (v == null || v.isEmpty()) {
            if (required) {
                throw new ProblemException(400, "field '" + field + "' is required");
            }
            return null;
        }
        if (v.length() > TEXT_MAX) {
            throw new ProblemException(400, "field '" + field + "' has at most " + TEXT_MAX + " characters");
        }
        return v;
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

    private static String actor(SecurityContext who) {
        return who.getUserPrincipal().getName();
    }
}
