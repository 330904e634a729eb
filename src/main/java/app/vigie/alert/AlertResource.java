package app.vigie.alert;

import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.UUID;

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


import app.vigie.incident.IncidentIds;
import app.vigie.problem.Params;
import app.vigie.problem.ProblemException;
import app.vigie.security.AccountService;
import app.vigie.security.Role;

/**
 * {@code /api/alerts}: the customer alerts and their deliveries (webhook, email, Kafka), a dead or held delivery
 * sent again, an alert acknowledged.
 */
@Path("/api/alerts")
@Produces(MediaType.APPLICATION_JSON)
public class AlertResource {
    @Inject
    AlertService alerts;

    @Inject
    AccountService accounts;

    @GET
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public List<AlertService.AlertView> list(@QueryParam("incident") String incident,
            @QueryParam("status") String status, @QueryParam("limit") String limit) throws SQLException {
        UUID id = incident == null || incident.isBlank() ? null : IncidentIds.uuid(incident);
        int n = limit == null || limit.isBlank() ? 100 : (int) Params.number("limit", limit, 1, 1000);
        return alerts.list(id, status, n);
    }

    /** Sends a DEAD (or HELD, awaiting approval) delivery now; 409 when it is in neither state. */
    @POST
    @Path("deliveries/{delivery}/retry")
    @RolesAllowed({Role.R_DPO})
    public Map<String, Object> retry(@PathParam("delivery") String delivery, @Context SecurityContext who)
            throws SQLException {
        long id = Params.number("delivery", delivery, 1, Long.MAX_VALUE);
        alerts.resend(id, who.getUserPrincipal().getName());
        return Map.of("delivery", id, "status", "PENDING");
    }

    /**
     * The customer (its own tenant's alerts only) or the DPO or an analyst on its behalf acknowledges an alert; the
     * controller's awareness is recorded then, unless an earlier one is.
     */
    @POST
    @Path("{alert}/acknowledgement")
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_CUSTOMER})
    public AlertService.AlertRef acknowledge(@PathParam("alert") String alert, @Context SecurityContext who)
            throws SQLException {
        long id = Params.number("alert", alert, 1, Long.MAX_VALUE);
        String user = who.getUserPrincipal().getName();
        AlertService.AlertRef a = alerts.get(id).orElseThrow(() -> new ProblemException(404, "no alert " + id));
        if (!who.isUserInRole(Role.R_DPO) && !who.isUserInRole(Role.R_ANALYST)) {
            String tenant = accounts.current(user).map(AccountService.Principal::tenant).orElse(null);
            if (tenant == null || !tenant.equals(a.tenant())) {
                throw new ProblemException(404, "no alert " + id);  // another tenant's: not even its existence
            }
        }
        return alerts.acknowledge(id, user, "api");
    }
}
