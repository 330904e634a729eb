package app.vigie.web.pages;

import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

import jakarta.annotation.security.PermitAll;
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

import io.agroal.api.AgroalDataSource;
import io.quarkus.qute.Engine;

import app.vigie.compliance.plan.Obligation;
import app.vigie.compliance.service.ObligationService;
import app.vigie.db.Transactions;
import app.vigie.incident.IncidentQueries;
import app.vigie.incident.IncidentView;
import app.vigie.notice.Reader;
import app.vigie.notice.When;
import app.vigie.security.Role;

/**
 * The dashboard's pages, rendered on the server from templates/pages (Qute): the login page and the overview of
 * open incidents with their next deadlines. French or English from {@code lang} or the browser's language.
 */
@Path("/")
@Produces(MediaType.TEXT_HTML)
public class PageResource {

    @Inject
    Engine engine;

    @Inject
    AgroalDataSource dataSource;

    @Inject
    ObligationService obligations;

    @Inject
    Clock clock;

    /** The login form (posted to Quarkus's j_security_check); {@code error} after a failed attempt. */
    public record Login(String language, boolean error) {
    }

    @GET
    @Path("login")
    @PermitAll
    public String login(@QueryParam("error") String error, @QueryParam("lang") String lang,
            @HeaderParam("Accept-Language") String accept) {
        return engine.getTemplate("pages/login").data("login", new Login(language(lang, accept), error != null))
                .render();
    }

    /** Where a failed sign-in lands: the form again, saying why. */
    @GET
    @Path("login-error")
    @PermitAll
    public String loginError(@QueryParam("lang") String lang, @HeaderParam("Accept-Language") String accept) {
        return login("1", lang, accept);
    }

    @GET
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public String overview(@QueryParam("lang") String lang, @QueryParam("zone") String zoneParam,
            @HeaderParam("Accept-Language") String accept, @Context SecurityContext who) throws SQLException {
        return engine.getTemplate("pages/overview").data("page", overview(language(lang, accept),
                Reader.zone(zoneParam), who.getUserPrincipal().getName())).render();
    }

    /** The incidents table alone, for htmx to refresh in place. */
    @GET
    @Path("incidents")
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public String incidents(@QueryParam("lang") String lang, @QueryParam("zone") String zoneParam,
            @HeaderParam("Accept-Language") String accept, @Context SecurityContext who) throws SQLException {
        return engine.getTemplate("pages/incidents").data("page", overview(language(lang, accept),
                Reader.zone(zoneParam), who.getUserPrincipal().getName())).render();
    }

    Overview overview(String lang, ZoneId zone, String user) throws SQLException {
        Locale locale = Locale.forLanguageTag(lang);
        Instant now = clock.instant();
        List<Overview.Line> lines = Transactions.run(dataSource, c -> {
            List<Overview.Line> out = new ArrayList<>();
            for (IncidentView i : IncidentQueries.list(c, null)) {
                if (i.status().equals("CLOSED") || i.status().equals("DISMISSED")) {
                    continue;
                }
                List<Obligation> open = obligations.plan(c, i.id(), now, false).map(p -> p.obligations().stream()
                        .filter(Obligation::open).toList()).orElse(List.of());
                Obligation next = open.stream().filter(o -> o.dueAt() != null)
                        .min(Comparator.comparing(Obligation::dueAt)).orElse(null);
                java.util.Set<String> tenants = new java.util.TreeSet<>(i.victimTenants());
                tenants.addAll(i.recipientTenants());
                out.add(new Overview.Line(i.id().toString(), i.deployment(), i.status(), i.classification(),
                        When.of(i.detectedAt(), zone, locale), i.leakedResponses(), tenants.size(),
                        When.of(next == null ? null : next.dueAt(), zone, locale), next == null ? null : next.rule(),
                        next == null ? null : next.tenant(), next == null ? null : next.status().name(), open.size(),
                        (int) open.stream().filter(o -> o.status() == Obligation.Status.LATE).count()));
            }
            return out;
        });
        return new Overview(lang, zone.getId(), user, When.of(now, zone, locale), lines);
    }

    /** {@code lang} when given (fr or en), else the browser's first choice between them, else English. */
    static String language(String lang, String accept) {
        if (lang != null && !lang.isBlank()) {
            return Reader.language(lang, "en");
        }
        if (accept != null) {
            for (String part : accept.split(",")) {
                String tag = part.split(";")[0].strip().toLowerCase(Locale.ROOT);
                if (tag.startsWith("fr")) {
                    return "fr";
                }
                if (tag.startsWith("en")) {
                    return "en";
                }
            }
        }
        return "en";
    }
}
