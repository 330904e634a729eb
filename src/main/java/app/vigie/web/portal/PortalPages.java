package app.vigie.web.portal;

import java.net.URI;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;

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

import io.agroal.api.AgroalDataSource;
import io.quarkus.qute.Engine;

import app.vigie.alert.AlertService;
import app.vigie.db.Transactions;
import app.vigie.incident.IncidentIds;
import app.vigie.incident.IncidentQueries;
import app.vigie.incident.IncidentView;
import app.vigie.notice.NoticeService;
import app.vigie.notice.ProcessorAlert;
import app.vigie.notice.Reader;
import app.vigie.notice.When;
import app.vigie.problem.ProblemException;
import app.vigie.security.AccountService;
import app.vigie.security.Role;
import app.vigie.web.csrf.DashboardForm;
import app.vigie.web.pages.PageResource;

/**
 * The customer portal: a customer account sees its own tenant's incidents only, the exposure of its own requests
 * (other customers are never named), its alerts to acknowledge, and its documents. Anything of another tenant, or
 * an incident that does not touch its tenant, answers 404: not even its existence shows.
 */
@Path("/portal")
@Produces(MediaType.TEXT_HTML)
public class PortalPages {
    private static final Set<String> DOCUMENTS = Set.of("processor-alert.pdf", "processor-alert.html",
            "authority-notification.pdf", "authority-notification.html", "data-subject-communication.pdf",
            "data-subject-communication.html");

    @Inject
    Engine engine;

    @Inject
    AgroalDataSource dataSource;

    @Inject
    AccountService accounts;

    @Inject
    NoticeService notices;

    @Inject
    AlertService alerts;

    @Inject
    Clock clock;

    @Inject
    app.vigie.notice.DocumentResource documents;

    public record Home(String language, String zone, String user, String tenant, List<Line> incidents) {
    }

    public record Line(String id, String deployment, String status, When detectedAt, long exposedRequests,
            long receivedRequests, int unacknowledged) {
    }

    public record IncidentPortal(String language, String zone, String user, String tenant, String id,
            ProcessorAlert alert, List<AlertLine> alerts, boolean done) {
    }

    public record AlertLine(long id, String phase, When createdAt, When acknowledgedAt) {
    }

    /** The signed-in customer's tenant; 403 for an account bound to none. */
    private String tenant(SecurityContext who) throws SQLException {
        return accounts.current(who.getUserPrincipal().getName()).map(AccountService.Principal::tenant)
                .filter(t -> t != null && !t.isBlank())
                .orElseThrow(() -> new jakarta.ws.rs.ForbiddenException("this account is bound to no tenant"));
    }

    @GET
    @RolesAllowed(Role.R_CUSTOMER)
    public String home(@QueryParam("lang") String lang, @QueryParam("zone") String zoneParam,
            @HeaderParam("Accept-Language") String accept, @Context SecurityContext who) throws SQLException {
        String language = PageResource.language(lang, accept);
        ZoneId zone = Reader.zone(zoneParam);
        Locale locale = Locale.forLanguageTag(language);
        String tenant = tenant(who);
        List<Line> lines = Transactions.run(dataSource, c -> {
            List<Line> out = new ArrayList<>();
            for (UUID id : incidentsOf(c, tenant)) {
                IncidentView i = IncidentQueries.get(c, id).orElseThrow();
                long[] exposure = app.vigie.alert.AlertPlanner.exposure(c, id, tenant);
                out.add(new Line(id.toString(), i.deployment(), i.status(), When.of(i.detectedAt(), zone, locale),
                        exposure[0], exposure[1], unacknowledged(c, id, tenant)));
            }
            return out;
        });
        return engine.getTemplate("pages/portal").data("page", new Home(language, zone.getId(),
                who.getUserPrincipal().getName(), tenant, lines)).render();
    }

    @GET
    @Path("incidents/{id}")
    @RolesAllowed(Role.R_CUSTOMER)
    public String incident(@PathParam("id") String id, @QueryParam("lang") String lang,
            @QueryParam("zone") String zoneParam, @QueryParam("done") String done,
            @HeaderParam("Accept-Language") String accept, @Context SecurityContext who) throws SQLException {
        String language = PageResource.language(lang, accept);
        ZoneId zone = Reader.zone(zoneParam);
        Locale locale = Locale.forLanguageTag(language);
        String tenant = tenant(who);
        UUID uuid = own(id, tenant);
        Instant now = clock.instant();
        ProcessorAlert alert = Transactions.run(dataSource, c -> notices.processorAlert(c,
                IncidentQueries.get(c, uuid).orElseThrow(), tenant, locale, zone, now));
        List<AlertLine> mine = alerts.list(uuid, null, 100).stream().filter(a -> a.tenant().equals(tenant))
                .map(a -> new AlertLine(a.id(), a.phase(), When.of(a.createdAt(), zone, locale),
                        a.acknowledgedAt() == null ? null : When.of(a.acknowledgedAt(), zone, locale))).toList();
        return engine.getTemplate("pages/portal-incident").data("page", new IncidentPortal(language, zone.getId(),
                who.getUserPrincipal().getName(), tenant, id, alert, mine, done != null)).render();
    }

    /** The customer acknowledges one of its alerts (its awareness, which starts its own clock). */
    @POST
    @Path("alerts/{alert}/acknowledgement")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @RolesAllowed(Role.R_CUSTOMER)
    @DashboardForm
    public Response acknowledge(@PathParam("alert") String alertParam, @RestForm String lang,
            @Context SecurityContext who) throws SQLException {
        String tenant = tenant(who);
        long id = app.vigie.problem.Params.number("alert", alertParam, 1, Long.MAX_VALUE);
        AlertService.AlertRef a = alerts.get(id).filter(x -> x.tenant().equals(tenant))
                .orElseThrow(() -> new ProblemException(404, "no alert " + id));
        alerts.acknowledge(a.id(), who.getUserPrincipal().getName(), "portal");
        return Response.seeOther(URI.create("/portal/incidents/" + a.incident() + "?lang="
                + ("fr".equals(lang) ? "fr" : "en") + "&done=1")).build();
    }

    /** The customer's own documents of an incident: the processor alert, its notification draft, its letter. */
    @GET
    @Path("incidents/{id}/documents/{document}")
    @Produces({MediaType.TEXT_HTML, "application/pdf"})
    @RolesAllowed(Role.R_CUSTOMER)
    public Response document(@PathParam("id") String id, @PathParam("document") String document,
            @QueryParam("lang") String lang, @QueryParam("zone") String zone, @Context SecurityContext who)
            throws SQLException {
        String tenant = tenant(who);
        own(id, tenant);
        if (!DOCUMENTS.contains(document)) {
            throw new ProblemException(404, "no document '" + document + "' here");
        }
        return documents.controllerDocument(id, tenant, document, lang, zone);
    }

    /** The incident's id when it touches the tenant; 404 otherwise (another tenant's incident does not exist here). */
    private UUID own(String id, String tenant) throws SQLException {
        UUID uuid = IncidentIds.uuid(id);
        boolean mine = Transactions.run(dataSource, c -> incidentsOf(c, tenant).contains(uuid));
        if (!mine) {
            throw new ProblemException(404, "no incident " + id);
        }
        return uuid;
    }

    private static List<UUID> incidentsOf(Connection c, String tenant) throws SQLException {
        List<UUID> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                select i.id from incident i where exists (select 1 from exposure e where e.incident_id = i.id
                  and (e.victim_tenant = ? or (e.reader_tenant = ? and e.kind = 'CROSS_TENANT')))
                order by i.detected_at desc""")) {
            ps.setString(1, tenant);
            ps.setString(2, tenant);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getObject(1, UUID.class));
                }
            }
        }
        return out;
    }

    private static int unacknowledged(Connection c, UUID incident, String tenant) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                select count(*) from customer_alert where incident_id = ? and tenant = ? and acknowledged_at is null
                  and phase <> 'FINAL'""")) {
            ps.setObject(1, incident);
            ps.setString(2, tenant);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

}
