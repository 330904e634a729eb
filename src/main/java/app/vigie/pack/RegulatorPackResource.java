package app.vigie.pack;

import java.sql.SQLException;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;

import app.vigie.security.Role;

/**
 * {@code GET /api/incidents/{id}/regulator-pack.zip}: the incident's regulator pack (its report, every controller's
 * documents, the register entries, the findings and exposures as CSV and JSON, a manifest with each file's SHA-256);
 * {@code .../tenants/{tenant}/regulator-pack.zip}: one controller's. Documents in {@code lang} (fr by default), times
 * in {@code zone}.
 */
@Path("/api/incidents/{id}")
@Produces("application/zip")
public class RegulatorPackResource {

    @Inject
    RegulatorPackService packs;

    @GET
    @Path("regulator-pack.zip")
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public Response incident(@PathParam("id") String id, @QueryParam("lang") String lang,
            @QueryParam("zone") String zone, @Context SecurityContext who) throws SQLException {
        return RegulatorPackService.answer(packs.incident(id, lang, zone, who.getUserPrincipal().getName()));
    }

    @GET
    @Path("tenants/{tenant}/regulator-pack.zip")
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public Response controller(@PathParam("id") String id, @PathParam("tenant") String tenant,
            @QueryParam("lang") String lang, @QueryParam("zone") String zone, @Context SecurityContext who)
            throws SQLException {
        return RegulatorPackService.answer(packs.controller(id, tenant, lang, zone,
                who.getUserPrincipal().getName()));
    }
}
