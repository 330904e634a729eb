package app.vigie.alert;

import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
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

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.agroal.api.AgroalDataSource;

import app.vigie.audit.AuditTrail;
import app.vigie.db.Transactions;
import app.vigie.problem.ProblemException;
import app.vigie.security.Role;
import app.vigie.tenant.TenantStore;

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
    AgroalDataSource dataSource;

    @Inject
    Clock clock;

    @ConfigProperty(name = "vigie.alerts.webhook.secret-overlap",
            defaultValue = "P1D")
    Duration defaultOverlap;

    /** A new secret, shown once, and until when the one before still signs. */
    public record Secret(String tenant, String secret, Instant previousValidUntil) {
    }

    /** What is known of the secret. */
    public record Info(String tenant, boolean exists, Instant createdAt, String fingerprint,
            Instant previousValidUntil) {
    }

    @GET
    @RolesAllowed({Role.R_DPO})
    public Info info(@PathParam("id") String tenant) throws SQLException {
        return Transactions.run(dataSource, c -> {
            TenantStore.find(c, tenant).orElseThrow(() -> new ProblemException(404, "no tenant '" + tenant + "'"));
            WebhookSecretStore.SecretInfo i = WebhookSecretStore.secretInfo(c, tenant, clock.instant());
            return new Info(tenant, i.exists(), i.createdAt(), i.fingerprint(), i.previousValidUntil());
        });
    }

    @POST
    @RolesAllowed({Role.R_DPO})
    public Secret rotate(@PathParam("id") String tenant, @QueryParam("overlap") String overlapParam,
            @Context SecurityContext who) throws SQLException {
        Duration overlap;
        try {
            overlap = overlapParam == null || overlapParam.isBlank() ? defaultOverlap
                    : Duration.parse(overlapParam.strip());
        } catch (DateTimeParseException e) {
            throw new ProblemException(400, "query parameter 'overlap' must be an ISO-8601 duration such as PT24H");
        }
        if (overlap.isNegative() || overlap.compareTo(Duration.ofDays(7)) > 0) {
            throw new ProblemException(400, "query parameter 'overlap' must be between PT0S and P7D");
        }
        Duration o = overlap;
        return Transactions.run(dataSource, c -> {
            TenantStore.find(c, tenant).orElseThrow(() -> new ProblemException(404, "no tenant '" + tenant + "'"));
            Instant now = clock.instant();
            boolean had = WebhookSecretStore.secretInfo(c, tenant, now).exists();
            String secret = WebhookSecretStore.rotate(c, tenant, now, had ? o : Duration.ZERO);
            AuditTrail.record(who.getUserPrincipal().getName(), "tenant.webhook-secret", "tenant:" + tenant,
                    null, "{\"rotated\":true,\"previous_overlap\":" + AuditTrail.quote(o.toString()) + "}");
            return new Secret(tenant, secret, had && !o.isZero() ? now.plus(o) : null);
        });
    }
}
