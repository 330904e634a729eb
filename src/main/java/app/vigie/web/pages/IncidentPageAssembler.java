package app.vigie.web.pages;

import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
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

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.core.SecurityContext;

import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateInstance;

import app.vigie.alert.AlertService;
import app.vigie.compliance.plan.Obligation;
import app.vigie.compliance.rules.ObligationRule;
import app.vigie.compliance.service.ObligationService;
import app.vigie.detection.core.Rule;
import app.vigie.incident.IncidentIds;
import app.vigie.incident.IncidentQueries;
import app.vigie.incident.IncidentStatus;
import app.vigie.incident.IncidentView;
import app.vigie.incident.TenantView;
import app.vigie.notice.CaseFileService;
import app.vigie.notice.DutyWords;
import app.vigie.notice.TechnicalCause;
import app.vigie.notice.When;
import app.vigie.notice.Words;
import app.vigie.rootcause.RootCauses;
import app.vigie.security.Role;
import app.vigie.web.LocalTimes;

/**
 * The incident page's view model, assembled from the incident's case file: facts, every party's obligations and
 * decisions, the customers' lines, the findings, the pictures; rendered by its checked template
 * (templates/pages/incident.html).
 */
@ApplicationScoped
public class IncidentPageAssembler {
    static final int FINDINGS_SHOWN = 50;
    private static final int ALERTS_SHOWN = 200;

    @CheckedTemplate(basePath = "pages")
    static class Templates {
        static native TemplateInstance incident(IncidentPage page);
    }

    @Inject
    CaseFileService files;

    @Inject
    Clock clock;

    @Inject
    AlertService alerts;

    @Inject
    DutyWords dutyWords;

    @Inject
    Words documentWords;

    @Inject
    RootCauses rootCauses;

    @Inject
    ObligationService obligations;

    /**
     * The page of incident {@code id} for {@code who}, in {@code language} and {@code zone}: {@code notice} says
     * how an action went, {@code form} holds what a refused one typed (null: none), the findings at page
     * {@code findingsPage}.
     */
    String render(String id, String language, ZoneId zone, SecurityContext who, IncidentPage.Notice notice,
            IncidentForm form, int findingsPage) throws SQLException {
        Locale locale = Locale.forLanguageTag(language);
        UUID uuid = IncidentIds.uuid(id);
        Instant now = clock.instant();
        boolean canAct = who.isUserInRole(Role.R_DPO) || who.isUserInRole(Role.R_ANALYST);
        PageMessages words = PageWords.of(language);
        List<AlertService.AlertView> alertViews = alerts.list(uuid, null, ALERTS_SHOWN);
        List<IncidentPage.AlertLine> alertLines = alertViews.stream()
                .map(a -> new IncidentPage.AlertLine(a.tenant(), a.phase(), When.of(a.createdAt(), zone, locale),
                        a.deliveries().isEmpty() ? "" : String.join(", ", a.deliveries().stream()
                                .map(d -> d.channel() + " " + CodeWords.deliveryStatus(d.status(), language)).toList()),
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
                .map(f -> new IncidentPage.FindingLine(f.rule(), CodeWords.rule(f.rule(), language), f.subject(),
                        f.stream(), f.firstSeq(), When.of(f.seenAt(), zone, locale))).toList();
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
                        rule -> CodeWords.rule(rule, language), documentWords), possibleDecision(i, plan));
        return Templates.incident(page).setLocale(page.language()).render();
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
                ck.happened_first_exposure()));
        marks.add(new LeakTimeline.Mark(file.incident().detectedAt(), "detection", ck.happened_detection()));
        file.measures().forEach(m -> marks.add(new LeakTimeline.Mark(m.takenAt(), "measure", ck.happened_measure()
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
                        + (recorded == null ? "" : " (" + (recorded.value() ? ck.act_yes() : ck.act_no()) + ")")));
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
                .map(f -> new IncidentPage.FindingKind(f.rule(), CodeWords.rule(f.rule(), language),
                        TechnicalCause.sentence(dutyWords.finding(f.rule(), language), locale), (int) f.findings(),
                        When.of(f.firstSeenAt(), zone, locale))).toList();
    }
}
