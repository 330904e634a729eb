package app.vigie.tenant;

import java.sql.SQLException;
import java.util.List;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;

import app.vigie.problem.ProblemException;
import app.vigie.security.Role;

/** {@code /api/tenants}: the tenant directory, each tenant mapped to its controller. */
@Path("/api/tenants")
@Produces(MediaType.APPLICATION_JSON)
public class TenantResource {

    @Inject
    TenantService tenants;

    @GET
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public List<Tenant> list() throws SQLException {
        return tenants.list();
    }

    @GET
    @Path("{id}")
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public Tenant get(@PathParam("id") String id) throws SQLException {
        return tenants.get(id);
    }

    @PUT
    @Path("{id}")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed({Role.R_DPO})
    public Tenant put(@PathParam("id") String id, Tenant body, @Context SecurityContext who) throws SQLException {
        return tenants.put(who.getUserPrincipal().getName(), id, body);
    }

    @DELETE
    @Path("{id}")
    @RolesAllowed({Role.R_DPO})
    public Response delete(@PathParam("id") String id, @Context SecurityContext who) throws SQLException {
        if (!tenants.delete(who.getUserPrincipal().getName(), id)) {
            throw new ProblemException(404, "no tenant '" + id + "' in the directory");
        }
        return Response.noContent().build();
    }
}
