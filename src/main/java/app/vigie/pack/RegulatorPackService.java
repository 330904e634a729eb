package app.vigie.pack;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.StreamingOutput;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import app.vigie.alert.AlertService;
import app.vigie.export.Csv;
import app.vigie.incident.ExposureView;
import app.vigie.incident.FindingView;
import app.vigie.incident.IncidentExports;
import app.vigie.incident.IncidentIds;
import app.vigie.incident.IncidentService;
import app.vigie.incident.IncidentView;
import app.vigie.incident.TenantView;
import app.vigie.notice.DocumentService;
import app.vigie.notice.Download;
import app.vigie.notice.NoticeService;
import app.vigie.notice.Reader;
import app.vigie.platform.Permits;
import app.vigie.problem.ProblemException;
import app.vigie.register.Register;
import app.vigie.register.RegisterChain;
import app.vigie.register.RegisterService;
import app.vigie.time.Zones;

/**
 * The regulator pack: one download with what an authority asks for about an incident, each file listed in a
 * manifest with its SHA-256. For the provider (the whole incident: its report, every controller's documents, the
 * register entries, every finding and exposure) and for one controller on its portal (its own documents, its
 * register's entries, its own exposures with the other customers' requests not named).
 */
@ApplicationScoped
public class RegulatorPackService {
    /** The manifest's {@code format}: a reader that knows this version knows every field. */
    public static final String FORMAT = "vigie-regulator-pack/2";
    private static final String PDF = "application/pdf";
    private static final String JSON = "application/json";
    private static final String CSV = "text/csv; charset=UTF-8";
    /** A controller's documents (their names in the document paths) and what each is. */
    private static final Map<String, Part> CONTROLLER_DOCUMENTS = new LinkedHashMap<>();

    /** What a pack holds, each with its description in templates/notices/words.yaml (group {@code pack}). */
    public enum Part {
        TITLE_BREACH, TITLE_EVENT, TITLE_CONTROLLER_BREACH, TITLE_CONTROLLER_EVENT, INCIDENT_REPORT_PDF,
        INCIDENT_REPORT_JSON, PROCESSOR_ALERT, AUTHORITY_NOTIFICATION, DATA_SUBJECT_COMMUNICATION,
        ISSUED_AUTHORITY_NOTIFICATION, REGISTER_JSON, REGISTER_CSV, OWN_REGISTER_JSON, OWN_REGISTER_CSV, ALERTS_CSV,
        OWN_ALERTS_CSV, FINDINGS_CSV, FINDINGS_JSON, EXPOSURES_CSV, EXPOSURES_JSON, OWN_EXPOSURES_CSV,
        OWN_EXPOSURES_JSON
    }

    static {
        CONTROLLER_DOCUMENTS.put("processor-alert", Part.PROCESSOR_ALERT);
        CONTROLLER_DOCUMENTS.put(NoticeService.AUTHORITY, Part.AUTHORITY_NOTIFICATION);
        CONTROLLER_DOCUMENTS.put(NoticeService.DATA_SUBJECTS, Part.DATA_SUBJECT_COMMUNICATION);
    }

    /** Packs made at once at most: each renders every document of its incident (the rest wait: 503). */
    static final int AT_ONCE = 2;
    /** A tenant's folder in the whole incident's pack: {@code controllers/tenant-{id made safe}/}. */
    static final String FOLDER_PREFIX = "tenant-";
    private static final Logger LOG = Logger.getLogger(RegulatorPackService.class);
    /**
     * The packs granted and not yet written: a permit is taken when a pack is granted, before its answer starts,
     * and given back when its writing ends (issue 41: counting only from the first byte let every asker in).
     */
    private final Permits making = new Permits(AT_ONCE, "regulator packs are being made already",
            Duration.ofMinutes(1));

    /**
     * The manifest: what the pack is ({@code controller} null: the provider's whole incident), in which language and
     * zone its documents are written, when it was made and by whom, and every other file with its SHA-256.
     */
    public record Manifest(String format, String title, String incidentId, String deployment, String controller,
            String language, String timeZone, Instant generatedAt, String generatedBy, String hashAlgorithm,
            List<PackWriter.FileLine> files) {
    }

    /** The register entries of the provider's pack and the verdict on the whole chain they belong to. */
    public record RegisterExtract(RegisterChain.Verdict chain, List<Register.Stored> entries) {
    }

    /**
     * A controller's own register entries: each with its hash and its link to the one before (so that each can be
     * checked), whether the whole chain holds, and nothing of the chain's other registers (no count, no head, no
     * name of who recorded them).
     */
    public record OwnRegisterExtract(boolean chainValid, List<OwnEntry> entries) {
    }

    public record OwnEntry(long id, String register, UUID incidentId, Instant recordedAt, Object entry,
            String prevHash, String hash) {
    }

    /**
     * One line of a controller's own exposures: {@code direction} EXPOSED (its request's data read by another
     * request) or RECEIVED (its request read another's); the other request named only when it is the controller's
     * own ({@code counterpart} SAME_CUSTOMER), never another customer's; {@code possible}: what was read is uncertain
     * (spec 1.3, amendment 3), it may have been.
     */
    public record OwnExposure(String direction, String ownRequest, String counterpart, String counterpartRequest,
            long tokens, Instant firstSeenAt, Boolean delivered, boolean possible) {
    }

    /** A pack ready to write: its file name and the writing, done as the bytes go out. */
    public record Pack(String fileName, StreamingOutput body) {
    }

    @Inject
    IncidentService incidents;

    @Inject
    DocumentService documents;

    @Inject
    RegisterService registers;

    @Inject
    AlertService alerts;

    @Inject
    NoticeService notices;

    @Inject
    ObjectMapper json;

    @Inject
    Clock clock;

    /**
     * The whole incident's pack, documents in {@code langParam} (French by default: the CNIL's) with times in
     * {@code zoneParam}; 404 for no such incident, checked before anything is written.
     */
    public Pack incident(String id, String langParam, String zoneParam, String user) throws SQLException {
        String lang = Reader.language(langParam, "fr");
        ZoneId zone = Zones.parse(zoneParam);
        UUID uuid = IncidentIds.uuid(id);
        IncidentView incident = incidents.find(uuid).orElseThrow(() -> IncidentIds.notFound(id));
        Instant now = clock.instant().truncatedTo(ChronoUnit.SECONDS);
        Part title = "PERSONAL_DATA_BREACH".equals(incident.classification()) ? Part.TITLE_BREACH : Part.TITLE_EVENT;
        Permits.Permit permit = making.take();
        return new Pack("regulator-pack-" + IncidentIds.shortId(uuid) + "-" + lang + ".zip",
                out -> make(out, id, now, permit, w -> {
            w.add("incident-report.pdf", PDF, documents.incidentReport(id, "incident-report.pdf", lang,
                    zone.getId()).body(), word(lang, Part.INCIDENT_REPORT_PDF));
            w.add("incident-report.json", JSON, documents.incidentReport(id, "incident-report.json", lang,
                    zone.getId()).body(), word(lang, Part.INCIDENT_REPORT_JSON));
            Folders folders = new Folders();
            for (TenantView t : incidents.tenants(id)) {
                controllerDocuments(w, "controllers/" + folders.of(t.tenant()) + "/", id, t.tenant(), lang, zone);
            }
            w.add("register/entries.json", JSON, json.writeValueAsBytes(new RegisterExtract(registers.verify(),
                    registers.list(null, id))), word(lang, Part.REGISTER_JSON));
            w.add("register/entries.csv", CSV, utf8(registers.csv(null, uuid, zone.getId()).text()),
                    word(lang, Part.REGISTER_CSV));
            w.add("alerts.csv", CSV, utf8(alertsCsv(alerts.list(uuid, null, Integer.MAX_VALUE))),
                    word(lang, Part.ALERTS_CSV));
            List<FindingView> findings = incidents.findings(id);
            w.add("findings.csv", CSV, utf8(IncidentExports.findingsCsv(findings)), word(lang, Part.FINDINGS_CSV));
            w.add("findings.json", JSON, json.writeValueAsBytes(findings), word(lang, Part.FINDINGS_JSON));
            List<ExposureView> exposures = incidents.exposures(id);
            w.add("exposures.csv", CSV, utf8(IncidentExports.exposuresCsv(exposures)),
                    word(lang, Part.EXPOSURES_CSV));
            w.add("exposures.json", JSON, json.writeValueAsBytes(exposures), word(lang, Part.EXPOSURES_JSON));
            return manifest(w, word(lang, title), incident, null, lang, zone, now, user);
        }));
    }

    /**
     * One controller's pack: its documents, its register's entries, its own exposures; 404 when the incident does
     * not touch the tenant (the caller has checked who may ask).
     */
    public Pack controller(String id, String tenant, String langParam, String zoneParam, String user)
            throws SQLException {
        String lang = Reader.language(langParam, "fr");
        ZoneId zone = Zones.parse(zoneParam);
        UUID uuid = IncidentIds.uuid(id);
        IncidentView incident = incidents.find(uuid).orElseThrow(() -> IncidentIds.notFound(id));
        if (!incidents.touches(uuid, tenant)) {
            throw new ProblemException(404, "incident " + id + " does not affect tenant " + tenant);
        }
        Instant now = clock.instant().truncatedTo(ChronoUnit.SECONDS);
        Part title = "PERSONAL_DATA_BREACH".equals(incident.classification()) ? Part.TITLE_CONTROLLER_BREACH
                : Part.TITLE_CONTROLLER_EVENT;
        Permits.Permit permit = making.take();
        return new Pack("regulator-pack-" + IncidentIds.shortId(uuid) + "-" + Download.safeName(tenant) + "-" + lang + ".zip",
                out -> make(out, id, now, permit, w -> {
                    controllerDocuments(w, "", id, tenant, lang, zone);
                    // its own register, its id matched exactly: never the provider's own, nor acme's for 'acme '
                    List<OwnEntry> own = registers.ofTenant(tenant, uuid).stream().map(e -> new OwnEntry(e.id(),
                            e.register(), e.incidentId(), e.recordedAt(), e.entry(), e.prevHash(), e.hash())).toList();
                    w.add("register/entries.json", tenant, JSON, json.writeValueAsBytes(new OwnRegisterExtract(
                            registers.verify().valid(), own)), word(lang, Part.OWN_REGISTER_JSON));
                    w.add("register/entries.csv", tenant, CSV, utf8(registers.tenantCsv(tenant, uuid, zone.getId())
                            .text()), word(lang, Part.OWN_REGISTER_CSV));
                    w.add("alerts.csv", tenant, CSV, utf8(alertsCsv(alerts.list(uuid, null, Integer.MAX_VALUE)
                            .stream().filter(a -> a.tenant().equals(tenant)).toList())), word(lang,
                            Part.OWN_ALERTS_CSV));
                    // only the tenant's exposures are read from the database, not the whole incident's (issue 41)
                    List<OwnExposure> exposures = own(incidents.exposuresTouching(id, tenant), tenant);
                    w.add("exposures.csv", tenant, CSV, utf8(ownCsv(exposures)), word(lang, Part.OWN_EXPOSURES_CSV));
                    w.add("exposures.json", tenant, JSON, json.writeValueAsBytes(exposures),
                            word(lang, Part.OWN_EXPOSURES_JSON));
                    return manifest(w, word(lang, title), incident, tenant, lang, zone, now, user);
                }));
    }

    /** What goes into a pack; answers the manifest's bytes. */
    @FunctionalInterface
    private interface Contents {
        byte[] write(PackWriter w) throws IOException, SQLException;
    }

    /**
     * Writes a pack to {@code out}: its files, then its manifest, then the ZIP's end. On a failure the ZIP is left
     * unfinished (no central directory: no reader opens it as whole) and the answer breaks off.
     */
    private void make(OutputStream out, String id, Instant now, Permits.Permit permit, Contents contents)
            throws IOException {
        try (permit) {
            if (!permit.start()) {
                throw new IOException("the regulator pack of incident " + id + " was granted but its writing began too"
                        + " late: its place was given to another; ask again");
            }
            PackWriter w = new PackWriter(out, now);
            w.finish(contents.write(w));
        } catch (SQLException | RuntimeException e) {
            LOG.errorf(e, "The regulator pack of incident %s could not be made: its download is left unfinished", id);
            throw new IOException("the regulator pack of incident " + id + " could not be made", e);
        }
    }

    /** A controller's documents as they stand, and every version of its authority notification as issued. */
    private void controllerDocuments(PackWriter w, String dir, String id, String tenant, String lang, ZoneId zone)
            throws SQLException, IOException {
        for (Map.Entry<String, Part> kind : CONTROLLER_DOCUMENTS.entrySet()) {
            w.add(dir + kind.getKey() + ".pdf", tenant, PDF, documents.controllerDocument(id, tenant,
                    kind.getKey() + ".pdf", lang, zone.getId()).body(), word(lang, kind.getValue()));
        }
        for (DocumentService.VersionView v : documents.versions(id, tenant)) {
            w.add(dir + NoticeService.AUTHORITY + "-v" + v.version() + ".pdf", tenant, PDF,
                    documents.version(id, tenant, v.version() + ".pdf").body(),
                    word(lang, Part.ISSUED_AUTHORITY_NOTIFICATION) + " " + v.version());
        }
    }

    private byte[] manifest(PackWriter w, String title, IncidentView incident, String tenant, String lang,
            ZoneId zone, Instant now, String user) throws JsonProcessingException {
        return json.writerWithDefaultPrettyPrinter().writeValueAsBytes(new Manifest(FORMAT, title,
                incident.id().toString(), incident.deployment(), tenant, lang, zone.getId(), now, user, "SHA-256",
                w.files()));
    }

    /** The exposures that touch {@code tenant}, seen from it: another customer's requests not named. */
    static List<OwnExposure> own(List<ExposureView> exposures, String tenant) {
        return exposures.stream().flatMap(e -> {
            boolean same = e.victimTenant().equals(e.readerTenant());
            String counterpart = same ? "SAME_CUSTOMER" : "ANOTHER_CUSTOMER";
            if (e.victimTenant().equals(tenant)) {
                return Stream.of(new OwnExposure("EXPOSED", e.victimRequest(), counterpart,
                        same ? e.readerRequest() : null, e.tokens(), e.firstSeenAt(), e.delivered(), e.possible()));
            }
            if (e.readerTenant().equals(tenant)) {
                return Stream.of(new OwnExposure("RECEIVED", e.readerRequest(), counterpart, null,
                        e.tokens(), e.firstSeenAt(), e.delivered(), e.possible()));
            }
            return Stream.empty();
        }).toList();
    }

    /** Each alert and each of its deliveries, one row per delivery (an alert without a channel: one row). */
    static String alertsCsv(List<AlertService.AlertView> alerts) {
        StringBuilder out = new StringBuilder();
        Csv.row(out, List.of("alert", "tenant", "phase", "created_at_utc", "channel", "delivery_status", "attempts",
                "delivered_at_utc", "acknowledged_at_utc"));
        for (AlertService.AlertView a : alerts) {
            List<AlertService.DeliveryView> ds = a.deliveries().isEmpty() ? Collections.singletonList(null)
                    : a.deliveries();
            for (AlertService.DeliveryView d : ds) {
                Csv.row(out, List.of(Long.toString(a.id()), a.tenant(), a.phase(), text(a.createdAt()),
                        d == null ? "" : d.channel(), d == null ? "NO_CHANNEL" : d.status(),
                        d == null ? "" : Integer.toString(d.attempts()), d == null ? "" : text(d.deliveredAt()),
                        text(a.acknowledgedAt())));
            }
        }
        return out.toString();
    }

    private static String text(Instant t) {
        return t == null ? "" : t.toString();
    }

    private static String ownCsv(List<OwnExposure> own) {
        StringBuilder out = new StringBuilder();
        Csv.row(out, List.of("direction", "own_request", "counterpart", "counterpart_request",
                "tokens", "first_seen_at_utc", "delivered", "possible"));
        for (OwnExposure o : own) {
            Csv.row(out, List.of(o.direction(), o.ownRequest(), o.counterpart(),
                    o.counterpartRequest() == null ? "" : o.counterpartRequest(), Long.toString(o.tokens()),
                    text(o.firstSeenAt()),
                    IncidentExports.delivered(o.delivered()), o.possible() ? "yes" : "no"));
        }
        return out.toString();
    }

    /** A pack as the HTTP answer: a ZIP download, written as it is made. */
    public static Response answer(Pack pack) {
        return Response.ok(pack.body(), "application/zip")
                .header("Content-Disposition", "attachment; filename=\"" + pack.fileName() + "\"").build();
    }

    private String word(String lang, Part part) {
        return notices.word(lang, "pack", part.name());
    }

    /**
     * The tenants' folder names of one pack: {@value #FOLDER_PREFIX} and the id made safe for a file name (so that no
     * id gives {@code .}, {@code ..} or a device name such as {@code CON}), told apart from another that reads the
     * same, also when they differ only by case ({@code Acme} and {@code acme} are one folder on a case-insensitive
     * file system): the second gets {@code -2}, and so on, in the order the tenants come.
     */
    static final class Folders {
        private final Set<String> used = new HashSet<>();

        String of(String tenant) {
            String base = FOLDER_PREFIX + Download.safeName(tenant);
            String name = base;
            for (int n = 2; !used.add(name.toLowerCase(Locale.ROOT)); n++) {
                name = base + "-" + n;
            }
            return name;
        }
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
