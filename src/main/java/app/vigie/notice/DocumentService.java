package app.vigie.notice;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.agroal.api.AgroalDataSource;

import app.vigie.audit.AuditTrail;
import app.vigie.compliance.service.CaseStore;
import app.vigie.db.Transactions;
import app.vigie.db.UnitOfWork;
import app.vigie.incident.IncidentIds;
import app.vigie.incident.IncidentQueries;
import app.vigie.incident.IncidentView;
import app.vigie.problem.ProblemException;
import app.vigie.tenant.Tenant;
import app.vigie.tenant.TenantEntry;
import app.vigie.time.Zones;

/**
 * An incident's documents: a controller's (the processor's alert, the notification to the authority, the
 * communication to the persons), previewed, downloaded as PDF/A-3u or read as data, in French or English with times in
 * the reader's zone; the authority notification's issued versions; the provider's incident report.
 */
@ApplicationScoped
public class DocumentService {
    private static final Set<String> KINDS = Set.of(DocumentRenderer.PROCESSOR_ALERT, NoticeService.AUTHORITY,
            NoticeService.DATA_SUBJECTS);
    @Inject
    AgroalDataSource dataSource;

    @Inject
    NoticeService notices;

    @Inject
    DocumentRenderer renderer;

    @Inject
    Clock clock;

    /**
     * A controller's document ({kind}.{html|pdf|json}), for whoever the caller has checked may see it: the API's
     * readers, the dashboard, a customer's portal for its own tenant.
     */
    public Download controllerDocument(String id, String tenant, String document, String langParam,
            String zoneParam) throws SQLException {
        String[] kindAndFormat = parse(document);
        ZoneId zone = Zones.parse(zoneParam);
        UUID uuid = IncidentIds.uuid(id);
        Instant now = clock.instant().truncatedTo(ChronoUnit.SECONDS);
        DocumentRenderer.Rendered r = controllerRendered(kindAndFormat, uuid, id, tenant, langParam, zone, now);
        return Download.of(renderer, r, kindAndFormat[1], kindAndFormat[0] + "-" + IncidentIds.shortId(uuid)
                + "-" + tenant);
    }

    /** A controller's document read and laid out in one transaction (its PDF is made after it). */
    @UnitOfWork
    DocumentRenderer.Rendered controllerRendered(String[] kindAndFormat, UUID uuid, String id, String tenant,
            String langParam, ZoneId zone, Instant now) throws SQLException {
        try (Connection c = Transactions.connection(dataSource)) {
            IncidentView incident = kindAndFormat[0].equals(DocumentRenderer.PROCESSOR_ALERT)
                    ? IncidentQueries.affectedOrPossibly(c, uuid, id, tenant)
                    : IncidentQueries.affected(c, uuid, id, tenant);
            String lang = lang(c, langParam, tenant);
            return build(c, kindAndFormat[0], incident, tenant, Locale.forLanguageTag(lang), zone, now);
        }
    }

    /** The versions of the authority notification issued so far. */
    @UnitOfWork
    public List<VersionView> versions(String id, String tenant) throws SQLException {
        UUID uuid = IncidentIds.uuid(id);
        try (Connection c = Transactions.connection(dataSource)) {
            IncidentQueries.affected(c, uuid, id, tenant);
            return IssuedDocument.versions(uuid, tenant, NoticeService.AUTHORITY).stream().map(VersionView::of)
                    .toList();
        }
    }

    /**
     * Issues the next version of the authority notification (INITIAL, then COMPLEMENTARY) as it stands now, audited
     * as done by {@code actor}; 409 while the provider's identity is not configured.
     */
    public VersionView issue(String id, String tenant, String langParam, String zoneParam, String actor)
            throws SQLException {
        ZoneId zone = Zones.parse(zoneParam);
        UUID uuid = IncidentIds.uuid(id);
        Instant now = clock.instant().truncatedTo(ChronoUnit.SECONDS);
        if (!notices.provider().identified()) {
            throw new ProblemException(409, "the provider's identity is not recorded: an administrator records its "
                    + "legal name and contact on the settings page (/settings, or PUT /api/settings/provider; the "
                    + "environment's VIGIE_PROVIDER_NAME and VIGIE_PROVIDER_CONTACT are the default) before a "
                    + "notification to an authority is issued; previews show the fields to complete");
        }
        return VersionView.of(issued(uuid, id, tenant, langParam, zone, now, actor));
    }

    /** The next version, numbered, kept and audited in one transaction. */
    @UnitOfWork
    IssuedDocument.Version issued(UUID uuid, String id, String tenant, String langParam, ZoneId zone, Instant now,
            String actor) throws SQLException {
        try (Connection c = Transactions.connection(dataSource)) {
            IncidentView incident = IncidentQueries.affected(c, uuid, id, tenant);
            CaseStore.incident(c, uuid, true);  // one issuer at a time per incident: versions are numbered in order
            String lang = lang(c, langParam, tenant);
            int next = IssuedDocument.versions(uuid, tenant, NoticeService.AUTHORITY).size() + 1;
            AuthorityNotification n = notices.authorityNotification(c, incident, tenant, Locale.forLanguageTag(lang),
                    zone, now, next);
            IssuedDocument.Version issued = IssuedDocument.issue(uuid, tenant, NoticeService.AUTHORITY, next,
                    n.phase(), renderer.json(n), actor, now);
            AuditTrail.record(actor, "document.issue", "incident:" + uuid + "/tenant:" + tenant + "/"
                    + NoticeService.AUTHORITY, null, "{\"version\":" + next + ",\"phase\":\"" + n.phase()
                    + "\",\"sha256\":\"" + issued.sha256() + "\"}");
            return issued;
        }
    }

    /** An issued version ({number}.{html|pdf|json}), as it was issued: its JSON exactly, or rendered from it. */
    public Download version(String id, String tenant, String file) throws SQLException {
        String[] numberAndFormat = parse(NoticeService.AUTHORITY + "-v" + file);
        int dot = file.lastIndexOf('.');
        int number;
        try {
            number = Integer.parseInt(dot < 0 ? file : file.substring(0, dot));
        } catch (NumberFormatException e) {
            throw new ProblemException(404, "no version '" + file + "': versions are numbered, as 1.pdf, 2.json");
        }
        UUID uuid = IncidentIds.uuid(id);
        IssuedDocument.Version v = issuedVersion(uuid, id, tenant, number);
        DocumentRenderer.Rendered r = renderer.renderIssued(v.body());
        return Download.of(renderer, r, numberAndFormat[1], NoticeService.AUTHORITY + "-"
                + IncidentIds.shortId(uuid) + "-"
                + tenant + "-v" + number);
    }

    /** Issued version {@code number}; 404 when there is none. */
    @UnitOfWork
    IssuedDocument.Version issuedVersion(UUID uuid, String id, String tenant, int number) throws SQLException {
        try (Connection c = Transactions.connection(dataSource)) {
            IncidentQueries.affected(c, uuid, id, tenant);
            return IssuedDocument.versions(uuid, tenant, NoticeService.AUTHORITY).stream()
                    .filter(x -> x.version() == number).findFirst().orElseThrow(() -> new ProblemException(404,
                            "no version " + number + " of the authority notification of tenant " + tenant));
        }
    }

    /** The provider's incident report ({@code incident-report.{html|pdf|json}}) for a regulator. */
    public Download incidentReport(String id, String document, String langParam, String zoneParam)
            throws SQLException {
        String format = document.startsWith(NoticeService.REPORT + ".")
                ? document.substring(NoticeService.REPORT.length() + 1) : "";
        if (!format.equals("html") && !format.equals("pdf") && !format.equals("json")) {
            throw new ProblemException(404, "no document '" + document + "': an incident's own document is "
                    + NoticeService.REPORT + ".html, .pdf or .json; a controller's are under "
                    + "tenants/{tenant}/documents");
        }
        String lang = Reader.language(langParam, "en");
        ZoneId z = Zones.parse(zoneParam);
        UUID uuid = IncidentIds.uuid(id);
        Instant now = clock.instant().truncatedTo(ChronoUnit.SECONDS);
        DocumentRenderer.Rendered r = report(uuid, id, lang, z, now);
        return Download.of(renderer, r, format, NoticeService.REPORT + "-" + IncidentIds.shortId(uuid));
    }

    /** The incident report read and laid out in one transaction (its PDF is made after it). */
    @UnitOfWork
    DocumentRenderer.Rendered report(UUID uuid, String id, String lang, ZoneId z, Instant now) throws SQLException {
        try (Connection c = Transactions.connection(dataSource)) {
            IncidentView incident = IncidentQueries.get(c, uuid).orElseThrow(() -> IncidentIds.notFound(id));
            IncidentReport report = notices.incidentReport(c, incident, Locale.forLanguageTag(lang), z, now);
            return renderer.incidentReport(report, lang);
        }
    }

    /** A version as listed. */
    public record VersionView(int version, String phase, Instant issuedAt, String issuedBy, String sha256) {
        static VersionView of(IssuedDocument.Version v) {
            return new VersionView(v.version(), v.phase(), v.issuedAt(), v.issuedBy(), v.sha256());
        }
    }

    private DocumentRenderer.Rendered build(Connection c, String kind, IncidentView incident, String tenant,
            Locale lang, ZoneId zone, Instant now) throws SQLException {
        if (kind.equals(NoticeService.AUTHORITY)) {
            // a preview: no version number (issue() numbers what it issues)
            AuthorityNotification n = notices.authorityNotification(c, incident, tenant, lang, zone, now, null);
            return renderer.authorityNotification(n, lang.getLanguage());
        }
        if (kind.equals(NoticeService.DATA_SUBJECTS)) {
            DataSubjectCommunication d = notices.dataSubjectCommunication(c, incident, tenant, lang, zone, now);
            return renderer.dataSubjectCommunication(d, lang.getLanguage());
        }
        ProcessorAlert alert = notices.processorAlert(c, incident, tenant, lang, zone, now);
        return renderer.processorAlert(alert, lang.getLanguage());
    }

    /** {kind}.{format}, both checked. */
    private static String[] parse(String document) {
        int dot = document.lastIndexOf('.');
        String kind = dot < 0 ? document : document.substring(0, dot);
        String format = dot < 0 ? "" : document.substring(dot + 1);
        if (kind.startsWith(NoticeService.AUTHORITY + "-v")) {
            kind = NoticeService.AUTHORITY;
        }
        if (!KINDS.contains(kind) || !Set.of("html", "pdf", "json").contains(format)) {
            throw new ProblemException(404, "no document '" + document + "': documents are " + KINDS
                    + ", each as .html, .pdf or .json");
        }
        return new String[] {kind, format};
    }

    private static String lang(Connection c, String langParam, String tenant) throws SQLException {
        return Reader.language(langParam, TenantEntry.byId(tenant)
                .map(t -> Tenant.language(t.country())).orElse("en"));
    }
}
