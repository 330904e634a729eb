package app.vigie.incident;

import java.sql.SQLException;
import java.util.List;
import java.util.UUID;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.SecurityContext;

import app.vigie.problem.Params;
import app.vigie.security.Role;

/** {@code /api/incidents}: incidents per deployment, their exposures, affected tenants and findings; the lifecycle. */
@Path("/api/incidents")
@Produces(MediaType.APPLICATION_JSON)
public class IncidentResource {

    @Inject
    IncidentService incidents;

    /** The body of a status change. */
    public record StatusChange(String status, String reason) {
    }

    @GET
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public List<IncidentView> list(@QueryParam("status") String status, @QueryParam("limit") String limit,
            @QueryParam("offset") String offset) throws SQLException {
        IncidentStatus s = status == null ? null : IncidentStatus.parse(status);
        if (limit == null && offset == null) {
            return incidents.list(s, null, 0);
        }
        int l = limit == null ? 100 : (int) Params.number("limit", limit, 1, 1000);
        int o = offset == null ? 0 : (int) Params.number("offset", offset, 0, Integer.MAX_VALUE);
        return incidents.list(s, l, o);
    }

    @GET
    @Path("{id}")
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public IncidentView get(@PathParam("id") String id) throws SQLException {
        return incidents.get(id);
    }

    @GET
    @Path("{id}/exposures")
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public List<ExposureView> exposures(@PathParam("id") String id) throws SQLException {
        return incidents.exposures(id);
    }

    @GET
    @Path("{id}/tenants")
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public List<TenantView> tenants(@PathParam("id") String id) throws SQLException {
        return incidents.tenants(id);
    }

    @GET
    @Path("{id}/findings")
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public List<FindingView> findings(@PathParam("id") String id) throws SQLException {
        return incidents.findings(id);
    }

    @POST
    @Path("{id}/status")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST})
    public IncidentView status(@PathParam("id") String id, StatusChange change, @Context SecurityContext who)
            throws SQLException {
        UUID uuid = IncidentIds.uuid(id);
        incidents.changeStatus(uuid, IncidentStatus.parse(change == null ? null : change.status()),
                change.reason(), who.getUserPrincipal().getName());
        return incidents.get(id);
    }
}
