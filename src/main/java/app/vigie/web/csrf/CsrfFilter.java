package app.vigie.web.csrf;

import java.util.Optional;

import jakarta.inject.Inject;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.jboss.resteasy.reactive.server.WithFormRead;
import org.jboss.resteasy.reactive.server.core.ResteasyReactiveRequestContext;
import org.jboss.resteasy.reactive.server.spi.ResteasyReactiveContainerRequestContext;

/**
 * Refuses a dashboard form post ({@link DashboardForm}) whose {@value Csrf#FIELD} field is not this browser's token
 * for the signed-in user: 403 with a page saying to reload and try again. Runs after authentication and the role
 * check, before the action.
 */
public class CsrfFilter {

    @Inject
    Csrf csrf;

    @ServerRequestFilter
    @WithFormRead
    @DashboardForm
    public Optional<Response> check(ResteasyReactiveContainerRequestContext request) {
        String field = null;
        MediaType type = request.getMediaType();
        if (type != null && (type.isCompatible(MediaType.APPLICATION_FORM_URLENCODED_TYPE)
                || type.isCompatible(MediaType.MULTIPART_FORM_DATA_TYPE))) {
            Object value = ((ResteasyReactiveRequestContext) request.getServerRequestContext())
                    .getFormParameter(Csrf.FIELD, true, false);
            field = value == null ? null : value.toString();
        }
        if (csrf.valid(field)) {
            return Optional.empty();
        }
        return Optional.of(Response.status(403).type(MediaType.TEXT_HTML_TYPE.withCharset("UTF-8")).entity("""
                <!DOCTYPE html><html lang="en"><head><meta charset="UTF-8"/><title>Form expired – Vigie</title>
                <link rel="stylesheet" href="/static/vigie.css"/></head><body><main id="main">
                <h1>This form has expired</h1>
                <p>Its security token is missing or belongs to another session, so nothing was changed.
                Go back, reload the page and try again.</p>
                <p lang="fr">Ce formulaire a expiré : rien n'a été modifié. Revenez en arrière, rechargez la page
                et recommencez.</p><p><a href="/">Vigie</a></p></main></body></html>""").build());
    }
}
