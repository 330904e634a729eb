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

import io.agroal.api.AgroalDataSource;

import app.vigie.db.Transactions;
import app.vigie.problem.ProblemException;
import app.vigie.security.Role;

/** {@code /api/tenants}: the tenant directory, each tenant mapped to its controller. */
@Path("/api/tenants")
@Produces(MediaType.APPLICATION_JSON)
public class TenantResource {

    @Inject
    AgroalDataSource dataSource;

    @Inject
    TenantService tenants;

    @GET
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public List<Tenant> list() throws SQLException {
        return Transactions.run(dataSource, TenantStore::all);
    }

    @GET
    @Path("{id}")
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public Tenant get(@PathParam("id") String id) throws SQLException {
        return Transactions.run(dataSource, c -> TenantStore.find(c, id))
                .orElseThrow(() -> new ProblemException(404, "no tenant '" + id + "' in the directory"));
    }

    @PUT
    @Path("{id}")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed({Role.R_DPO})
    public Tenant put(@PathParam("id") String id, Tenant body, @Context SecurityContext who) throws SQLException {
        if (body == null) {
            throw new ProblemException(400, "a tenant entry is required");
        }
        if (body.id() != null && !body.id().equals(id)) {
            throw new ProblemException(400, "field 'id' (" + body.id() + ") differs from the path (" + id + ")");
        }
        Tenant t = new Tenant(id, body.legalName(), body.country(), body.companyId(), body.dpo(),
                body.alertChannels() == null ? List.of() : body.alertChannels(), body.alertDelay(),
                body.jurisdictions() == null ? List.of() : body.jurisdictions(),
                body.sectors() == null ? List.of() : body.sectors(), Boolean.TRUE.equals(body.processorIsAgent()));
        List<String> problems = TenantValidator.problems(t);
        if (!problems.isEmpty()) {
            throw new ProblemException(400, String.join("; ", problems));
        }
        tenants.save(who.getUserPrincipal().getName(), t, "api");
        return get(id);
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
