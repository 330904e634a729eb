package app.vigie.notice;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;


import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import app.vigie.compliance.plan.Decision;
import app.vigie.compliance.plan.Obligation;
import app.vigie.compliance.rules.ObligationRule;
import app.vigie.compliance.service.ComplianceRules;
import app.vigie.compliance.service.ObligationService;
import app.vigie.incident.ExposureView;
import app.vigie.incident.IncidentMeasure;
import app.vigie.incident.IncidentQueries;
import app.vigie.incident.IncidentView;
import app.vigie.incident.TenantView;
import app.vigie.rootcause.RootCauses;
import app.vigie.tenant.Tenant;
import app.vigie.tenant.TenantEntry;
import app.vigie.settings.ProviderIdentity;
import app.vigie.settings.SettingsService;

/**
 * The data of an incident's documents, assembled from its facts in the reader's language and zone: the processor's
 * alert, the notification to the authority, the communication to the persons, the incident report; their words and
 * the controller's statements. {@link DocumentRenderer} gives them their page, JSON and PDF.
 */
@ApplicationScoped
public class NoticeService {

    @Inject
    Words words;

    @Inject
    DutyWords dutyWords;

    @Inject
    ComplianceRules rules;

    @Inject
    ObligationService obligations;

    @Inject
    ObjectMapper json;

    @Inject
    RootCauses rootCauses;

    @Inject
    SettingsService settings;

    /**
     * The provider as its settings record it (saved on the settings page, else the environment's); a field not
     * recorded is null, shown as "to be completed" in documents.
     */
    public ProcessorAlert.Party provider() {
        ProviderIdentity p = settings.identity();
        return new ProcessorAlert.Party(p.legalName(), p.contact());
    }

    public ProcessorAlert processorAlert(Connection c, IncidentView incident, String tenant, Locale lang, ZoneId zone,
            Instant now) throws SQLException {
        return processorAlert(c, incident, tenant, lang, zone, now, plan(c, incident, now));
    }

    private ObligationService.Plan plan(Connection c, IncidentView incident, Instant now) throws SQLException {
        return obligations.plan(c, incident.id(), now, false).orElseThrow();
    }

    /** The processor alert with the incident's plan already made (a caller that needs the plan too). */
    public ProcessorAlert processorAlert(Connection c, IncidentView incident, String tenant, Locale lang,
            ZoneId zone, Instant now, ObligationService.Plan plan) throws SQLException {
        Tenant entry = TenantEntry.byId(tenant).orElse(null);
        List<ExposureView> exposures = IncidentQueries.exposuresOf(c, incident.id(), tenant);

        Map<String, Line> exposed = new LinkedHashMap<>();
        Map<String, Line> received = new LinkedHashMap<>();
        for (ExposureView e : exposures) {
            Boolean delivered = e.delivered();
            if (e.victimTenant().equals(tenant)) {
                exposed.computeIfAbsent(e.victimRequest() + "|" + e.kind(), k -> new Line(e.victimRequest(),
                        "INTRA_TENANT".equals(e.kind()))).add(e.tokens(), e.firstSeenAt(), e.readerRequest(),
                                delivered);
            }
            if (e.readerTenant().equals(tenant) && "CROSS_TENANT".equals(e.kind())) {
                received.computeIfAbsent(e.readerRequest(), k -> new Line(e.readerRequest(), false))
                        .add(e.tokens(), e.firstSeenAt(), e.victimRequest(), delivered);
            }
        }
        // in the order the requests were first read (an annexed list's body shows the first ones)
        List<ProcessorAlert.RequestLine> exposedLines = exposed.values().stream().sorted(Line.FIRST)
                .map(l -> l.line(zone, lang)).toList();
        List<ProcessorAlert.RequestLine> receivedLines = received.values().stream().sorted(Line.FIRST)
                .map(l -> l.line(zone, lang)).toList();
        // spec 1.3, amendment 3: what may have been read (a write to the pages while a transfer read them), apart,
        // and the processor's DPO's decision on it, if taken
        Decision possibleDecision = plan.decisions().getOrDefault("", Map.of()).get(ObligationService.POSSIBLE_BREACH);
        Map<String, Line> possiblyExposed = new LinkedHashMap<>();
        Map<String, Line> possiblyReceived = new LinkedHashMap<>();
        for (ExposureView e : IncidentQueries.possibleExposuresOf(c, incident.id(), tenant)) {
            if (e.victimTenant().equals(tenant)) {
                possiblyExposed.computeIfAbsent(e.victimRequest() + "|" + e.kind(), k -> new Line(e.victimRequest(),
                        "INTRA_TENANT".equals(e.kind()))).add(e.tokens(), e.firstSeenAt(), e.readerRequest(),
                                e.delivered());
            }
            if (e.readerTenant().equals(tenant) && "CROSS_TENANT".equals(e.kind())) {
                possiblyReceived.computeIfAbsent(e.readerRequest(), k -> new Line(e.readerRequest(), false))
                        .add(e.tokens(), e.firstSeenAt(), e.victimRequest(), e.delivered());
            }
        }
        ProcessorAlert.Totals totals = new ProcessorAlert.Totals(exposedLines.size(),
                exposedLines.stream().mapToLong(ProcessorAlert.RequestLine::tokens).sum(), receivedLines.size(),
                receivedLines.stream().mapToLong(ProcessorAlert.RequestLine::tokens).sum(),
                receivedLines.stream().filter(l -> l.delivered() > 0).count(),
                receivedLines.stream().filter(l -> l.delivered() == 0 && l.undetermined() > 0).count());

        // the 72 hours of GDPR / UK GDPR Art. 33(1), said only to a controller they bind and while they run: not once
        // its exception (unlikely risk) is recorded or the incident dismissed (the notification is then not required)
        Obligation gdprClock = plan.of(tenant).stream().filter(o -> (o.rule().equals("gdpr-33-1")
                || o.rule().equals("uk-gdpr-33-1")) && o.status() != Obligation.Status.NOT_REQUIRED)
                .findFirst().orElse(null);
        List<ProcessorAlert.Duty> duties = duties(plan.of(tenant).stream()
                .filter(o -> o.holder() == ObligationRule.Party.CONTROLLER)
                .toList(), zone, lang);
        List<ProcessorAlert.Measure> measures = IncidentMeasure.of(incident.id()).stream()
                .map(m -> new ProcessorAlert.Measure(When.of(m.takenAt(), zone, lang), m.text())).toList();
        boolean ongoing = !"CLOSED".equals(incident.status());
        return new ProcessorAlert(lang.getLanguage(), zone.getId(), When.of(now, zone, lang),
                new ProcessorAlert.Incident(incident.id(), incident.deployment(), incident.status(),
                        When.of(incident.detectedAt(), zone, lang), When.of(incident.firstExposureAt(), zone, lang),
                        When.of(incident.lastExposureAt(), zone, lang), ongoing, incident.leakedResponses() > 0),
                provider(),
                entry == null ? new ProcessorAlert.Controller(tenant, null, null, null, null, null, false)
                        : new ProcessorAlert.Controller(tenant, entry.legalName(), entry.companyId(),
                                entry.dpo() == null ? null : entry.dpo().name(),
                                entry.dpo() == null ? null : entry.dpo().email(),
                                entry.dpo() == null ? null : entry.dpo().phone(), true),
                exposedLines, receivedLines, totals, measures, duties, obligations.rulesVersion(),
                findings(incident, lang.getLanguage()), gdprClock != null,
                gdprClock == null ? null : source(gdprClock, lang.getLanguage()),
                possiblyExposed.values().stream().sorted(Line.FIRST).map(l -> l.line(zone, lang)).toList(),
                possiblyReceived.values().stream().sorted(Line.FIRST).map(l -> l.line(zone, lang)).toList(),
                possibleDecision == null ? null : possibleDecision.value(),
                possibleDecision == null ? null : When.of(possibleDecision.at(), zone, lang));
    }

    /** The detector's findings of the incident by kind, in a language. */
    private List<ProcessorAlert.FindingLine> findings(IncidentView incident, String lang) {
        return incident.findings().entrySet().stream().map(e -> new ProcessorAlert.FindingLine(e.getKey(),
                words.of(lang, "finding", e.getKey()), e.getValue())).toList();
    }

    /**
     * The known causes the incident's findings match, in the documents' words: each rule named by its sentence.
     */
    private TechnicalCause technicalCause(Connection c, IncidentView incident, Locale lang, ZoneId zone)
            throws SQLException {
        String language = lang.getLanguage();
        return TechnicalCause.of(rootCauses.of(c, incident.id()), rootCauses.catalogue().version(), language, zone,
                lang, rule -> TechnicalCause.sentence(words.of(language, "finding", rule), lang), words);
    }

    /** The controller's statements of its case ({@link Statements#NONE} when it has stated nothing). */
    public Statements statements(Connection c, UUID incident, String tenant) throws SQLException {
        Optional<String> body = CaseStatement.body(incident, tenant);
        if (body.isEmpty()) {
            return Statements.NONE;
        }
        try {
            return json.readValue(body.get(), Statements.class).normalized();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored statements do not read back", e);
        }
    }

    /**
     * The draft of a controller's notification to its authority as of {@code now}; {@code version} and
     * {@code phase} when it is being issued (null for a preview).
     */
    public AuthorityNotification authorityNotification(Connection c, IncidentView incident, String tenant,
            Locale lang, ZoneId zone, Instant now, Integer version) throws SQLException {
        return authorityNotification(c, incident, tenant, lang, zone, now, version,
                statements(c, incident.id(), tenant));
    }

    /** The same, on statements already read (the data-subject communication reads them for itself too). */
    private AuthorityNotification authorityNotification(Connection c, IncidentView incident, String tenant,
            Locale lang, ZoneId zone, Instant now, Integer version, Statements st) throws SQLException {
        ObligationService.Plan plan = plan(c, incident, now);
        ProcessorAlert alert = processorAlert(c, incident, tenant, lang, zone, now, plan);
        List<IssuedDocument.Version> issued = IssuedDocument.versions(incident.id(), tenant, AUTHORITY);
        String phase = issued.isEmpty() ? "INITIAL" : "COMPLEMENTARY";

        List<AuthorityNotification.Recipient> authorities = new ArrayList<>();
        List<AuthorityNotification.OtherNotification> others = new ArrayList<>();
        Obligation main = null;
        Instant processorNotified = null;
        Obligation informing = null;
        Instant cnilFiled = null;
        for (Obligation o : plan.of(tenant)) {
            if (o.kind() == ObligationRule.Kind.AUTHORITY_NOTIFICATION && "supervisory_authority:FR".equals(
                    o.recipient()) && o.doneAt() != null) {
                cnilFiled = o.doneAt();  // the initial notification's filing with the CNIL, as recorded
            }
            if (o.kind() == ObligationRule.Kind.PROCESSOR_ALERT && o.doneAt() != null) {
                processorNotified = processorNotified == null || o.doneAt().isBefore(processorNotified) ? o.doneAt()
                        : processorNotified;
            } else if (o.kind() == ObligationRule.Kind.DATA_SUBJECT_COMMUNICATION && informing == null) {
                informing = o;
            } else if (o.kind() == ObligationRule.Kind.AUTHORITY_NOTIFICATION
                    && rules.rules().authorities().isDataProtectionAuthority(o.recipient())) {
                if (o.status() != Obligation.Status.NOT_REQUIRED || o.doneAt() != null) {
                    authorities.add(new AuthorityNotification.Recipient(o.recipient(), o.recipientName() == null
                            ? null : recipient(o, lang.getLanguage()), o.recipientUrl()));
                    main = main == null || main.status() == Obligation.Status.NOT_REQUIRED ? o : main;
                } else if (main == null) {
                    main = o;  // not required: kept for its reason
                }
            } else if (o.holder() == ObligationRule.Party.CONTROLLER && o.kind() != ObligationRule.Kind.NONE
                    && o.kind() != ObligationRule.Kind.REGISTER_ENTRY) {
                String l = lang.getLanguage();
                others.add(new AuthorityNotification.OtherNotification(o.regime(), words.of(l, "regime", o.regime()),
                        o.rule(), words.of(l, "kind", o.kind().name()), recipient(o, l), o.status().name(),
                        words.of(l, "status", o.statusWord()), When.of(o.dueAt(), zone, lang)));
            }
        }
        ObligationService.SeverityView sev = plan.severity().get(tenant);
        Instant aware = plan.controllerAwareAt(tenant);
        // the CNIL expects the complementary notification within 72 hours of the initial one, where possible
        // (a practice of the CNIL's: said only to the CNIL), counted from its filing with the CNIL as recorded (a
        // completion of the obligation), not from a draft issued here; unknown until the filing is recorded
        boolean cnil = authorities.stream().anyMatch(a -> a.code().equals("supervisory_authority:FR"));
        Instant complementaryDue = !cnil || cnilFiled == null ? null : cnilFiled.plus(Duration.ofHours(72));
        boolean required = main != null && (main.status() != Obligation.Status.NOT_REQUIRED || main.doneAt() != null);
        Instant due = required ? main.lateAfter() : null;
        // late: the initial notification made after its due time, or, not made yet, due time passed now
        Instant initialDone = required ? main.doneAt() : null;
        boolean late = due != null && (initialDone != null ? initialDone.isAfter(due) : now.isAfter(due));
        String lateReasons = st.delayReasons();
        if (lateReasons == null && main != null) {
            lateReasons = main.completions().stream().map(x -> x.lateReasons()).filter(x -> x != null).findFirst()
                    .orElse(null);
        }
        Optional<Tenant> entry = TenantEntry.byId(tenant);
        Instant informedAt = st.personsInformedAt() == null ? null
                : OffsetDateTime.parse(st.personsInformedAt()).toInstant();
        return new AuthorityNotification(lang.getLanguage(), zone.getId(), When.of(now, zone, lang), incident.id(),
                version, phase, issued.stream().map(v -> new AuthorityNotification.Issued(v.version(), v.phase(),
                        When.of(v.issuedAt(), zone, lang))).toList(), authorities,
                new AuthorityNotification.Organisation(tenant, alert.controller().legalName(),
                        alert.controller().companyId(), country(entry.map(Tenant::country), lang),
                        alert.controller().mapped(),
                        st.sector() != null ? st.sector() : sectors(entry, lang.getLanguage()), st.address(),
                        country(entry.map(Tenant::mainEstablishment), lang),
                        country(entry.map(Tenant::euRepresentative), lang)),
                new AuthorityNotification.Contact(alert.controller().dpoName(), alert.controller().dpoEmail(),
                        alert.controller().dpoPhone()),
                st.contactName() == null && st.contactEmail() == null && st.contactPhone() == null ? null
                        : new AuthorityNotification.Contact(st.contactName(), st.contactEmail(), st.contactPhone()),
                List.of(new AuthorityNotification.Involved("PROCESSOR", alert.processor().legalName(),
                        alert.processor().contact())),
                new AuthorityNotification.Dates(ownStart(alert, incident, zone, lang), true,
                        alert.incident().lastExposureAt(), !alert.incident().ongoing(), alert.incident().ongoing(),
                        When.of(aware, zone, lang),
                        When.of(processorNotified, zone, lang)),
                // confidentiality: the page audit log records every read of another request's data; integrity and
                // availability: nothing records them either way
                new AuthorityNotification.Nature(!alert.exposed().isEmpty(), null, null),
                alert.findings().isEmpty() ? null : "INTERNAL", alert.findings(), null,
                new AuthorityNotification.DataConcerned(st.dataCategories(), st.specialCategories().stream()
                        .filter(x -> !x.equals("criminal_convictions")).toList(), st.specialCategories().stream()
                        .filter(x -> x.equals("criminal_convictions")).toList(), st.approximateRecords(),
                        alert.totals().exposedRequests(), alert.totals().exposedTokens(), st.dataUnintelligible()),
                new AuthorityNotification.PersonsConcerned(st.personCategories(), st.approximatePersons()),
                st.securityMeasuresBefore(), st.likelyConsequences(),
                severity(sev),
                alert.measures(), st.measuresProposed(),
                new AuthorityNotification.PersonsInformation(st.personsInformed(), When.of(informedAt, zone, lang),
                        st.personsNotInformedReason(), informing == null ? null : informing.status().name()),
                others, new AuthorityNotification.Delay(late, When.of(due, zone, lang), lateReasons,
                        required && main.lateReasonsRequired()), obligations.rulesVersion(), st.discovery(),
                When.of(complementaryDue, zone, lang), main == null ? null : source(main, lang.getLanguage()), cnil,
                main != null && !required && main.reasonCode() != null
                        ? words.of(lang.getLanguage(), "reason", main.reasonCode().name()) : null);
    }

    public static final String REPORT = "incident-report";

    /** The provider's report of an incident for a regulator. */
    public IncidentReport incidentReport(Connection c, IncidentView incident, Locale lang, ZoneId zone, Instant now)
            throws SQLException {
        ObligationService.Plan plan = plan(c, incident, now);
        List<TenantView> tenants = IncidentQueries.tenants(c, incident.id());
        List<IncidentReport.Event> timeline = Timeline.of(c, incident, zone, lang);
        List<IncidentReport.Case> cases = new ArrayList<>();
        for (TenantView t : tenants) {
            Instant aware = plan.controllerAwareAt(t.tenant());
            var sev = plan.severity().get(t.tenant());
            cases.add(new IncidentReport.Case(t.tenant(), t.controller(),
                    When.of(aware, zone, lang), sev == null || sev.level() == null ? null
                            : words.of(lang.getLanguage(), "severity", sev.level()), severity(sev),
                    decisions(plan, t.tenant(), zone, lang),
                    duties(plan.of(t.tenant()), zone, lang)));
        }
        return new IncidentReport(lang.getLanguage(), zone.getId(), When.of(now, zone, lang), provider(),
                new IncidentReport.Facts(incident.id(), incident.deployment(), incident.status(),
                        words.of(lang.getLanguage(), "incident_status", incident.status()), incident.statusReason(), incident.classification(), When.of(incident.detectedAt(), zone, lang),
                        When.of(incident.firstExposureAt(), zone, lang), When.of(incident.lastExposureAt(), zone, lang),
                        incident.leakedResponses()),
                findings(incident, lang.getLanguage()), technicalCause(c, incident, lang, zone), timeline,
                tenants.stream().map(t -> new IncidentReport.TenantLine(t.tenant(), t.controller(),
                        t.roles(), t.exposedRequests(), t.exposedTokens(), t.receivedTokens(),
                        t.responsesReceived())).toList(), cases,
                IncidentMeasure.of(incident.id()).stream().map(m -> new ProcessorAlert.Measure(When.of(m.takenAt(), zone,
                        lang), m.text())).toList(), decisions(plan, "", zone, lang), duties(plan.of(null), zone, lang),
                obligations.rulesVersion(), IncidentQueries.tenantsWithPossible(c, incident.id()).stream()
                        .filter(t -> t.possibleExposedTokens() + t.possibleReceivedTokens() > 0)
                        .map(t -> new IncidentReport.PossibleLine(t.tenant(), t.controller(), t.possibleExposedTokens(),
                                t.possibleReceivedTokens())).toList());
    }

    private static AuthorityNotification.Severity severity(ObligationService.SeverityView sev) {
        return sev == null ? null : new AuthorityNotification.Severity(sev.level(),
                sev.suggested() == null ? null : sev.suggested().score(), sev.overrideLevel() != null,
                sev.overrideJustification(), sev.basis());
    }

    private List<IncidentReport.DecisionLine> decisions(ObligationService.Plan plan, String tenant, ZoneId zone,
            Locale lang) {
        return plan.decisions().getOrDefault(tenant, Map.of()).values().stream()
                .sorted(Comparator.comparing(Decision::name))
                .map(d -> new IncidentReport.DecisionLine(d.name(), words.of(lang.getLanguage(), "decision",
                        d.name()), d.value(), When.of(d.at(), zone, lang), d.justification())).toList();
    }

    private List<ProcessorAlert.Duty> duties(List<Obligation> own, ZoneId zone, Locale lang) {
        String l = lang.getLanguage();
        return own.stream().map(o -> {
            Optional<ObligationRule> rule = rules.rules().obligation(o.rule());
            return new ProcessorAlert.Duty(o.rule(), o.regime(), words.of(l, "regime", o.regime()),
                    o.kind().name(), words.of(l, "kind", o.kind().name()), o.recipient(), recipient(o, l),
                    o.status().name(), words.of(l, "status", o.statusWord()), When.of(o.dueAt(), zone, lang),
                    o.dueBasis() == null ? null : o.dueBasis().name(),
                    o.dueBasis() == null ? null : words.of(l, "basis", o.dueBasis().name()),
                    When.of(o.outerLimitAt(), zone, lang), o.condition().name(),
                    words.of(l, "condition", o.condition().name()),
                    o.reasonCode() == null ? null : o.reasonCode().name(),
                    o.reasonCode() == null ? null : words.of(l, "reason", o.reasonCode().name()),
                    DutyWords.reference(o, rule, l), rule.map(r -> r.notes().get(l)).orElse(null));
        }).toList();
    }

    /** An obligation's recipient in a language: an authority's name there, or the words for a kind of recipient. */
    String recipient(Obligation o, String lang) {
        return recipient(o.recipient(), lang);
    }

    /** A recipient's code ({@code supervisory_authority:FR}, {@code ico}, {@code data_subjects}) in a language. */
    public String recipient(String code, String lang) {
        return dutyWords.recipient(code, lang);
    }

    /** The words for a code of a group in a language (templates/notices/words.yaml). */
    public String word(String lang, String group, String code) {
        return words.of(lang, group, code);
    }

    /** An obligation's legal citation in a language. */
    String source(Obligation o, String lang) {
        return dutyWords.reference(o, lang);
    }

    public static final String AUTHORITY = "authority-notification";

    public static final String DATA_SUBJECTS = "data-subject-communication";

    /** The draft of the controller's communication to the persons concerned. */
    public DataSubjectCommunication dataSubjectCommunication(Connection c, IncidentView incident, String tenant,
            Locale lang, ZoneId zone, Instant now) throws SQLException {
        Statements st = statements(c, incident.id(), tenant);
        AuthorityNotification n = authorityNotification(c, incident, tenant, lang, zone, now, null, st);
        AuthorityNotification.Recipient authority = complaintAuthority(n,
                TenantEntry.byId(tenant).map(Tenant::establishment).orElse(null));
        String l = lang.getLanguage();
        String authorityName = authority == null ? null : words.has(l, "complaint_authority", authority.code())
                ? words.of(l, "complaint_authority", authority.code()) : authority.name();
        // GDPR Art. 77(1): also where the person lives, works or where the infringement took place
        boolean eea = n.authorities().stream().anyMatch(a -> a.code().startsWith("supervisory_authority:"));
        String contact = st.contactForPersons() != null ? st.contactForPersons() : n.dpo().email();
        // whose responses carried the controller's data, as recorded: other customers', or its own other requests'
        boolean byOthers = false;
        boolean byOwn = false;
        for (ExposureView e : IncidentQueries.exposuresOf(c, incident.id(), tenant)) {
            if (e.victimTenant().equals(tenant)) {
                byOthers |= "CROSS_TENANT".equals(e.kind());
                byOwn |= "INTRA_TENANT".equals(e.kind());
            }
        }
        return new DataSubjectCommunication(lang.getLanguage(), zone.getId(), When.of(now, zone, lang),
                n.organisation().name(), contact, n.dpo().name(),
                n.dpo().email(), n.dates().start(), n.dates().end(), n.dates().ongoing(), st.dataCategories(),
                st.specialCategories(), st.likelyConsequences(), n.measuresTaken(), st.measuresProposed(),
                authorityName, authority == null ? null : authority.url(), eea,
                authority != null && authority.code().startsWith("supervisory_authority:"),
                Boolean.TRUE.equals(n.nature().confidentiality()), byOthers, byOwn);
    }

    /** A country's name in a language with its code ("Irlande (IE)"), or null. */
    private static String country(Optional<String> code, Locale lang) {
        return code.map(c -> new Locale("", c).getDisplayCountry(lang) + " (" + c + ")").orElse(null);
    }

    /**
     * The tenant's sectors as the directory records them, in the notification form's words ("Secteur financier"),
     * or null when none of them has words (the form then says it is to be completed).
     */
    private String sectors(Optional<Tenant> entry, String lang) {
        List<String> named = entry.map(Tenant::sectors).orElse(List.of()).stream()
                .filter(x -> words.has(lang, "sector", x)).map(x -> words.of(lang, "sector", x)).toList();
        return named.isEmpty() ? null : String.join(", ", named);
    }

    /**
     * The authority a person may complain to on the controller's behalf: the one of its establishment (the lead
     * authority under GDPR Art. 56(1), or the ICO, the FDPIC), not whichever was notified first; none for a controller
     * established outside the EEA that notifies where its data subjects are (no one-stop shop): the letter then
     * names the authority of where the person lives or works (Art. 77(1)).
     */
    private AuthorityNotification.Recipient complaintAuthority(AuthorityNotification n, String country) {
        String own = rules.rules().authorities().dataProtectionAuthority(country);
        return n.authorities().stream().filter(a -> a.name() != null && a.code().equals(own)).findFirst()
                .orElse(null);
    }

    /** When this controller's own data were first read (its exposed requests), else the incident's first exposure. */
    private static When ownStart(ProcessorAlert alert, IncidentView incident, ZoneId zone, Locale lang) {
        Instant first = alert.exposed().stream().map(l -> l.firstSeenAt().utc()).filter(Objects::nonNull)
                .min(Instant::compareTo).orElse(incident.firstExposureAt());
        return When.of(first, zone, lang);
    }

    /** One request's line while it is summed. */
    private static final class Line {
        final String request;
        final boolean sameTenant;
        long tokens;
        /** First read first; then by request (code point), then own-account lines after the others'. */
        static final Comparator<Line> FIRST = Comparator.comparing((Line l) -> l.first,
                Comparator.nullsLast(Comparator.naturalOrder()))
                .thenComparing(l -> l.request).thenComparing(l -> l.sameTenant);

        Instant first;
        final Set<String> others = new HashSet<>();
        final Set<String> deliveredReaders = new HashSet<>();
        final Set<String> undeterminedReaders = new HashSet<>();

        Line(String request, boolean sameTenant) {
            this.request = request;
            this.sameTenant = sameTenant;
        }

        /** {@code delivered}: true, false, or null while no FINISH of the reader is known. */
        Line add(long t, Instant seen, String other, Boolean delivered) {
            tokens += t;
            first = first == null || seen.isBefore(first) ? seen : first;
            others.add(other);
            if (Boolean.TRUE.equals(delivered)) {
                deliveredReaders.add(other);
            } else if (delivered == null) {
                undeterminedReaders.add(other);
            }
            return this;
        }

        ProcessorAlert.RequestLine line(ZoneId zone, Locale lang) {
            return new ProcessorAlert.RequestLine(request, tokens, When.of(first, zone, lang), others.size(),
                    deliveredReaders.size(), sameTenant, undeterminedReaders.size());
        }
    }
}
