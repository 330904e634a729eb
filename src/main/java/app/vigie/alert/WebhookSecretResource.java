package app.vigie.alert;

import java.sql.SQLException;
import java.time.Clock;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.SecurityContext;

import io.agroal.api.AgroalDataSource;

import app.vigie.audit.AuditTrail;
import app.vigie.db.Transactions;
import app.vigie.problem.ProblemException;
import app.vigie.security.Role;
import app.vigie.tenant.TenantStore;

/**
 * {@code /api/tenants/{id}/webhook-secret}: the secret a tenant's webhook receiver verifies signatures with, made on
 * first use; POST makes a new one (the old one stops verifying at once). For the DPO, who hands it to the customer.
 */
@Path("/api/tenants/{id}/webhook-secret")
@Produces(MediaType.APPLICATION_JSON)
public class WebhookSecretResource {

    @Inject
    AgroalDataSource dataSource;

    @Inject
    Clock clock;

    public record Secret(String tenant, String secret) {
    }

    @GET
    @RolesAllowed({Role.R_DPO})
    public Secret secret(@PathParam("id") String tenant, @Context SecurityContext who) throws SQLException {
        return Transactions.run(dataSource, c -> {
            TenantStore.find(c, tenant).orElseThrow(() -> new ProblemException(404, "no tenant '" + tenant + "'"));
            return new Secret(tenant, AlertService.secret(c, tenant, clock.instant()));
        });
    }

    @POST
    @RolesAllowed({Role.R_DPO})
    public Secret rotate(@PathParam("id") String tenant, @Context SecurityContext who) throws SQLException {
        return Transactions.run(dataSource, c -> {
            TenantStore.find(c, tenant).orElseThrow(() -> new ProblemException(404, "no tenant '" + tenant + "'"));
            String secret = AlertService.rotate(c, tenant, clock.instant());
            AuditTrail.record(c, who.getUserPrincipal().getName(), "tenant.webhook-secret", "tenant:" + tenant,
                    null, "{\"rotated\":true}");
            return new Secret(tenant, secret);
        });
    }
}
