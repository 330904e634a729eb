package app.vigie.tenant.web;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;

import org.jboss.resteasy.reactive.RestForm;
import org.jboss.resteasy.reactive.multipart.FileUpload;

import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateInstance;

import app.vigie.export.Csv;
import app.vigie.incident.IncidentService;
import app.vigie.problem.Params;
import app.vigie.problem.ProblemException;
import app.vigie.security.Role;
import app.vigie.tenant.Tenant;
import app.vigie.tenant.TenantFile;
import app.vigie.tenant.TenantService;
import app.vigie.web.csrf.DashboardForm;
import app.vigie.web.pages.Pages;
import app.vigie.web.pages.Viewer;

/**
 * The tenants directory's page: the directory, the affected tenants it lacks, its exports (YAML, CSV), and the
 * import of a file, previewed line by line before anything is saved.
 */
@Path("/tenants")
@Produces(MediaType.TEXT_HTML)
public class TenantsPage {

    @CheckedTemplate(basePath = "pages")
    static class Templates {
        static native TemplateInstance tenants(TenantsView page);
    }

    /**
     * The page: the directory, the affected tenants of open incidents it does not have ({@code missing}), and
     * ({@code canImport}: the DPO) an import's preview or outcome ({@code imported} null: none).
     */
    public record TenantsView(String language, String zone, String user, List<TenantLine> tenants,
            List<String> missing, boolean canImport, Import imported) {
    }

    /**
     * An import: the file ({@code name}, its {@code text} posted back to confirm), each line's change or problems,
     * how many can be saved and how many are refused, the reason it was refused whole ({@code error}), or
     * {@code saved} after it was.
     */
    public record Import(String name, String text, List<TenantService.ImportLine> lines, int valid, int errors,
            String error, boolean saved) {
    }

    public record TenantLine(String id, String legalName, String country, String dpo, String channels,
            String alertDelay, String jurisdictions, String sectors) {
    }

    @Inject
    TenantService tenants;

    @Inject
    IncidentService incidents;

    @GET
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public String tenants(@QueryParam("lang") String lang, @QueryParam("zone") String zoneParam,
            @QueryParam("done") String done, @HeaderParam("Accept-Language") String accept,
            @Context SecurityContext who) throws SQLException {
        Viewer viewer = Viewer.of(lang, zoneParam, accept);
        return page(viewer, who, done == null ? null : new Import(null, null, List.of(),
                (int) Params.number("done", done, 0, Integer.MAX_VALUE), 0, null, true));
    }

    private String page(Viewer viewer, SecurityContext who, Import imported) throws SQLException {
        List<TenantLine> lines = new ArrayList<>();
        for (Tenant t : tenants.list()) {
            lines.add(new TenantLine(t.id(), t.legalName(), t.country(), t.dpo() == null ? null
                    : join(t.dpo().name(), t.dpo().email(), t.dpo().phone()),
                    t.alertChannels() == null ? "" : t.alertChannels().stream()
                            .map(ch -> ch.type() + ": " + ch.target()).collect(Collectors.joining(", ")),
                    t.alertDelay(), t.jurisdictions() == null ? "" : String.join(", ", t.jurisdictions()),
                    t.sectors() == null ? "" : String.join(", ", t.sectors())));
        }
        return Templates.tenants(new TenantsView(viewer.language(), viewer.zone().getId(), Pages.user(who), lines,
                incidents.unmappedTenants(), who.isUserInRole(Role.R_DPO), imported)).setLocale(viewer.language())
                .render();
    }

    /** The directory as YAML: the format of the file loaded at start (vigie.tenants.file), to edit and import. */
    @GET
    @Path("export.yaml")
    @Produces("application/yaml")
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public Response tenantsYaml() throws SQLException {
        return Response.ok(TenantFile.yaml(tenants.list()), "application/yaml; charset=UTF-8")
                .header("Content-Disposition", "attachment; filename=\"tenants.yaml\"").build();
    }

    /** The directory as CSV, one tenant per row (lists joined with "; "), to edit in a spreadsheet and import. */
    @GET
    @Path("export.csv")
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
    @Path("import")
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
    @Path("import/confirm")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @RolesAllowed({Role.R_DPO})
    @DashboardForm
    public Response importConfirm(@RestForm String name, @RestForm String content, @RestForm String lang,
            @Context SecurityContext who) throws SQLException {
        Viewer viewer = Viewer.of(lang, null, null);
        try {
            int changed = tenants.importAll(Pages.user(who), name, content);
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
                .entity(page(viewer, who, new Import(name, text, lines, lines.size() - errors, errors,
                        problem == null ? null : problem.getMessage(), false))).build();
    }

    private static String join(String... parts) {
        return Arrays.stream(parts).filter(p -> p != null && !p.isBlank())
                .collect(Collectors.joining(" · "));
    }
}
