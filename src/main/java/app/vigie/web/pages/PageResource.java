package app.vigie.web.pages;

import java.net.URI;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import jakarta.annotation.security.PermitAll;
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
import jakarta.ws.rs.core.NewCookie;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.sse.OutboundSseEvent;
import jakarta.ws.rs.sse.Sse;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateInstance;
import io.quarkus.security.Authenticated;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Multi;

import app.vigie.compliance.plan.Obligation;
import app.vigie.compliance.service.CaseService;
import app.vigie.compliance.service.ObligationService;
import app.vigie.incident.IncidentChanges;
import app.vigie.incident.IncidentView;
import app.vigie.incident.OverviewQueries;
import app.vigie.notice.DutyWords;
import app.vigie.notice.NoticeService;
import app.vigie.notice.When;
import app.vigie.problem.Params;
import app.vigie.problem.ProblemException;
import app.vigie.security.AccountService;
import app.vigie.security.OidcIdentity;
import app.vigie.security.OidcIdentityAugmentor;
import app.vigie.security.Role;
import app.vigie.time.Zones;
import app.vigie.web.csrf.Csrf;
import app.vigie.web.csrf.DashboardForm;

/**
 * The dashboard's pages, rendered on the server from templates/pages (Qute): the login page and the overview of
 * open incidents with their next deadlines. French or English from {@code lang} or the browser's language.
 */
@Path("/")
@Produces(MediaType.TEXT_HTML)
public class PageResource {

    @CheckedTemplate(basePath = "pages")
    static class Templates {
        static native TemplateInstance login(Login login);

        static native TemplateInstance overview(Overview page);

        static native TemplateInstance incidents(Overview page);
    }

    @Inject
    AccountService accounts;

    @Inject
    CaseService cases;

    @Inject
    Clock clock;

    @Inject
    Csrf csrf;

    @Inject
    SecurityIdentity identity;

    @Inject
    IncidentChanges changes;

    @Inject
    NoticeService notices;

    @Inject
    DutyWords dutyWords;

    @ConfigProperty(name = "vigie.dashboard.sign-in")
    String signIn;

    /** Whether the pages sign in through an OpenID Connect provider (VIGIE_OIDC_ISSUER) rather than the form. */
    boolean oidc() {
        return "oidc".equals(signIn);
    }

    /** quarkus.http.auth.form.cookie-name */
    static final String SESSION_COOKIE = "vigie-session";

    /** The login form (posted to Quarkus's j_security_check); {@code error} after a failed attempt. */
    public record Login(String language, boolean error, boolean oidc) {
    }

    @GET
    @Path("login")
    @PermitAll
    public String login(@QueryParam("error") String error, @QueryParam("lang") String lang,
            @HeaderParam("Accept-Language") String accept) {
        String language = Viewer.language(lang, accept);
        return Templates.login(new Login(language, error != null, oidc())).setLocale(language).render();
    }

    /** Signs out: the session and CSRF cookies are cleared; back to the sign-in form. */
    @POST
    @Path("logout")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Authenticated
    @DashboardForm
    public Response logout(@Context SecurityContext who)
            throws SQLException {
        csrf.clear();
        if (oidc()) {
            // every session of this provider user made until now is dead here (any copy of its cookie); then the OIDC
            // extension clears the cookie and sends the browser to the provider's logout, which ends its session there
            OidcIdentity user = identity.getAttribute(OidcIdentityAugmentor.IDENTITY_ATTRIBUTE);
            if (user != null) {
                accounts.endOidcSessions(who.getUserPrincipal().getName(), user,
                        identity.getAttribute(OidcIdentityAugmentor.ACCOUNT_ATTRIBUTE));
            }
            return Response.seeOther(URI.create("/oidc-logout")).build();
        }
        accounts.endSessions(who.getUserPrincipal().getName());  // this cookie, and any copy of it, is dead
        return Response.seeOther(URI.create("/login"))
                .cookie(new NewCookie.Builder(SESSION_COOKIE).value("").path("/").maxAge(0)
                        .httpOnly(true).sameSite(NewCookie.SameSite.STRICT).build(),
                        new NewCookie.Builder(AccountService
                                .SESSION_VERSION_COOKIE).value("").path("/").maxAge(0).httpOnly(true)
                                .sameSite(NewCookie.SameSite.STRICT).build())
                .build();
    }

    /** Where a failed sign-in lands: the form again, saying why. */
    @GET
    @Path("login-error")
    @PermitAll
    public String loginError(@QueryParam("lang") String lang, @HeaderParam("Accept-Language") String accept) {
        return login("1", lang, accept);
    }

    /** The open incidents; a customer (who sees only its own tenant's) is sent to its portal. */
    @GET
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR, Role.R_CUSTOMER})
    public Response overview(@QueryParam("lang") String lang, @QueryParam("zone") String zoneParam,
            @QueryParam("page") String page, @QueryParam("filter") String filter,
            @HeaderParam("Accept-Language") String accept, @Context SecurityContext who) throws SQLException {
        if (!who.isUserInRole(Role.R_DPO) && !who.isUserInRole(Role.R_ANALYST) && !who.isUserInRole(Role.R_AUDITOR)) {
            return Response.seeOther(URI.create("/portal")).build();
        }
        String language = Viewer.language(lang, accept);
        return Response.ok(Templates.overview(overview(language, Zones.parse(zoneParam),
                who.getUserPrincipal().getName(), pageNumber(page), filter(filter))).setLocale(language).render(),
                MediaType.TEXT_HTML_TYPE.withCharset("UTF-8")).build();
    }

    /**
     * Server-sent events for the overview: {@code incidents} when something it shows changed (the page then reloads
     * its table), {@code ping} every 20 s so that proxies keep the connection open.
     */
    @GET
    @Path("events")
    @Produces(MediaType.SERVER_SENT_EVENTS)
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public Multi<OutboundSseEvent> events(@Context Sse sse) {
        return changes.stream(Duration.ofSeconds(20))
                .map(name -> sse.newEventBuilder().name(name).data(name).build());
    }

    /** The incidents table alone, for htmx to refresh in place. */
    @GET
    @Path("incidents")
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public String incidents(@QueryParam("lang") String lang, @QueryParam("zone") String zoneParam,
            @QueryParam("page") String page, @QueryParam("filter") String filter,
            @HeaderParam("Accept-Language") String accept, @Context SecurityContext who) throws SQLException {
        String language = Viewer.language(lang, accept);
        return Templates.incidents(overview(language, Zones.parse(zoneParam), who.getUserPrincipal().getName(),
                pageNumber(page), filter(filter))).setLocale(language).render();
    }

    /** The overview's filter: all open incidents when absent; {@code due-soon} or {@code late}; a clear 400 else. */
    static OverviewQueries.OpenFilter filter(String filter) {
        if (filter == null || filter.isBlank()) {
            return OverviewQueries.OpenFilter.ALL;
        }
        return switch (filter.strip()) {
            case Overview.DUE_SOON -> OverviewQueries.OpenFilter.DUE_SOON;
            case Overview.LATE -> OverviewQueries.OpenFilter.LATE;
            default -> throw new ProblemException(400, "query parameter 'filter' must be " + Overview.DUE_SOON
                    + " or " + Overview.LATE + ", got '" + filter.strip() + "'");
        };
    }

    /** A page number of the overview: 1 when absent; a clear 400 when not a number from 1. */
    static int pageNumber(String page) {
        return page == null || page.isBlank() ? 1
                : (int) Params.number("page", page, 1, Integer.MAX_VALUE);
    }

    Overview overview(String lang, ZoneId zone, String user, int page, OverviewQueries.OpenFilter filter)
            throws SQLException {
        Locale locale = Locale.forLanguageTag(lang);
        Instant now = clock.instant();
        CaseService.OpenIncidents open = cases.openIncidents(filter, page, Overview.PAGE_SIZE, now);
        List<Overview.Line> lines = new ArrayList<>();
        for (CaseService.OpenIncident o : open.incidents()) {
            IncidentView i = o.incident();
            Optional<ObligationService.Plan> plan = o.plan();
            List<Obligation> due = plan.map(p -> p.obligations().stream().filter(Obligation::open).toList())
                    .orElse(List.of());
            String severity = plan.map(p -> Overview.highest(p.severity().values().stream()
                    .map(ObligationService.SeverityView::level).toList())).orElse(null);
            Obligation next = due.stream().filter(x -> x.dueAt() != null)
                    .min(Comparator.comparing(Obligation::dueAt)).orElse(null);
            Set<String> tenants = new TreeSet<>(i.victimTenants());
            tenants.addAll(i.recipientTenants());
            lines.add(new Overview.Line(i.id().toString(), i.deployment(), i.status(), i.classification(),
                    When.of(i.detectedAt(), zone, locale), i.leakedResponses(), tenants.size(),
                    When.of(next == null ? null : next.dueAt(), zone, locale), next == null ? null : next.rule(),
                    next == null ? null : dutyWords.title(next, lang), next == null ? null
                            : dutyWords.reference(next, lang), next == null ? null : dutyWords.recipient(next, lang),
                    next == null ? null : next.tenant(), next == null ? null : next.status().name(), due.size(),
                    (int) due.stream().filter(x -> "LATE".equals(x.statusWord())).count(), severity));
        }
        Overview.Summary summary = open.summary().map(d -> new Overview.Summary(open.open(), d.dueSoon(), d.late(),
                d.alertsUndelivered(), d.alertsUnacknowledged(), d.unmappedTenants(),
                When.of(d.computedAt(), zone, locale), Math.max(0, open.open() - d.incidents()))).orElse(null);
        return new Overview(lang, zone.getId(), user, When.of(now, zone, locale), lines, open.page(), open.pages(),
                open.total(), notices.provider().identified(), switch (filter) {
                    case ALL -> "";
                    case DUE_SOON -> Overview.DUE_SOON;
                    case LATE -> Overview.LATE;
                }, summary);
    }
}
