package app.vigie.auditlog.web;

import java.sql.SQLException;
import java.time.ZoneId;
import java.util.List;
import java.util.Locale;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.SecurityContext;

import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateInstance;

import app.vigie.auditlog.QuarantineService;
import app.vigie.notice.When;
import app.vigie.problem.Params;
import app.vigie.security.Role;
import app.vigie.web.pages.Pages;
import app.vigie.web.pages.Viewer;

/** The quarantine's page: every rejected line of the page audit log, kept with its reason, 50 at a time. */
@Path("/quarantine")
@Produces(MediaType.TEXT_HTML)
public class QuarantinePage {

    @CheckedTemplate(basePath = "pages")
    static class Templates {
        static native TemplateInstance quarantine(QuarantineView page);
    }

    public record QuarantineView(String language, String zone, String user, String source, int page, int size,
            long total, List<QuarantineLine> items, boolean hasPrevious, boolean hasNext) {
    }

    public record QuarantineLine(long id, When receivedAt, String source, String sourceName, long position,
            String reason, String raw) {
    }

    @Inject
    QuarantineService quarantine;

    @GET
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public String quarantine(@QueryParam("page") String pageParam, @QueryParam("source") String source,
            @QueryParam("lang") String lang, @QueryParam("zone") String zoneParam,
            @HeaderParam("Accept-Language") String accept, @Context SecurityContext who) throws SQLException {
        Viewer viewer = Viewer.of(lang, zoneParam, accept);
        ZoneId zone = viewer.zone();
        Locale locale = viewer.locale();
        String src = source == null || source.isBlank() ? null : source.strip();
        QuarantineService.Page p = quarantine.page((int) Params.number("page",
                pageParam == null || pageParam.isBlank() ? "1" : pageParam, 1, 1_000_000), 50, src);
        List<QuarantineLine> items = p.items().stream().map(i -> new QuarantineLine(i.id(),
                When.of(i.receivedAt(), zone, locale), i.source(), i.sourceName(), i.position(), i.reason(),
                i.preview())).toList();
        return Templates.quarantine(new QuarantineView(viewer.language(), zone.getId(), Pages.user(who),
                Pages.nz(src), p.page(), p.size(), p.total(), items, p.page() > 1,
                (long) p.page() * p.size() < p.total())).setLocale(viewer.language()).render();
    }
}
