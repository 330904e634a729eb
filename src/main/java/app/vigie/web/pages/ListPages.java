package app.vigie.web.pages;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.sql.SQLException;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Collectors;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
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
import org.jboss.resteasy.reactive.multipart.FileUpload;

import io.quarkus.qute.Engine;

import app.vigie.alert.AlertService;
import app.vigie.audit.AuditEvent;
import app.vigie.audit.AuditFilter;
import app.vigie.audit.AuditService;
import app.vigie.auditlog.QuarantineService;
import app.vigie.export.Csv;
import app.vigie.incident.IncidentIds;
import app.vigie.incident.IncidentService;
import app.vigie.notice.Reader;
import app.vigie.notice.When;
import app.vigie.problem.Params;
import app.vigie.problem.ProblemException;
import app.vigie.register.Register;
import app.vigie.register.RegisterChain;
import app.vigie.register.RegisterService;
import app.vigie.security.Role;
import app.vigie.tenant.Tenant;
import app.vigie.tenant.TenantFile;
import app.vigie.tenant.TenantService;
import app.vigie.time.Zones;
import app.vigie.web.LocalTimes;
import app.vigie.web.csrf.DashboardForm;

/**
 * The register, tenants, quarantine and audit-trail pages, each reading through the API's own resource (same rules,
 * same checks), and their exports for the signed-in dashboard (the API's take HTTP Basic).
 */
@Path("/")
@Produces(MediaType.TEXT_HTML)
public class ListPages {
    private static final int AUDIT_PAGE = 100;

    @Inject
    Engine engine;

    @Inject
    RegisterService register;

    @Inject
    TenantService tenants;

    @Inject
    QuarantineService quarantine;

    @Inject
    AuditService audit;

    @Inject
    AlertService alerts;

    @Inject
    IncidentService incidents;

    @GET
    @Path("register")
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public String register(@QueryParam("register") String reg, @QueryParam("incident") String incident,
            @QueryParam("lang") String lang, @QueryParam("zone") String zoneParam,
            @HeaderParam("Accept-Language") String accept, @Context SecurityContext who) throws SQLException {
        Viewer viewer = Viewer.of(lang, zoneParam, accept);
        String language = viewer.language();
        ZoneId zone = viewer.zone();
        Locale locale = viewer.locale();
        RegisterChain.Verdict v = register.verify();
        List<Register.Stored> all = register.list(null, null);
        List<String> registers = new ArrayList<>(new TreeSet<>(all.stream().map(Register.Stored::register)
                .toList()));
        // the filters applied to the entries read once (the list of registers needs them all)
        String wanted = reg == null || reg.isBlank() ? null : reg;  // exactly: 'acme ' is not 'acme' (issue 41)
        UUID incidentId = incident == null || incident.isBlank() ? null
                : IncidentIds.uuid(incident);
        List<Register.Stored> shown = all.stream().filter(s -> wanted == null || s.register().equals(wanted))
                .filter(s -> incidentId == null || s.incidentId().equals(incidentId)).toList();
        List<Lists.RegisterLine> lines = shown.stream().map(s -> new Lists.RegisterLine(s.id(), s.register(),
                s.entry() == null ? null : s.entry().controller(), s.incidentId().toString(),
                When.of(s.recordedAt(), zone, locale), s.recordedBy(), s.entry() == null ? null : s.entry().nature(),
                s.entry() == null ? 0 : s.entry().records().exposedRequests(),
                s.entry() == null || s.entry().severity() == null ? null : s.entry().severity().level(),
                s.hash())).toList();
        String query = query("register", reg, "zone", zone.getId(), "lang", language);
        return engine.getTemplate("pages/register").instance().setLocale(language)
                .data("page", new Lists.RegisterPage(language, zone.getId(),
                user(who), nz(reg), nz(incident), v.valid(), v.entries(), v.head(), v.firstBroken(), v.reason(),
                lines, registers, query)).render();
    }

    @GET
    @Path("register/export.csv")
    @Produces("text/csv")
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public Response registerCsv(@QueryParam("register") String reg, @QueryParam("zone") String zone)
            throws SQLException {
        return Csv.attachment(register.csv(reg, zone));
    }

    @GET
    @Path("register/export.pdf")
    @Produces("application/pdf")
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public Response registerPdf(@QueryParam("register") String reg, @QueryParam("lang") String lang,
            @QueryParam("zone") String zone) throws SQLException {
        return Reader.answer(register.pdf(reg, lang, zone));
    }

    @GET
    @Path("tenants")
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public String tenants(@QueryParam("lang") String lang, @QueryParam("zone") String zoneParam,
            @QueryParam("done") String done, @HeaderParam("Accept-Language") String accept,
            @Context SecurityContext who) throws SQLException {
        Viewer viewer = Viewer.of(lang, zoneParam, accept);
        return tenantsPage(viewer, who, done == null ? null : new Lists.Import(null, null, List.of(),
                (int) Params.number("done", done, 0, Integer.MAX_VALUE), 0, null, true));
    }

    private String tenantsPage(Viewer viewer, SecurityContext who, Lists.Import imported) throws SQLException {
        List<Lists.TenantLine> lines = new ArrayList<>();
        for (Tenant t : tenants.list()) {
            lines.add(new Lists.TenantLine(t.id(), t.legalName(), t.country(), t.dpo() == null ? null
                    : join(t.dpo().name(), t.dpo().email(), t.dpo().phone()),
                    t.alertChannels() == null ? "" : t.alertChannels().stream()
                            .map(ch -> ch.type() + ": " + ch.target()).collect(Collectors.joining(", ")),
                    t.alertDelay(), t.jurisdictions() == null ? "" : String.join(", ", t.jurisdictions()),
                    t.sectors() == null ? "" : String.join(", ", t.sectors())));
        }
        return engine.getTemplate("pages/tenants").instance().setLocale(viewer.language())
                .data("page", new Lists.TenantsPage(viewer.language(), viewer.zone().getId(),
                user(who), lines, incidents.unmappedTenants(), who.isUserInRole(Role.R_DPO), imported)).render();
    }

    /** The directory as YAML: the format of the file loaded at start (vigie.tenants.file), to edit and import. */
    @GET
    @Path("tenants/export.yaml")
    @Produces("application/yaml")
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public Response tenantsYaml() throws SQLException {
        return Response.ok(TenantFile.yaml(tenants.list()), "application/yaml; charset=UTF-8")
                .header("Content-Disposition", "attachment; filename=\"tenants.yaml\"").build();
    }

    /** The directory as CSV, one tenant per row (lists joined with "; "), to edit in a spreadsheet and import. */
    @GET
    @Path("tenants/export.csv")
    @Produces("text/csv")
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public Response tenantsCsv() throws SQLException {
        return Csv.attachment(new Csv.Export("tenants.csv", TenantFile.csv(tenants.list())));
    }

    /**
     * A YAML or CSV file of tenants, uploaded: the page shows what importing it would do, line by line, and the
     * errors of each line; nothing is saved until the preview is confirmed.
     */
    @POST
    @Path("tenants/import")
    @Consumes(MediaType.MULTIPART_FORM_DATA)
    @RolesAllowed({Role.R_DPO})
    @DashboardForm
    public Response importPreview(@RestForm("file") FileUpload file, @RestForm String lang,
            @Context SecurityContext who) throws SQLException, IOException {
        Viewer viewer = Viewer.of(lang, null, null);
        String name = file == null ? null : file.fileName();
        String text;
        if (file == null || file.size() == 0) {
            text = "";
        } else if (file.size() > TenantService.IMPORT_MAX_CHARS * 4L) {
            text = null;
        } else {
            try {
                text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT)
                        .decode(ByteBuffer.wrap(Files.readAllBytes(file.uploadedFile()))).toString();
            } catch (CharacterCodingException e) {
                return importPage(viewer, who, name, null, new ProblemException(400, "the file is not UTF-8 text: "
                        + "save it as UTF-8 (a spreadsheet's \"CSV UTF-8\")"));
            }
        }
        return importPage(viewer, who, name, text, null);
    }

    /** The import confirmed: the file's text, posted back from the preview, saved whole or not at all. */
    @POST
    @Path("tenants/import/confirm")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @RolesAllowed({Role.R_DPO})
    @DashboardForm
    public Response importConfirm(@RestForm String name, @RestForm String content, @RestForm String lang,
            @Context SecurityContext who) throws SQLException {
        Viewer viewer = Viewer.of(lang, null, null);
        try {
            int changed = tenants.importAll(user(who), name, content);
            return Response.seeOther(URI.create("/tenants?lang=" + viewer.language() + "&done=" + changed
                    + "#import")).build();
        } catch (ProblemException e) {
            return importPage(viewer, who, name, content, e);
        }
    }

    /**
     * The tenants page with an import: each line of the file read ({@code text} null: too large to read), and the
     * reason the file or its confirmation was refused ({@code refused}), answered with that reason's status.
     */
    private Response importPage(Viewer viewer, SecurityContext who, String name, String text,
            ProblemException refused) throws SQLException {
        ProblemException problem = text == null && refused == null ? TenantService.tooLarge() : refused;
        List<TenantService.ImportLine> lines = List.of();
        if (text != null) {
            try {
                lines = tenants.preview(name, text);
            } catch (ProblemException e) {
                problem = problem == null ? e : problem;
            }
        }
        int errors = (int) lines.stream().filter(l -> !l.problems().isEmpty()).count();
        return Response.status(problem == null ? 200 : problem.status())
                .type(MediaType.TEXT_HTML_TYPE.withCharset("UTF-8"))
                .entity(tenantsPage(viewer, who, new Lists.Import(name, text, lines, lines.size() - errors, errors,
                        problem == null ? null : problem.getMessage(), false))).build();
    }

    @GET
    @Path("quarantine")
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public String quarantine(@QueryParam("page") String pageParam, @QueryParam("source") String source,
            @QueryParam("lang") String lang, @QueryParam("zone") String zoneParam,
            @HeaderParam("Accept-Language") String accept, @Context SecurityContext who) throws SQLException {
        Viewer viewer = Viewer.of(lang, zoneParam, accept);
        String language = viewer.language();
        ZoneId zone = viewer.zone();
        Locale locale = viewer.locale();
        String src = source == null || source.isBlank() ? null : source.strip();
        QuarantineService.Page p = quarantine.page((int) Params.number("page",
                pageParam == null || pageParam.isBlank() ? "1" : pageParam, 1, 1_000_000), 50, src);
        List<Lists.QuarantineLine> items = p.items().stream().map(i -> new Lists.QuarantineLine(i.id(),
                When.of(i.receivedAt(), zone, locale), i.source(), i.sourceName(), i.position(), i.reason(),
                i.preview())).toList();
        return engine.getTemplate("pages/quarantine").instance().setLocale(language)
                .data("page", new Lists.QuarantinePage(language, zone.getId(),
                user(who), nz(src), p.page(), p.size(), p.total(), items, p.page() > 1,
                (long) p.page() * p.size() < p.total())).render();
    }

    @GET
    @Path("audit")
    @RolesAllowed({Role.R_DPO, Role.R_AUDITOR})
    public Response audit(@QueryParam("actor") String actor, @QueryParam("action") String action,
            @QueryParam("target") String target, @QueryParam("from") String from, @QueryParam("to") String to,
            @QueryParam("before") String before, @QueryParam("lang") String lang, @QueryParam("zone") String zoneParam,
            @HeaderParam("Accept-Language") String accept, @Context SecurityContext who) throws SQLException {
        Viewer viewer = Viewer.of(lang, zoneParam, accept);
        String language = viewer.language();
        ZoneId zone = viewer.zone();
        Locale locale = viewer.locale();
        String error = null;
        List<AuditEvent> events = List.of();
        String fromUtc = null;
        String toUtc = null;
        try {
            PageMessages words = PageWords.of(language);
            Instant f = LocalTimes.parse(from, zone, words.field_from());
            Instant t = LocalTimes.parse(to, zone, words.field_to());
            fromUtc = f == null ? null : f.toString();
            toUtc = t == null ? null : t.toString();
            AuditFilter filter = AuditFilter.parse(actor, action, target, fromUtc, toUtc, before);
            events = audit.find(filter, AUDIT_PAGE + 1);
        } catch (ProblemException e) {
            error = e.getMessage();
        }
        Long older = events.size() > AUDIT_PAGE ? events.get(AUDIT_PAGE - 1).id : null;
        List<Lists.AuditLine> lines = events.stream().limit(AUDIT_PAGE).map(e -> new Lists.AuditLine(e.id,
                When.of(e.at, zone, locale), e.actor, e.action, e.target, e.before, e.after)).toList();
        String query = query("actor", actor, "action", action, "target", target, "from", fromUtc, "to", toUtc,
                "zone", zone.getId());
        String html = engine.getTemplate("pages/audit").instance().setLocale(language)
                .data("page", new Lists.AuditPage(language, zone.getId(),
                user(who), nz(actor), nz(action), nz(target), nz(from), nz(to), lines, older, query, error)).render();
        return Response.status(error == null ? 200 : 400).entity(html).type(MediaType.TEXT_HTML_TYPE
                .withCharset("UTF-8")).build();
    }

    @GET
    @Path("audit/export.csv")
    @Produces("text/csv")
    @RolesAllowed({Role.R_DPO, Role.R_AUDITOR})
    public Response auditCsv(@QueryParam("actor") String actor, @QueryParam("action") String action,
            @QueryParam("target") String target, @QueryParam("from") String from, @QueryParam("to") String to,
            @QueryParam("zone") String zone) {
        return Csv.attachment(audit.csv(AuditFilter.parse(actor, action, target, from, to, null),
                Zones.parse(zone)));
    }

    @GET
    @Path("alerts")
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public String alerts(@QueryParam("status") String status, @QueryParam("state") String state,
            @QueryParam("lang") String lang, @QueryParam("zone") String zoneParam,
            @HeaderParam("Accept-Language") String accept, @Context SecurityContext who) throws SQLException {
        Viewer viewer = Viewer.of(lang, zoneParam, accept);
        ZoneId zone = viewer.zone();
        Locale locale = viewer.locale();
        List<Lists.AlertLine> lines = alerts.list(null, status, state, 200).stream().map(a -> new Lists.AlertLine(
                a.id(), a.incidentId().toString(), a.tenant(), a.phase(), When.of(a.createdAt(), zone, locale),
                a.acknowledgedAt() == null ? null : When.of(a.acknowledgedAt(), zone, locale),
                a.escalatedAt() != null && a.acknowledgedAt() == null,
                a.deliveries().stream().map(d -> new Lists.DeliveryLine(d.id(), d.channel(), d.target(), d.status(),
                        d.attempts(), When.of(d.nextAttemptAt(), zone, locale), d.lastError(),
                        d.deliveredAt() == null ? null : When.of(d.deliveredAt(), zone, locale))).toList()))
                .toList();
        return engine.getTemplate("pages/alerts").instance().setLocale(viewer.language())
                .data("page", new Lists.AlertsPage(viewer.language(), zone.getId(),
                user(who), nz(status), nz(state).strip(), who.isUserInRole(Role.R_DPO), lines)).render();
    }

    /** The DPO sends a DEAD delivery again, or releases a HELD one; back to the alerts page. */
    @POST
    @Path("alerts/deliveries/{delivery}/retry")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @RolesAllowed({Role.R_DPO})
    @DashboardForm
    public Response retry(@PathParam("delivery") String delivery,
            @RestForm String lang, @Context SecurityContext who) throws SQLException {
        alerts.resend(Params.number("delivery", delivery, 1, Long.MAX_VALUE), user(who));
        return Response.seeOther(URI.create("/alerts?lang=" + ("fr".equals(lang) ? "fr" : "en")
                + "&done=" + delivery)).build();
    }

    private static String user(SecurityContext who) {
        return who.getUserPrincipal().getName();
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }

    private static String join(String... parts) {
        return Arrays.stream(parts).filter(p -> p != null && !p.isBlank())
                .collect(Collectors.joining(" · "));
    }

    private static String abbreviate(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max) + "…";
    }

    /** A query string of the non-blank pairs (name, value, ...), values URL-encoded. */
    static String query(String... pairs) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < pairs.length; i += 2) {
            if (pairs[i + 1] != null && !pairs[i + 1].isBlank()) {
                out.add(pairs[i] + "=" + URLEncoder.encode(pairs[i + 1].strip(), StandardCharsets.UTF_8));
            }
        }
        return String.join("&", out);
    }
}
