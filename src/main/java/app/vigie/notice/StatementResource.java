package app.vigie.notice;

import java.sql.SQLException;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.SecurityContext;

import app.vigie.security.Role;

/**
 * {@code /api/incidents/{id}/tenants/{tenant}/statements}: what the controller states of its case (data and persons
 * concerned, consequences, its measures, the information of the persons, its reasons for a delay), for its
 * notification and its communication to the persons. Replaced whole; audited.
 */
@Path("/api/incidents/{id}/tenants/{tenant}/statements")
@Produces(MediaType.APPLICATION_JSON)
public class StatementResource {

    @Inject
    StatementService statements;

    @GET
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public Statements get(@PathParam("id") String id, @PathParam("tenant") String tenant) throws SQLException {
        return statements.get(id, tenant);
    }

    @PUT
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST})
    public Statements put(@PathParam("id") String id, @PathParam("tenant") String tenant, Statements body,
            @Context SecurityContext who) throws SQLException {
        return statements.record(id, tenant, body, who.getUserPrincipal().getName());
    }
}
