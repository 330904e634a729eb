package app.vigie.alert.web;

import java.net.URI;
import java.sql.SQLException;
import java.time.ZoneId;
import java.util.List;
import java.util.Locale;

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

import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateInstance;

import app.vigie.alert.AlertService;
import app.vigie.notice.When;
import app.vigie.problem.Params;
import app.vigie.security.Role;
import app.vigie.web.csrf.DashboardForm;
import app.vigie.web.pages.Pages;
import app.vigie.web.pages.Viewer;

/** The customer alerts' page: each alert with its deliveries; the DPO sends a dead or held one again. */
@Path("/alerts")
@Produces(MediaType.TEXT_HTML)
public class AlertsPage {

    @CheckedTemplate(basePath = "pages")
    static class Templates {
        static native TemplateInstance alerts(AlertsView page);
    }

    /** The alerts, filtered by a delivery {@code status} and a {@code state} (both blank: all). */
    public record AlertsView(String language, String zone, String user, String status, String state,
            boolean canRetry, List<AlertLine> alerts) {
    }

    public record AlertLine(long id, String incidentId, String tenant, String phase, When createdAt,
            When acknowledgedAt, boolean escalated, List<DeliveryLine> deliveries) {
    }

    public record DeliveryLine(long id, String channel, String target, String status, int attempts,
            When nextAttemptAt, String lastError, When deliveredAt) {
    }

    @Inject
    AlertService alerts;

    @GET
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public String alerts(@QueryParam("status") String status, @QueryParam("state") String state,
            @QueryParam("lang") String lang, @QueryParam("zone") String zoneParam,
            @HeaderParam("Accept-Language") String accept, @Context SecurityContext who) throws SQLException {
        Viewer viewer = Viewer.of(lang, zoneParam, accept);
        ZoneId zone = viewer.zone();
        Locale locale = viewer.locale();
        List<AlertLine> lines = alerts.list(null, status, state, 200).stream().map(a -> new AlertLine(
                a.id(), a.incidentId().toString(), a.tenant(), a.phase(), When.of(a.createdAt(), zone, locale),
                a.acknowledgedAt() == null ? null : When.of(a.acknowledgedAt(), zone, locale),
                a.escalatedAt() != null && a.acknowledgedAt() == null,
                a.deliveries().stream().map(d -> new DeliveryLine(d.id(), d.channel(), d.target(), d.status(),
                        d.attempts(), When.of(d.nextAttemptAt(), zone, locale), d.lastError(),
                        d.deliveredAt() == null ? null : When.of(d.deliveredAt(), zone, locale))).toList()))
                .toList();
        return Templates.alerts(new AlertsView(viewer.language(), zone.getId(), Pages.user(who), Pages.nz(status),
                Pages.nz(state).strip(), who.isUserInRole(Role.R_DPO), lines)).setLocale(viewer.language()).render();
    }

    /** The DPO sends a DEAD delivery again, or releases a HELD one; back to the alerts page. */
    @POST
    @Path("deliveries/{delivery}/retry")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @RolesAllowed({Role.R_DPO})
    @DashboardForm
    public Response retry(@PathParam("delivery") String delivery,
            @RestForm String lang, @Context SecurityContext who) throws SQLException {
        alerts.resend(Params.number("delivery", delivery, 1, Long.MAX_VALUE), Pages.user(who));
        return Response.seeOther(URI.create("/alerts?lang=" + ("fr".equals(lang) ? "fr" : "en")
                + "&done=" + delivery)).build();
    }
}
