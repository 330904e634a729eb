package app.vigie.audit.web;

import java.sql.SQLException;
import java.time.Instant;
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
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;

import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateInstance;

import app.vigie.audit.AuditEvent;
import app.vigie.audit.AuditFilter;
import app.vigie.audit.AuditService;
import app.vigie.export.Csv;
import app.vigie.notice.When;
import app.vigie.problem.ProblemException;
import app.vigie.security.Role;
import app.vigie.time.Zones;
import app.vigie.web.LocalTimes;
import app.vigie.web.pages.PageMessages;
import app.vigie.web.pages.PageWords;
import app.vigie.web.pages.Pages;
import app.vigie.web.pages.Viewer;

/** The audit trail's page: every state change, filtered by actor, action, target and time, 100 at a time; its CSV. */
@Path("/audit")
@Produces(MediaType.TEXT_HTML)
public class AuditPage {
    private static final int AUDIT_PAGE = 100;

    @CheckedTemplate(basePath = "pages")
    static class Templates {
        static native TemplateInstance audit(AuditView page);
    }

    public record AuditView(String language, String zone, String user, String actor, String action, String target,
            String from, String to, List<AuditLine> events, Long older, String query, String error) {
    }

    public record AuditLine(long id, When at, String actor, String action, String target, String before,
            String after) {
    }

    @Inject
    AuditService audit;

    @GET
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
        List<AuditLine> lines = events.stream().limit(AUDIT_PAGE).map(e -> new AuditLine(e.id,
                When.of(e.at, zone, locale), e.actor, e.action, e.target, e.before, e.after)).toList();
        String query = Pages.query("actor", actor, "action", action, "target", target, "from", fromUtc, "to", toUtc,
                "zone", zone.getId());
        String html = Templates.audit(new AuditView(language, zone.getId(), Pages.user(who), Pages.nz(actor),
                Pages.nz(action), Pages.nz(target), Pages.nz(from), Pages.nz(to), lines, older, query, error))
                .setLocale(language).render();
        return Response.status(error == null ? 200 : 400).entity(html).type(MediaType.TEXT_HTML_TYPE
                .withCharset("UTF-8")).build();
    }

    @GET
    @Path("export.csv")
    @Produces("text/csv")
    @RolesAllowed({Role.R_DPO, Role.R_AUDITOR})
    public Response auditCsv(@QueryParam("actor") String actor, @QueryParam("action") String action,
            @QueryParam("target") String target, @QueryParam("from") String from, @QueryParam("to") String to,
            @QueryParam("zone") String zone) {
        return Csv.attachment(audit.csv(AuditFilter.parse(actor, action, target, from, to, null),
                Zones.parse(zone)));
    }
}
