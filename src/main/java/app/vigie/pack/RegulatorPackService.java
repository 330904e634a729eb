package app.vigie.pack;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.StreamingOutput;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import app.vigie.export.Csv;
import app.vigie.incident.ExposureView;
import app.vigie.incident.FindingView;
import app.vigie.incident.IncidentExports;
import app.vigie.incident.IncidentIds;
import app.vigie.incident.IncidentService;
import app.vigie.incident.IncidentView;
import app.vigie.incident.TenantView;
import app.vigie.notice.DocumentService;
import app.vigie.notice.NoticeService;
import app.vigie.notice.Reader;
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
    public static final String FORMAT = "vigie-regulator-pack/1";
    private static final String PDF = "application/pdf";
    private static final String JSON = "application/json";
    private static final String CSV = "text/csv; charset=UTF-8";
    private static final List<String> CONTROLLER_DOCUMENTS = List.of("processor-alert",
            NoticeService.AUTHORITY, NoticeService.DATA_SUBJECTS);

    /** What a pack holds, each with its description in templates/notices/words.yaml (group {@code pack}). */
    public enum Part {
        TITLE_INCIDENT, TITLE_CONTROLLER, INCIDENT_REPORT_PDF, INCIDENT_REPORT_JSON, PROCESSOR_ALERT,
        AUTHORITY_NOTIFICATION, DATA_SUBJECT_COMMUNICATION, ISSUED_AUTHORITY_NOTIFICATION, REGISTER_JSON,
        REGISTER_CSV, FINDINGS_CSV, FINDINGS_JSON, EXPOSURES_CSV, EXPOSURES_JSON, OWN_EXPOSURES_CSV,
        OWN_EXPOSURES_JSON
    }

    /**
     * The manifest: what the pack is ({@code controller} null: the provider's whole incident), in which language and
     * zone its documents are written, when it was made and by whom, and every other file with its SHA-256.
     */
    public record Manifest(String format, String title, String incidentId, String deployment, String controller,
            String language, String timeZone, Instant generatedAt, String generatedBy, String hashAlgorithm,
            List<PackWriter.FileLine> files) {
    }

    /** The register entries of the pack and the verdict on the whole chain they belong to. */
    public record RegisterExtract(RegisterChain.Verdict chain, List<Register.Stored> entries) {
    }

    /**
     * One line of a controller's own exposures: {@code direction} EXPOSED (its request's data read by another
     * request) or RECEIVED (its request read another's); the other request named only when it is the controller's
     * own ({@code counterpart} SAME_CUSTOMER), never another customer's.
     */
    public record OwnExposure(String direction, String ownRequest, String counterpart, String counterpartRequest,
            long tokens, Instant firstSeenAt, Boolean delivered) {
    }

    /** A pack ready to write: its file name and the writing, done as the bytes go out. */
    public record Pack(String fileName, Body body) {
    }

    @FunctionalInterface
    public interface Body {
        void write(OutputStream out) throws IOException;
    }

    @Inject
    IncidentService incidents;

    @Inject
    DocumentService documents;

    @Inject
    RegisterService registers;

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
        return new Pack("regulator-pack-" + short8(uuid) + "-" + lang + ".zip", out -> {
            try (PackWriter w = new PackWriter(out, now)) {
                w.add("incident-report.pdf", PDF, documents.incidentReport(id, "incident-report.pdf", lang,
                        zone.getId()).body(), word(lang, Part.INCIDENT_REPORT_PDF));
                w.add("incident-report.json", JSON, documents.incidentReport(id, "incident-report.json", lang,
                        zone.getId()).body(), word(lang, Part.INCIDENT_REPORT_JSON));
                Set<String> folders = new HashSet<>();
                for (TenantView t : incidents.tenants(id)) {
                    controllerDocuments(w, "controllers/" + folder(folders, t.tenant()) + "/", id, t.tenant(), lang,
                            zone);
                }
                registerExtract(w, null, uuid, lang, zone);
                List<FindingView> findings = incidents.findings(id);
                w.add("findings.csv", CSV, utf8(IncidentExports.findingsCsv(findings)),
                        word(lang, Part.FINDINGS_CSV));
                w.add("findings.json", JSON, json.writeValueAsBytes(findings), word(lang, Part.FINDINGS_JSON));
                List<ExposureView> exposures = incidents.exposures(id);
                w.add("exposures.csv", CSV, utf8(IncidentExports.exposuresCsv(exposures)),
                        word(lang, Part.EXPOSURES_CSV));
                w.add("exposures.json", JSON, json.writeValueAsBytes(exposures), word(lang, Part.EXPOSURES_JSON));
                w.finish(manifest(w, word(lang, Part.TITLE_INCIDENT), incident, null, lang, zone, now, user));
            } catch (SQLException e) {
                throw new IOException("the regulator pack of incident " + id + " could not be read", e);
            }
        });
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
        return new Pack("regulator-pack-" + short8(uuid) + "-" + safe(tenant) + "-" + lang + ".zip", out -> {
            try (PackWriter w = new PackWriter(out, now)) {
                controllerDocuments(w, "", id, tenant, lang, zone);
                registerExtract(w, tenant, uuid, lang, zone);
                List<OwnExposure> own = own(incidents.exposures(id), tenant);
                w.add("exposures.csv", CSV, utf8(ownCsv(own)), word(lang, Part.OWN_EXPOSURES_CSV));
                w.add("exposures.json", JSON, json.writeValueAsBytes(own), word(lang, Part.OWN_EXPOSURES_JSON));
                w.finish(manifest(w, word(lang, Part.TITLE_CONTROLLER), incident, tenant, lang, zone, now, user));
            } catch (SQLException e) {
                throw new IOException("the regulator pack of incident " + id + " for " + tenant
                        + " could not be read", e);
            }
        });
    }

    /** A controller's documents as they stand, and every version of its authority notification as issued. */
    private void controllerDocuments(PackWriter w, String dir, String id, String tenant, String lang, ZoneId zone)
            throws SQLException, IOException {
        for (String kind : CONTROLLER_DOCUMENTS) {
            Part part = switch (kind) {
                case "processor-alert" -> Part.PROCESSOR_ALERT;
                case NoticeService.AUTHORITY -> Part.AUTHORITY_NOTIFICATION;
                default -> Part.DATA_SUBJECT_COMMUNICATION;
            };
            w.add(dir + kind + ".pdf", PDF, documents.controllerDocument(id, tenant, kind + ".pdf", lang,
                    zone.getId()).body(), word(lang, part));
        }
        for (DocumentService.VersionView v : documents.versions(id, tenant)) {
            w.add(dir + NoticeService.AUTHORITY + "-v" + v.version() + ".pdf", PDF,
                    documents.version(id, tenant, v.version() + ".pdf").body(),
                    word(lang, Part.ISSUED_AUTHORITY_NOTIFICATION) + " " + v.version());
        }
    }

    /** The register entries of the incident ({@code tenant}: its register only; null: every register). */
    private void registerExtract(PackWriter w, String tenant, UUID incident, String lang, ZoneId zone)
            throws SQLException, IOException {
        RegisterExtract extract = new RegisterExtract(registers.verify(),
                registers.list(tenant, incident.toString()));
        w.add("register/entries.json", JSON, json.writeValueAsBytes(extract),
                word(lang, Part.REGISTER_JSON));
        w.add("register/entries.csv", CSV, utf8(registers.csv(tenant, incident, zone.getId()).text()),
                word(lang, Part.REGISTER_CSV));
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
            if (same && e.victimTenant().equals(tenant)) {
                return Stream.of(new OwnExposure("EXPOSED", e.victimRequest(), counterpart,
                        e.readerRequest(), e.tokens(), e.firstSeenAt(), e.delivered()));
            }
            if (e.victimTenant().equals(tenant)) {
                return Stream.of(new OwnExposure("EXPOSED", e.victimRequest(), counterpart, null,
                        e.tokens(), e.firstSeenAt(), e.delivered()));
            }
            if (e.readerTenant().equals(tenant)) {
                return Stream.of(new OwnExposure("RECEIVED", e.readerRequest(), counterpart, null,
                        e.tokens(), e.firstSeenAt(), e.delivered()));
            }
            return Stream.empty();
        }).toList();
    }

    private static String ownCsv(List<OwnExposure> own) {
        StringBuilder out = new StringBuilder();
        Csv.row(out, List.of("direction", "own_request", "counterpart", "counterpart_request",
                "tokens", "first_seen_at_utc", "delivered"));
        for (OwnExposure o : own) {
            Csv.row(out, List.of(o.direction(), o.ownRequest(), o.counterpart(),
                    o.counterpartRequest() == null ? "" : o.counterpartRequest(), Long.toString(o.tokens()),
                    o.firstSeenAt() == null ? "" : o.firstSeenAt().toString(),
                    IncidentExports.delivered(o.delivered())));
        }
        return out.toString();
    }

    /** A pack as the HTTP answer: a ZIP download, written as it is made. */
    public static Response answer(Pack pack) {
        StreamingOutput body = out -> pack.body().write(out);
        return Response.ok(body, "application/zip")
                .header("Content-Disposition", "attachment; filename=\"" + pack.fileName() + "\"").build();
    }

    private String word(String lang, Part part) {
        return notices.word(lang, "pack", part.name());
    }

    /** A tenant's folder name: its id made safe for a file name, told apart from another that reads the same. */
    private static String folder(Set<String> used, String tenant) {
        String base = safe(tenant);
        String name = base;
        for (int n = 2; !used.add(name); n++) {
            name = base + "-" + n;
        }
        return name;
    }

    private static String safe(String s) {
        return s.replaceAll("[^A-Za-z0-9._-]", "_");
    }

    private static String short8(UUID id) {
        return id.toString().substring(0, 8);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
