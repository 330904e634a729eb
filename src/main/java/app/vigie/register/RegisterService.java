package app.vigie.register;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.agroal.api.AgroalDataSource;
import io.quarkus.qute.Location;
import io.quarkus.qute.Template;

import app.vigie.audit.AuditTrail;
import app.vigie.db.Transactions;
import app.vigie.db.UnitOfWork;
import app.vigie.export.Csv;
import app.vigie.incident.IncidentIds;
import app.vigie.incident.IncidentQueries;
import app.vigie.incident.IncidentView;
import app.vigie.notice.DocumentRenderer;
import app.vigie.notice.Download;
import app.vigie.notice.NoticeService;
import app.vigie.notice.Reader;
import app.vigie.notice.When;
import app.vigie.problem.ProblemException;
import app.vigie.time.Zones;

/**
 * The violation registers (GDPR Art. 33(5)) of the controllers and the provider's own, one append-only hash chain:
 * an entry appended from an incident's facts as they stand, the entries listed, the chain proved, the registers
 * exported as CSV and PDF.
 */
@ApplicationScoped
public class RegisterService {

    /** The export's templates, found and checked by the build ({@code {@app.vigie.register.RegisterExport reg}}). */
    @Inject
    @Location("notices/register.en.html")
    Template pdfEn;

    @Inject
    @Location("notices/register.fr.html")
    Template pdfFr;

    @Inject
    AgroalDataSource dataSource;

    @Inject
    Register register;

    @Inject
    Clock clock;

    @Inject
    NoticeService notices;

    @Inject
    DocumentRenderer renderer;

    /** Appends the entry of a tenant's register ({@code tenant}) or of the provider's own ({@code tenant} absent). */
    public record AppendBody(String incidentId, String tenant) {
    }

    /** Appends an entry built from the incident's facts as they stand, audited as done by {@code actor}. */
    @UnitOfWork
    public Register.Stored append(AppendBody body, String actor) throws SQLException {
        if (body == null || body.incidentId() == null) {
            throw new ProblemException(400, "field 'incident_id' is required; 'tenant' names the tenant whose "
                    + "register it is (absent: the provider's own)");
        }
        UUID id = IncidentIds.uuid(body.incidentId());
        try (Connection c = Transactions.connection(dataSource)) {
            IncidentView incident = IncidentQueries.get(c, id)
                    .orElseThrow(() -> IncidentIds.notFound(body.incidentId()));
            // the tenant exactly as named ('acme ' is not 'acme'); absent or empty: the provider's own
            String tenant = body.tenant() == null || body.tenant().isEmpty() ? null : body.tenant();
            if (Register.PROVIDER.equals(tenant)) {
                throw new ProblemException(400, "a tenant named '" + Register.PROVIDER + "' has no register here: the"
                        + " name is the provider's own register's (leave 'tenant' out for the provider's own)");
            }
            if (tenant != null) {
                IncidentIds.affected(incident, tenant);
            }
            Instant now = clock.instant().truncatedTo(ChronoUnit.MICROS);  // as PostgreSQL keeps it
            Register.Stored s = register.append(tenant, register.build(c, incident, tenant, now), actor, now);
            AuditTrail.record(actor, "register.append", "register:" + s.register(), null,
                    "{\"entry\":" + s.id() + ",\"incident\":\"" + id + "\",\"hash\":\"" + s.hash() + "\"}");
            return s;
        }
    }

    /** The entries of one register ({@code reg}) or all, of one incident ({@code inc}) or all, in chain order. */
    @UnitOfWork
    public List<Register.Stored> list(String reg, String inc) throws SQLException {
        UUID incident = inc == null || inc.isBlank() ? null : IncidentIds.uuid(inc);
        return register.list(blankToNull(reg), incident);
    }

    /**
     * The entries of the tenant {@code tenant}'s own register (its id matched exactly, never the provider's own) of
     * one incident: what a controller's regulator pack holds.
     */
    @UnitOfWork
    public List<Register.Stored> ofTenant(String tenant, UUID incident) throws SQLException {
        return register.ofTenant(tenant, incident);
    }

    /** {@link #ofTenant} as CSV ({@code violation-register.csv}), times in UTC and in the zone {@code zoneName}. */
    public Csv.Export tenantCsv(String tenant, UUID incident, String zoneName) throws SQLException {
        return csvOf(ofTenant(tenant, incident), zoneName);
    }

    /** Proves the chain, or names its first broken entry. */
    @UnitOfWork
    public RegisterChain.Verdict verify() throws SQLException {
        return register.verify();
    }

    /**
     * One register ({@code reg}) or all as CSV ({@code violation-register.csv}), times in UTC and in the zone
     * {@code zoneName} (Europe/Paris when absent).
     */
    public Csv.Export csv(String reg, String zoneName) throws SQLException {
        return csv(reg, null, zoneName);
    }

    /** As {@link #csv(String, String)}, of one incident's entries only ({@code incident} null: every entry). */
    @UnitOfWork
    public Csv.Export csv(String reg, UUID incident, String zoneName) throws SQLException {
        ZoneId zone = Zones.parse(zoneName);
        return csvOf(register.list(blankToNull(reg), incident), zone.getId());
    }

    private Csv.Export csvOf(List<Register.Stored> entries, String zoneName) {
        ZoneId zone = Zones.parse(zoneName);
        DateTimeFormatter local = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss xxx").withZone(zone);
        StringBuilder out = new StringBuilder("entry,register,controller,incident_id,recorded_at_utc,recorded_at_local,"
                + "nature,first_exposure_at_utc,last_exposure_at_utc,exposed_requests,exposed_tokens,received_tokens,"
                + "responses_received,persons,authorities,data_subjects,measures,severity,hash,findings,"
                + "likely_consequences,data_categories,special_categories,controller_aware_at_utc,delay_reasons\r\n");
        for (Register.Stored s : entries) {
            RegisterEntry e = s.entry();
            if (e == null) {
                Csv.row(out, List.of(Long.toString(s.id()), s.register(), "", s.incidentId().toString(),
                        s.recordedAt().toString(), local.format(s.recordedAt()), "(unreadable: run verify)", "", "",
                        "", "", "", "", "", "", "", "", "", s.hash(), "", "", "", "", "", ""));
                continue;
            }
            Csv.row(out, List.of(Long.toString(s.id()), s.register(), nz(e.controller()), s.incidentId().toString(),
                    s.recordedAt().toString(), local.format(s.recordedAt()), e.nature(), nz(e.firstExposureAt()),
                    nz(e.lastExposureAt()), Long.toString(e.records().exposedRequests()),
                    Long.toString(e.records().exposedTokens()), Long.toString(e.records().receivedTokens()),
                    Long.toString(e.records().responsesReceived()),
                    e.persons().approximateNumber() == null ? "unknown" : e.persons().approximateNumber().toString(),
                    notifications(e.authorities()), notifications(e.dataSubjects()),
                    e.measures().stream().map(m -> m.takenAt() + " " + m.text()).collect(Collectors.joining(" | ")),
                    e.severity() == null ? "" : nz(e.severity().level()), s.hash(),
                    e.findings() == null ? "" : e.findings().entrySet().stream().map(f -> f.getKey() + "="
                            + f.getValue()).collect(Collectors.joining(" | ")),
                    nz(e.likelyConsequences()), e.dataCategories() == null ? ""
                            : String.join(" | ", e.dataCategories()),
                    e.specialCategories() == null ? "" : String.join(" | ", e.specialCategories()),
                    nz(e.controllerAwareAt()), nz(e.delayReasons())));
        }
        return new Csv.Export("violation-register.csv", out.toString());
    }

    /** One register ({@code reg}) or all as a PDF/A-3u with the chain's verdict, in {@code langParam}. */
    public Download pdf(String reg, String langParam, String zoneName) throws SQLException {
        ZoneId zone = Zones.parse(zoneName);
        String lang = Reader.language(langParam, "fr");
        Locale locale = Locale.forLanguageTag(lang);
        Instant now = clock.instant().truncatedTo(ChronoUnit.SECONDS);
        RegisterExport export = export(reg, lang, zone, locale, now);
        DocumentRenderer.Rendered r = renderer.render(DocumentRenderer.inLanguage(lang, pdfEn, pdfFr), lang, export,
                "reg");
        return Download.of(renderer, r, "pdf", "violation-register");
    }

    /** The register's lines and its chain's verdict, read in one transaction (the rendering comes after it). */
    @UnitOfWork
    RegisterExport export(String reg, String lang, ZoneId zone, Locale locale, Instant now) throws SQLException {
        RegisterChain.Verdict v = register.verify();
        List<RegisterExport.Line> lines = new ArrayList<>();
        for (Register.Stored s : register.list(blankToNull(reg), null)) {
            RegisterEntry e = s.entry();
            if (e == null) {
                continue;  // unreadable: the chain's verdict above says so
            }
            lines.add(new RegisterExport.Line(s.id(), s.register(), e.controller(), s.incidentId().toString(),
                    When.of(s.recordedAt(), zone, locale), notices.word(lang, "nature", e.nature()),
                    When.of(e.firstExposureAt(), zone, locale),
                    When.of(e.lastExposureAt(), zone, locale), e.records(), e.persons(),
                    notices(e.authorities(), zone, locale), notices(e.dataSubjects(), zone, locale),
                    e.measures().stream().map(m -> When.of(m.takenAt(), zone, locale).local()
                            + (lang.equals("fr") ? " : " : ": ")
                            + m.text())
                            .toList(), e.severity() == null || e.severity().level() == null ? null
                            : notices.word(lang, "severity", e.severity().level()), s.hash(),
                    e.findings() == null ? List.of() : e.findings().entrySet().stream().map(f ->
                            notices.word(lang, "finding", f.getKey()) + " (" + f.getValue() + ")").toList(),
                    e.likelyConsequences(), e.dataCategories() == null ? List.of() : e.dataCategories(),
                    e.specialCategories() == null ? List.of() : e.specialCategories(),
                    When.of(e.controllerAwareAt(), zone, locale), e.delayReasons(),
                    e.decisions() == null ? List.of() : e.decisions().stream().map(d -> (lang.equals("fr")
                            ? "« " + notices.word(lang, "decision", d.name()) + " » : "
                                    + (d.value() ? "oui" : "non")
                            : "\"" + notices.word(lang, "decision", d.name()) + "\": " + (d.value() ? "yes" : "no"))
                            + ", "
                            + When.of(d.at(), zone, locale).local() + (d.justification() == null ? ""
                            : " — " + d.justification())).toList()));
        }
        return new RegisterExport(lang, zone.getId(), When.of(now, zone, locale), blankToNull(reg), v.valid(),
                v.entries(), v.head(), v.firstBroken(), lines);
    }

    /** Notifications in the document's language; an entry written before reason codes keeps its stored reason. */
    private List<RegisterExport.Notice> notices(List<RegisterEntry.Notification> ns, ZoneId zone,
            Locale locale) {
        String lang = locale.getLanguage();
        return ns.stream().map(n -> new RegisterExport.Notice(notices.recipient(n.recipient(), lang), n.status(),
                When.of(n.doneAt(), zone, locale), n.evidence(), n.reasonCode() != null
                        ? notices.word(lang, "reason", n.reasonCode()) : n.reason())).toList();
    }

    private static String notifications(List<RegisterEntry.Notification> ns) {
        return ns.stream().map(n -> n.recipient() + " " + n.status() + (n.doneAt() == null ? "" : " " + n.doneAt())
                + (n.evidence() == null ? "" : " (" + n.evidence() + ")")
                + (n.reason() == null || !"NOT_REQUIRED".equals(n.status()) ? "" : ": " + n.reason()))
                .collect(Collectors.joining(" | "));
    }

    private static String nz(Object o) {
        return o == null ? "" : o.toString();
    }

    /** A register named as given ('acme ' is not 'acme'); none (every register) when absent or blank. */
    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }
}
