package app.vigie.web.portal;

import java.sql.SQLException;
import java.time.ZoneId;
import java.util.Locale;

import jakarta.annotation.security.PermitAll;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.jboss.resteasy.reactive.RestForm;

import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateInstance;

import app.vigie.alert.AlertService;
import app.vigie.notice.When;
import app.vigie.time.Zones;
import app.vigie.web.pages.Viewer;

/**
 * The acknowledgement link of an alert, for a customer without an account here: the link's token is the proof. The
 * page asks for a click (a POST), so that a mail scanner following the link acknowledges nothing.
 */
@Path("/ack/{token}")
@Produces(MediaType.TEXT_HTML)
public class AckPage {

    @Inject
    AlertService alerts;

    @CheckedTemplate(basePath = "pages")
    static class Templates {
        static native TemplateInstance ack(View ack, String lang);
    }

    public record View(String language, String token, String tenant, String phase, String incident, When createdAt,
            When acknowledgedAt, boolean justNow) {
    }

    @GET
    @PermitAll
    public Response show(@PathParam("token") String token, @QueryParam("lang") String lang,
            @HeaderParam("Accept-Language") String accept) throws SQLException {
        return page(token, Viewer.language(lang, accept), false);
    }

    @POST
    @PermitAll
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response acknowledge(@PathParam("token") String token, @RestForm String lang)
            throws SQLException {
        AlertService.AlertRef a = alerts.byToken(token).orElse(null);
        if (a == null) {
            return page(token, lang == null ? "en" : lang, false);
        }
        alerts.acknowledge(a.id(), "ack-link:" + a.tenant(), "link");
        return page(token, lang == null ? "en" : lang, true);
    }

    private Response page(String token, String language, boolean justNow) throws SQLException {
        String lang = "fr".equals(language) ? "fr" : "en";
        Locale locale = Locale.forLanguageTag(lang);
        ZoneId zone = ZoneId.of(Zones.DEFAULT);
        AlertService.AlertRef a = alerts.byToken(token).orElse(null);
        View v = a == null ? null : new View(lang, token, a.tenant(), a.phase(), a.incident().toString(),
                When.of(a.createdAt(), zone, locale), a.acknowledgedAt() == null ? null
                        : When.of(a.acknowledgedAt(), zone, locale), justNow);
        String html = Templates.ack(v, lang).setLocale(lang).render();
        return Response.status(a == null ? 404 : 200).type(MediaType.TEXT_HTML_TYPE.withCharset("UTF-8"))
                .entity(html).build();
    }
}
