package app.vigie.alert;

import java.sql.SQLException;
import java.time.Duration;
import java.time.format.DateTimeParseException;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.SecurityContext;

import app.vigie.alert.WebhookSecretService.Info;
import app.vigie.alert.WebhookSecretService.Secret;
import app.vigie.problem.ProblemException;
import app.vigie.security.Role;

/**
 * {@code /api/tenants/{id}/webhook-secret}: the secret a tenant's webhook receiver verifies signatures with. GET tells
 * whether there is one, since when, and its fingerprint, never the secret; POST makes a new one and returns it this
 * once (the DPO hands it to the customer); the previous one keeps signing beside it for {@code overlap} (ISO-8601,
 * default {@code vigie.alerts.webhook.secret-overlap}, 24 h; {@code PT0S} stops it at once, as after a leak).
 */
@Path("/api/tenants/{id}/webhook-secret")
@Produces(MediaType.APPLICATION_JSON)
public class WebhookSecretResource {

    @Inject
    WebhookSecretService secrets;

    @GET
    @RolesAllowed({Role.R_DPO})
    public Info info(@PathParam("id") String tenant) throws SQLException {
        return secrets.info(tenant);
    }

    @POST
    @RolesAllowed({Role.R_DPO})
    public Secret rotate(@PathParam("id") String tenant, @QueryParam("overlap") String overlapParam,
            @Context SecurityContext who) throws SQLException {
        Duration overlap;
        try {
            overlap = overlapParam == null || overlapParam.isBlank() ? null : Duration.parse(overlapParam.strip());
        } catch (DateTimeParseException e) {
            throw new ProblemException(400, "query parameter 'overlap' must be an ISO-8601 duration such as PT24H");
        }
        return secrets.rotate(who.getUserPrincipal().getName(), tenant, overlap);
    }
}
