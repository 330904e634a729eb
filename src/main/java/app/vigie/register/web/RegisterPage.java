package app.vigie.register.web;

import java.sql.SQLException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.UUID;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;

import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateInstance;

import app.vigie.export.Csv;
import app.vigie.incident.IncidentIds;
import app.vigie.notice.Reader;
import app.vigie.notice.When;
import app.vigie.register.Register;
import app.vigie.register.RegisterChain;
import app.vigie.register.RegisterService;
import app.vigie.security.Role;
import app.vigie.web.pages.Pages;
import app.vigie.web.pages.Viewer;

/** The violation register's page: its entries, filtered, the chain's verdict, and its exports (CSV, PDF). */
@Path("/register")
@Produces(MediaType.TEXT_HTML)
public class RegisterPage {

    @CheckedTemplate(basePath = "pages")
    static class Templates {
        static native TemplateInstance register(RegisterView page);
    }

    public record RegisterView(String language, String zone, String user, String register, String incident,
            boolean valid, long entries, String head, Long firstBroken, String reason, List<RegisterLine> lines,
            List<String> registers, String query) {
    }

    public record RegisterLine(long id, String register, String controller, String incidentId, When recordedAt,
            String recordedBy, String nature, long exposedRequests, String severity, String hash) {
    }

    @Inject
    RegisterService register;

    @GET
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
        List<RegisterLine> lines = shown.stream().map(s -> new RegisterLine(s.id(), s.register(),
                s.entry() == null ? null : s.entry().controller(), s.incidentId().toString(),
                When.of(s.recordedAt(), zone, locale), s.recordedBy(), s.entry() == null ? null : s.entry().nature(),
                s.entry() == null ? 0 : s.entry().records().exposedRequests(),
                s.entry() == null || s.entry().severity() == null ? null : s.entry().severity().level(),
                s.hash())).toList();
        String query = Pages.query("register", reg, "zone", zone.getId(), "lang", language);
        return Templates.register(new RegisterView(language, zone.getId(), Pages.user(who), Pages.nz(reg),
                Pages.nz(incident), v.valid(), v.entries(), v.head(), v.firstBroken(), v.reason(), lines, registers,
                query)).setLocale(language).render();
    }

    @GET
    @Path("export.csv")
    @Produces("text/csv")
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public Response registerCsv(@QueryParam("register") String reg, @QueryParam("zone") String zone)
            throws SQLException {
        return Csv.attachment(register.csv(reg, zone));
    }

    @GET
    @Path("export.pdf")
    @Produces("application/pdf")
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public Response registerPdf(@QueryParam("register") String reg, @QueryParam("lang") String lang,
            @QueryParam("zone") String zone) throws SQLException {
        return Reader.answer(register.pdf(reg, lang, zone));
    }
}
