package app.vigie.web.pages;

import java.net.URI;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.UUID;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;

import org.jboss.resteasy.reactive.RestForm;

import io.quarkus.qute.Engine;

import app.vigie.alert.AlertService;
import app.vigie.compliance.plan.Obligation;
import app.vigie.compliance.rules.ObligationRule;
import app.vigie.compliance.service.CaseService;
import app.vigie.compliance.service.ObligationService;
import app.vigie.detection.core.Rule;
import app.vigie.export.Csv;
import app.vigie.incident.IncidentExports;
import app.vigie.incident.IncidentIds;
import app.vigie.incident.IncidentQueries;
import app.vigie.incident.IncidentService;
import app.vigie.incident.IncidentStatus;
import app.vigie.incident.IncidentView;
import app.vigie.incident.MeasureService;
import app.vigie.incident.TenantView;
import app.vigie.notice.CaseFileService;
import app.vigie.notice.DocumentService;
import app.vigie.notice.DutyWords;
import app.vigie.notice.Reader;
import app.vigie.notice.TechnicalCause;
import app.vigie.notice.When;
import app.vigie.notice.Words;
import app.vigie.pack.RegulatorPackService;
import app.vigie.problem.Params;
import app.vigie.problem.ProblemException;
import app.vigie.rootcause.RootCauses;
import app.vigie.security.Role;
import app.vigie.tenant.Tenant;
import app.vigie.tenant.TenantService;
import app.vigie.time.Zones;
import app.vigie.web.LocalTimes;
import app.vigie.web.csrf.DashboardForm;

/**
 * An incident's page and its actions: facts, timeline, the exposure matrix, every party's obligations, findings,
 * measures, documents; and the forms that change it (status with a reason, a measure, an obligation done with the
 * authority's receipt number). The forms post here with their CSRF token and go through the same code as the API;
 * a refused action shows the page again with the reason and the values typed, answered with the API's status.
 */
@Path("/incidents/{id}")
@Produces(MediaType.TEXT_HTML)
public class IncidentPages {
    private static final int FINDINGS_SHOWN = 50;
    private static final int ALERTS_SHOWN = 200;

    @Inject
    Engine engine;

    @Inject
    CaseFileService files;

    @Inject
    Clock clock;

    @Inject
    DocumentService documents;

    @Inject
    IncidentService incidents;

    @Inject
    AlertService alerts;

    @Inject
    MeasureService measures;

    @Inject
    CaseService cases;

    @Inject
    DutyWords dutyWords;

    @Inject
    Words documentWords;

    @Inject
    RootCauses rootCauses;

    @Inject
    RegulatorPackService packs;

    @Inject
    ObligationService obligations;

    @Inject
    TenantService tenantsDirectory;

    @GET
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public String incident(@PathParam("id") String id, @QueryParam("lang") String lang,
            @QueryParam("zone") String zone, @QueryParam("done") String done, @QueryParam("duty") String duty,
            @QueryParam("findings") String findingsPage,
            @HeaderParam("Accept-Language") String accept, @Context SecurityContext who) throws SQLException {
        Reader.language(lang, "en");
        // "record as done" from the list of what to do next: the form's obligation chosen already
        Form chosen = duty != null && !duty.isBlank() ? new Form("done", List.of("duty", duty)) : null;
        return render(id, Viewer.language(lang, accept), Zones.parse(zone), who,
                done == null ? null : new IncidentPage.Notice(false, done, null), chosen,
                findingsPage == null || findingsPage.isBlank() ? 1
                        : (int) Params.number("findings", findingsPage, 1, Integer.MAX_VALUE));
    }

    /** Every finding of the incident with its evidence, as CSV (the evidence section's download). */
    @GET
    @Path("findings.csv")
    @Produces("text/csv")
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public Response findingsCsv(@PathParam("id") String id) throws SQLException {
        return Csv.attachment(new Csv.Export("findings-" + IncidentIds.shortId(IncidentIds.uuid(id)) + ".csv",
                IncidentExports.findingsCsv(incidents.findings(id))));
    }

    /** Every finding of the incident with its evidence, as JSON (the API's, for the signed-in dashboard). */
    @GET
    @Path("findings.json")
    @Produces(MediaType.APPLICATION_JSON)
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public Response findingsJson(@PathParam("id") String id) throws SQLException {
        return Response.ok(incidents.findings(id), MediaType.APPLICATION_JSON_TYPE).header("Content-Disposition",
                "attachment; filename=\"findings-" + IncidentIds.shortId(IncidentIds.uuid(id)) + ".json\"")
                .build();
    }

    /**
     * A controller's document for the signed-in dashboard (the same as the API's, which takes HTTP Basic): a link
     * on the incident page opens or downloads it with the session.
     */
    @GET
    @Path("tenants/{tenant}/documents/{document}")
    @Produces({MediaType.TEXT_HTML, "application/pdf", MediaType.APPLICATION_JSON})
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public Response document(@PathParam("id") String id, @PathParam("tenant") String tenant,
            @PathParam("document") String document, @QueryParam("lang") String lang,
            @QueryParam("zone") String zone) throws SQLException {
        return Reader.answer(documents.controllerDocument(id, tenant, document, lang, zone));
    }

    /** The provider's incident report for a regulator (HTML, PDF, JSON), for the signed-in dashboard. */
    @GET
    @Path("documents/{document}")
    @Produces({MediaType.TEXT_HTML, "application/pdf", MediaType.APPLICATION_JSON})
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public Response report(@PathParam("id") String id, @PathParam("document") String document,
            @QueryParam("lang") String lang, @QueryParam("zone") String zone) throws SQLException {
        return Reader.answer(documents.incidentReport(id, document, lang, zone));
    }

    /** The regulator pack of the whole incident (a ZIP with its manifest), for the signed-in dashboard. */
    @GET
    @Path("regulator-pack.zip")
    @Produces("application/zip")
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public Response pack(@PathParam("id") String id, @QueryParam("lang") String lang, @QueryParam("zone") String zone,
            @Context SecurityContext who) throws SQLException {
        return RegulatorPackService.answer(packs.incident(id, lang, zone, actor(who)));
    }

    /** One controller's regulator pack, for the signed-in dashboard. */
    @GET
    @Path("tenants/{tenant}/regulator-pack.zip")
    @Produces("application/zip")
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public Response controllerPack(@PathParam("id") String id, @PathParam("tenant") String tenant,
            @QueryParam("lang") String lang, @QueryParam("zone") String zone, @Context SecurityContext who)
            throws SQLException {
        return RegulatorPackService.answer(packs.controller(id, tenant, lang, zone, actor(who)));
    }

    /** Triage, confirm, dismiss (with a reason) or close (with a reason). */
    @POST
    @Path("status")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST})
    @DashboardForm
    public Response status(@PathParam("id") String id, @RestForm String status, @RestForm String reason,
            @RestForm String lang, @RestForm String zone, @Context SecurityContext who) throws SQLException {
        Form form = new Form("status", List.of("status", nz(status), "reason", nz(reason)));
        return act(id, lang, zone, who, form, z -> {
            incidents.changeStatus(IncidentIds.uuid(id), IncidentStatus.parse(status), reason, actor(who));
            return null;
        });
    }

    /** A measure taken (its time in the user's zone, or with an offset). */
    @POST
    @Path("measures")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST})
    @DashboardForm
    public Response measure(@PathParam("id") String id, @RestForm("taken_at") String takenAt, @RestForm String text,
            @RestForm String lang, @RestForm String zone, @Context SecurityContext who) throws SQLException {
        Form form = new Form("measure", List.of("taken_at", nz(takenAt), "text", nz(text)));
        return act(id, lang, zone, who, form, z -> {
            Instant at = LocalTimes.parse(takenAt, z, "taken at");
            return measures.add(id, at == null ? null : at.toString(), text, actor(who));
        });
    }

    /**
     * An obligation done: when, and its evidence (the authority's receipt number, the message sent); for a
     * notification past its deadline, the reasons for the delay. {@code tenant} empty: the provider's own duty.
     */
    @POST
    @Path("completions")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST})
    @DashboardForm
    public Response completion(@PathParam("id") String id, @RestForm String duty, @RestForm("done_at") String doneAt,
            @RestForm String evidence, @RestForm("late_reasons") String lateReasons, @RestForm String lang,
            @RestForm String zone, @Context SecurityContext who) throws SQLException {
        Form form = new Form("completion", List.of("duty", nz(duty), "done_at", nz(doneAt), "evidence", nz(evidence),
                "late_reasons", nz(lateReasons)));
        return act(id, lang, zone, who, form, z -> {
            String[] key = duty == null ? new String[0] : duty.split("\\|", -1);
            if (key.length != 3) {
                throw new ProblemException(400, "choose the obligation that was done");
            }
            Instant at = withinDetectionMinute(id, LocalTimes.parse(doneAt, z, "done at"));
            var body = new CaseService.CompletionBody(at == null ? null : at.toString(), evidence, null,
                    lateReasons == null || lateReasons.isBlank() ? null : lateReasons);
            return cases.complete(id, key[0].isEmpty() ? null : key[0], key[1], key[2], body, actor(who));
        });
    }

    /**
     * A decision of a party's case (whether the incident is significant, unlikely to result in a risk...): yes or
     * no, with its justification; {@code decision} is tenant|name (tenant empty: the provider's).
     */
    @POST
    @Path("decisions")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST})
    @DashboardForm
    public Response decision(@PathParam("id") String id, @RestForm String decision, @RestForm String value,
            @RestForm String justification, @RestForm String lang, @RestForm String zone,
            @Context SecurityContext who) throws SQLException {
        Form form = new Form("decision", List.of("decision", nz(decision), "value", nz(value), "justification",
                nz(justification)));
        CockpitMessages ck = PageWords.cockpit(Reader.language(lang, "en"));
        return act(id, lang, zone, who, form, z -> {
            // tenant|decision: a tenant name may hold a bar, a decision's name does not
            int bar = decision == null ? -1 : decision.lastIndexOf('|');
            if (bar < 0 || bar == decision.length() - 1) {
                throw new ProblemException(400, ck.act("choose_decision"));
            }
            String[] key = {decision.substring(0, bar), decision.substring(bar + 1)};
            if (!"yes".equals(value) && !"no".equals(value)) {
                throw new ProblemException(400, ck.act("answer_yes_no"));
            }
            return cases.decide(id, key[0].isEmpty() ? null : key[0], key[1],
                    new CaseService.DecisionBody("yes".equals(value), null, justification), actor(who));
        });
    }

    /**
     * An affected customer missing from the tenant directory, added from the incident page: its controller's legal
     * name, country and alert address (the directory's other fields are edited on its page or through the API).
     */
    @POST
    @Path("directory")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @RolesAllowed({Role.R_DPO})
    @DashboardForm
    public Response directory(@PathParam("id") String id, @RestForm String tenant,
            @RestForm("legal_name") String legalName, @RestForm String country, @RestForm String email,
            @RestForm String lang, @RestForm String zone, @Context SecurityContext who) throws SQLException {
        Form form = new Form("mapped", List.of("tenant", nz(tenant), "legal_name", nz(legalName), "country",
                nz(country), "email", nz(email)));
        return act(id, lang, zone, who, form, z -> {
            if (tenant == null || tenant.isEmpty() || !incidents.touches(IncidentIds.uuid(id), tenant)) {
                throw new ProblemException(404, "incident " + id + " does not affect tenant " + tenant);
            }
            if (tenantsDirectory.find(tenant).isPresent()) {
                throw new ProblemException(409, "tenant " + tenant + " is in the directory already: change it on "
                        + "the tenants page");
            }
            List<Tenant.AlertChannel> channels = email == null || email.isBlank() ? List.of()
                    : List.of(new Tenant.AlertChannel("email", email.strip()));
            return tenantsDirectory.put(actor(who), tenant, new Tenant(tenant, blankToNull(legalName),
                    blankToNull(country), null, null, channels, null, null, null, null, null, null));
        });
    }

    /** A customer's DEAD delivery sent again, or its HELD one released, from the customers' table. */
    @POST
    @Path("deliveries/{delivery}/retry")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @RolesAllowed({Role.R_DPO})
    @DashboardForm
    public Response retry(@PathParam("id") String id, @PathParam("delivery") String delivery, @RestForm String lang,
            @RestForm String zone, @Context SecurityContext who) throws SQLException {
        Form form = new Form("resent", List.of());
        return act(id, lang, zone, who, form, z -> {
            long d = Params.number("delivery", delivery, 1, Long.MAX_VALUE);
            if (alerts.list(IncidentIds.uuid(id), null, Integer.MAX_VALUE).stream()
                    .noneMatch(a -> a.deliveries().stream().anyMatch(x -> x.id() == d))) {
                throw new ProblemException(404, "no delivery " + d + " of incident " + id);
            }
            alerts.resend(d, actor(who));
            return null;
        });
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }

    /** What a form posted, kept to show it again when the action is refused (name, value, name, value...). */
    record Form(String name, List<String> values) {
        String value(String field) {
            for (int i = 0; i < values.size(); i += 2) {
                if (values.get(i).equals(field)) {
                    return values.get(i + 1);
                }
            }
            return "";
        }

        /** The values by field, for the newer forms of the page ({@link IncidentPage#typed(String)}). */
        Map<String, String> map() {
            Map<String, String> out = new HashMap<>();
            for (int i = 0; i < values.size(); i += 2) {
                out.put(values.get(i), values.get(i + 1));
            }
            return out;
        }
    }

    @FunctionalInterface
    interface Action {
        Object run(ZoneId zone) throws SQLException;
    }

    /** Runs an action; on success back to the page (303, so a reload does not post again), else the page saying why. */
    private Response act(String id, String lang, String zoneParam, SecurityContext who, Form form, Action action)
            throws SQLException {
        String language = Reader.language(lang, "en");
        ZoneId zone = Zones.parse(zoneParam);
        IncidentIds.uuid(id);
        try {
            action.run(zone);
        } catch (ProblemException e) {
            return Response.status(e.status()).type(MediaType.TEXT_HTML_TYPE.withCharset("UTF-8"))
                    .entity(render(id, language, zone, who, new IncidentPage.Notice(true, form.name(), e.getMessage()),
                            form, 1))
                    .build();
        }
        return Response.seeOther(URI.create("/incidents/" + id + "?lang=" + language + "&zone=" + zone.getId()
                + "&done=" + form.name() + "#" + switch (form.name()) {
                    case "mapped", "resent" -> "customers";
                    default -> form.name();
                })).build();
    }

    /**
     * A form gives minutes: a time in the very minute the incident was detected, but before its second, means
     * "then" and is read as the detection time (the API refuses a completion before detection).
     */
    private Instant withinDetectionMinute(String id, Instant at) throws SQLException {
        if (at == null) {
            return null;
        }
        UUID uuid = IncidentIds.uuid(id);
        Instant detected = incidents.find(uuid).map(IncidentView::detectedAt).orElse(null);
        return detected != null && at.isBefore(detected)
                && !at.isBefore(detected.truncatedTo(ChronoUnit.MINUTES)) ? detected : at;
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }

    String render(String id, String language, ZoneId zone, SecurityContext who, IncidentPage.Notice notice,
            Form form, int findingsPage) throws SQLException {
        Locale locale = Locale.forLanguageTag(language);
        UUID uuid = IncidentIds.uuid(id);
        Instant now = clock.instant();
        boolean canAct = who.isUserInRole(Role.R_DPO) || who.isUserInRole(Role.R_ANALYST);
        PageMessages words = PageWords.of(language);
        List<AlertService.AlertView> alertViews = alerts.list(uuid, null, ALERTS_SHOWN);
        List<IncidentPage.AlertLine> alertLines = alertViews.stream()
                .map(a -> new IncidentPage.AlertLine(a.tenant(), a.phase(), When.of(a.createdAt(), zone, locale),
                        a.deliveries().isEmpty() ? "" : String.join(", ", a.deliveries().stream()
                                .map(d -> d.channel() + " " + words.common_delivery_status(d.status())).toList()),
                        a.acknowledgedAt() == null ? null : When.of(a.acknowledgedAt(), zone, locale)))
                .toList();
        CaseFileService.IncidentFile file = files.incident(uuid, now, zone, locale, findingsPage, FINDINGS_SHOWN)
                .orElseThrow(NotFoundException::new);
        IncidentView i = file.incident();
        ObligationService.Plan plan = file.plan();
        List<IncidentPage.CaseLine> cases = new ArrayList<>();
        List<IncidentPage.Choice> open = new ArrayList<>();
        cases.add(new IncidentPage.CaseLine(null, null, duties(plan.of(null), language, zone, locale), null));
        addOpen(open, words.the_provider(), plan.of(null), language);
        for (TenantView t : file.tenants()) {
            ObligationService.SeverityView sev = plan.severity().get(t.tenant());
            cases.add(new IncidentPage.CaseLine(t.tenant(), t.controller(), duties(plan.of(t.tenant()), language,
                    zone, locale), sev == null ? null : sev.level()));
            addOpen(open, t.tenant(), plan.of(t.tenant()), language);
        }
        // each affected customer's name on the page: its controller's, or its tenant name when not in the directory
        Map<String, String> names = new LinkedHashMap<>();
        file.tenants().forEach(t -> names.put(t.tenant(), t.controller() != null ? t.controller() : t.tenant()));
        List<IncidentPage.NextDuty> next = next(plan, names, words, language, zone, locale);
        // every alert for the customers' rows: the alerts table shows the newest 200, a customer's state needs all
        List<IncidentPage.CustomerLine> customers = customers(plan, file.tenants(), alertViews.size() < ALERTS_SHOWN
                ? alertViews : alerts.list(uuid, null, Integer.MAX_VALUE),
                language, zone, locale);
        long total = file.findingsTotal();
        int shown = file.findingsPage();
        IncidentPage.Evidence evidence = new IncidentPage.Evidence(shown, file.findingsPages(),
                total == 0 ? 0 : (shown - 1) * FINDINGS_SHOWN + 1,
                (int) Math.min(total, (long) shown * FINDINGS_SHOWN));
        List<IncidentPage.FindingLine> findings = file.findings().stream()
                .map(f -> new IncidentPage.FindingLine(f.rule(), words.finding_name(f.rule()), f.subject(), f.stream(),
                        f.firstSeq(), When.of(f.seenAt(), zone, locale))).toList();
        List<IncidentPage.FindingKind> kinds = findingKinds(file.findingCounts(), words, language, zone, locale);
        List<IncidentPage.MeasureLine> taken = file.measures().stream()
                .map(m -> new IncidentPage.MeasureLine(When.of(m.takenAt(), zone, locale), m.text(),
                        m.recordedBy()))
                .toList();
        IncidentStatus status = IncidentStatus.valueOf(i.status());
        IncidentPage page = new IncidentPage(language, zone.getId(), who.getUserPrincipal().getName(), id,
                i.deployment(), i.status(), i.statusReason(), i.classification(), When.of(i.detectedAt(), zone, locale),
                When.of(i.firstExposureAt(), zone, locale), When.of(i.lastExposureAt(), zone, locale),
                i.leakedResponses(), ExposureMatrix.of(file.pairs()), cases, findings, (int) total,
                kinds, file.timeline(), taken, canAct,
                status.next().stream().map(Enum::name).toList(), open, LocalTimes.field(now, zone), notice,
                form == null ? "" : form.value("status"), form == null ? "" : form.value("reason"),
                form == null ? "" : form.value("taken_at"), form == null ? "" : form.value("text"),
                form == null ? "" : form.value("duty"), form == null ? "" : form.value("done_at"),
                form == null ? "" : form.value("evidence"), form == null ? "" : form.value("late_reasons"),
                alertLines, next, customers, header(next, plan, customers.size()),
                picture(file, zone, locale, language), evidence, decisions(plan, names, words, language),
                who.isUserInRole(Role.R_DPO), form == null ? Map.of() : form.map(),
                TechnicalCause.of(file.causes(), rootCauses.catalogue().version(), language, zone, locale,
                        words::finding_name, documentWords), possibleDecision(i, plan));
        return engine.getTemplate("pages/incident").instance().setLocale(page.language()).data("page", page).render();
    }

    /**
     * Spec 1.3, amendment 3: null when the incident has no possible exposure; else NEEDED until the DPO decided
     * whether they are a breach, then BREACH or NOT_BREACH.
     */
    private static String possibleDecision(IncidentView i, ObligationService.Plan plan) {
        if (plan.possiblyAffected().isEmpty()) {
            return null;
        }
        var d = plan.decisions().getOrDefault("", Map.of()).get(ObligationService.POSSIBLE_BREACH);
        return d == null ? "NEEDED" : d.value() ? "BREACH" : "NOT_BREACH";
    }

    /** The header: the soonest open deadline (the list of what to do next is sorted so), severity, counts. */
    private static IncidentPage.Header header(List<IncidentPage.NextDuty> next, ObligationService.Plan plan,
            int customers) {
        IncidentPage.NextDuty soonest = next.stream().filter(d -> d.dueAt().known()).findFirst().orElse(null);
        String severity = Overview.highest(plan.severity().values().stream()
                .map(ObligationService.SeverityView::level).toList());
        int late = (int) next.stream().filter(d -> "LATE".equals(d.status())).count();
        return new IncidentPage.Header(soonest, severity, customers, late);
    }

    /** The picture of leaking responses, the first exposure, the detection and each measure marked. */
    private static IncidentPage.Picture picture(CaseFileService.IncidentFile file, ZoneId zone, Locale locale,
            String language) {
        CockpitMessages ck = PageWords.cockpit(language);
        List<LeakTimeline.Mark> marks = new ArrayList<>();
        marks.add(new LeakTimeline.Mark(file.incident().firstExposureAt(), "first_exposure",
                ck.happened("first_exposure")));
        marks.add(new LeakTimeline.Mark(file.incident().detectedAt(), "detection", ck.happened("detection")));
        file.measures().forEach(m -> marks.add(new LeakTimeline.Mark(m.takenAt(), "measure", ck.happened("measure")
                + PageWords.of(language).colon() + " " + m.text())));
        return LeakTimeline.of(file.leaks(), marks, zone, locale, ck);
    }

    /** The decisions each party may record now, with their words and the answer recorded so far. */
    private List<IncidentPage.DecisionChoice> decisions(ObligationService.Plan plan, Map<String, String> names,
            PageMessages words, String language) {
        List<IncidentPage.DecisionChoice> out = new ArrayList<>();
        CockpitMessages ck = PageWords.cockpit(language);
        List<String> parties = new ArrayList<>();
        parties.add("");
        parties.addAll(names.keySet());
        for (String party : parties) {
            for (String d : new TreeSet<>(obligations.decisionsAllowed(plan, party))) {
                var recorded = plan.decisions().getOrDefault(party, Map.of()).get(d);
                out.add(new IncidentPage.DecisionChoice(party + "|" + d, (party.isEmpty() ? words.the_provider()
                        : names.getOrDefault(party, party)) + " · " + dutyWords.decision(d, language)
                        + (recorded == null ? "" : " (" + ck.act(recorded.value() ? "yes" : "no") + ")")));
            }
        }
        return out;
    }

    private void addOpen(List<IncidentPage.Choice> out, String party, List<Obligation> own, String language) {
        for (Obligation o : own) {
            if (o.open()) {
                out.add(new IncidentPage.Choice(Obligation.key(o.tenant(), o.rule(), o.recipient()), party + " · "
                        + dutyWords.title(o, language) + " (" + dutyWords.reference(o, language) + ") → "
                        + dutyWords.recipient(o, language)));
            }
        }
    }

    private List<IncidentPage.Duty> duties(List<Obligation> own, String language, ZoneId zone, Locale locale) {
        return own.stream().map(o -> new IncidentPage.Duty(o.rule(), dutyWords.title(o, language),
                dutyWords.reference(o, language), dutyWords.recipient(o, language), o.statusWord(),
                When.of(o.dueAt(), zone, locale), o.dueBasis() == null ? null : o.dueBasis().name(),
                o.completions().isEmpty() ? null
                        : o.completions().get(o.completions().size() - 1).evidence())).toList();
    }

    /**
     * Every party's open obligations, the soonest due first (those without a due time last, by case). Who holds one
     * is its holder: the provider for the processor's duties in a customer's case (its alert to the controller), the
     * customer's controller for the controller's.
     */
    private List<IncidentPage.NextDuty> next(ObligationService.Plan plan, Map<String, String> names,
            PageMessages words, String language, ZoneId zone, Locale locale) {
        return plan.obligations().stream().filter(Obligation::open)
                .sorted(Comparator.comparing(Obligation::dueAt, Comparator.nullsLast(Comparator.naturalOrder()))
                        .thenComparing(o -> o.tenant() == null ? "" : o.tenant()))
                .map(o -> new IncidentPage.NextDuty(o.tenant(), o.tenant() == null
                        || o.holder() == ObligationRule.Party.PROCESSOR ? words.incident_provider()
                        : names.getOrDefault(o.tenant(), o.tenant()), dutyWords.title(o, language),
                        dutyWords.reference(o, language), dutyWords.recipient(o, language), o.statusWord(),
                        When.of(o.dueAt(), zone, locale), Obligation.key(o.tenant(), o.rule(), o.recipient()),
                        o.condition() == Obligation.Condition.UNDECIDED))
                .toList();
    }

    /** One line per affected customer: its exposure, its alert (the initial one) and its own next deadline. */
    private List<IncidentPage.CustomerLine> customers(ObligationService.Plan plan, List<TenantView> tenants,
            List<AlertService.AlertView> alerts, String language, ZoneId zone, Locale locale) {
        Map<String, List<AlertService.AlertView>> byTenant = new HashMap<>();
        alerts.forEach(a -> byTenant.computeIfAbsent(a.tenant(), k -> new ArrayList<>()).add(a));
        List<IncidentPage.CustomerLine> out = new ArrayList<>();
        for (TenantView t : tenants) {
            List<AlertService.AlertView> own = byTenant.getOrDefault(t.tenant(), List.of());
            Instant acknowledged = own.stream().map(AlertService.AlertView::acknowledgedAt).filter(Objects::nonNull)
                    .min(Comparator.naturalOrder()).orElse(null);
            boolean alerted = !own.isEmpty();
            Instant delivered = plan.alertsDelivered().get(t.tenant());
            Obligation nextDue = plan.of(t.tenant()).stream().filter(o -> o.open() && o.dueAt() != null)
                    .min(Comparator.comparing(Obligation::dueAt)).orElse(null);
            // the role its certain exposures give; one its possible ones alone give is said as possible (amendment 3)
            boolean victim = t.exposedTokens() > 0;
            boolean recipient = t.receivedTokens() > 0;
            String role = victim && recipient ? "BOTH" : victim ? "VICTIM" : recipient ? "RECIPIENT"
                    : t.possibleExposedTokens() > 0 && t.possibleReceivedTokens() > 0 ? "POSSIBLY_BOTH"
                    : t.possibleExposedTokens() > 0 ? "POSSIBLY_VICTIM" : "POSSIBLY_RECIPIENT";
            out.add(new IncidentPage.CustomerLine(t.tenant(), t.mapped() ? t.controller() : null, role,
                    t.exposedRequests(), t.exposedTokens(), t.receivedTokens(), alerted,
                    delivered == null ? null : When.of(delivered, zone, locale),
                    acknowledged == null ? null : When.of(acknowledged, zone, locale),
                    nextDue == null ? null : dutyWords.title(nextDue, language),
                    When.of(nextDue == null ? null : nextDue.dueAt(), zone, locale),
                    own.stream().flatMap(a -> a.deliveries().stream())
                            .filter(d -> "DEAD".equals(d.status()) || "HELD".equals(d.status()))
                            .map(d -> new IncidentPage.Retry(d.id(), d.channel(), d.status())).toList(),
                    t.possibleExposedTokens(), t.possibleReceivedTokens()));
        }
        return out;
    }

    /** The findings per rule, in the rules' order (the gravest first), each with its count and first sighting. */
    private List<IncidentPage.FindingKind> findingKinds(List<IncidentQueries.FindingCount> counts,
            PageMessages words, String language, ZoneId zone, Locale locale) {
        return counts.stream().sorted(Comparator.comparingInt((IncidentQueries.FindingCount f) -> Rule.orderOf(f.rule()))
                .thenComparing(IncidentQueries.FindingCount::rule))
                .map(f -> new IncidentPage.FindingKind(f.rule(), words.finding_name(f.rule()),
                        TechnicalCause.sentence(dutyWords.finding(f.rule(), language), locale), (int) f.findings(),
                        When.of(f.firstSeenAt(), zone, locale))).toList();
    }

    private static String actor(SecurityContext who) {
        return who.getUserPrincipal().getName();
    }
}
