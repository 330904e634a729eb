package app.vigie.incident;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
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

import io.agroal.api.AgroalDataSource;

import app.vigie.db.Transactions;
import app.vigie.problem.Params;
import app.vigie.problem.ProblemException;
import app.vigie.security.Role;

/** {@code /api/incidents}: incidents per deployment, their exposures, affected tenants and findings; the lifecycle. */
@Path("/api/incidents")
@Produces(MediaType.APPLICATION_JSON)
public class IncidentResource {

    @Inject
    IncidentService incidents;

    @Inject
    AgroalDataSource dataSource;

    /** The body of a status change. */
    public record StatusChange(String status, String reason) {
    }

    @GET
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public List<IncidentView> list(@QueryParam("status") String status, @QueryParam("limit") String limit,
            @QueryParam("offset") String offset) throws SQLException {
        String s = status == null ? null : parseStatus(status).name();
        if (limit == null && offset == null) {
            return Transactions.run(dataSource, c -> IncidentQueries.list(c, s));
        }
        int l = limit == null ? 100 : (int) Params.number("limit", limit, 1, 1000);
        int o = offset == null ? 0 : (int) Params.number("offset", offset, 0, Integer.MAX_VALUE);
        return Transactions.run(dataSource, c -> IncidentQueries.list(c, s, l, o));
    }

    @GET
    @Path("{id}")
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public IncidentView get(@PathParam("id") String id) throws SQLException {
        UUID uuid = IncidentIds.uuid(id);
        return Transactions.run(dataSource, c -> IncidentQueries.get(c, uuid))
                .orElseThrow(() -> IncidentIds.notFound(id));
    }

    @GET
    @Path("{id}/exposures")
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public List<ExposureView> exposures(@PathParam("id") String id) throws SQLException {
        return ofIncident(id, IncidentQueries::exposures);
    }

    @GET
    @Path("{id}/tenants")
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public List<TenantView> tenants(@PathParam("id") String id) throws SQLException {
        return ofIncident(id, (c, uuid) -> IncidentQueries.tenants(c, IncidentQueries.exposures(c, uuid)));
    }

    @GET
    @Path("{id}/findings")
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public List<FindingView> findings(@PathParam("id") String id) throws SQLException {
        return ofIncident(id, IncidentQueries::findings);
    }

    @POST
    @Path("{id}/status")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST})
    public IncidentView status(@PathParam("id") String id, StatusChange change, @Context SecurityContext who)
            throws SQLException {
        UUID uuid = IncidentIds.uuid(id);
        if (change == null || change.status() == null) {
            throw new ProblemException(400, "field 'status' is required: TRIAGED, CONFIRMED, DISMISSED or CLOSED");
        }
        incidents.changeStatus(uuid, parseStatus(change.status()), change.reason(),
                who.getUserPrincipal().getName());
        return get(id);
    }

    /** A read of one incident's details. */
    @FunctionalInterface
    interface IncidentRead<T> {
        T read(Connection c, UUID id) throws SQLException;
    }

    /** Runs a read of an existing incident; 404 when there is no such incident. */
    private <T> T ofIncident(String id, IncidentRead<T> read) throws SQLException {
        UUID uuid = IncidentIds.uuid(id);
        return Transactions.run(dataSource, c -> {
            if (!IncidentQueries.exists(c, uuid)) {
                throw IncidentIds.notFound(id);
            }
            return read.read(c, uuid);
        });
    }

    private static IncidentStatus parseStatus(String s) {
        try {
            return IncidentStatus.valueOf(s.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new ProblemException(400, "unknown status '" + s + "': OPEN, TRIAGED, CONFIRMED, DISMISSED or CLOSED");
        }
    }
}
