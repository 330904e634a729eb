package app.vigie.auditlog.rest;

import java.sql.SQLException;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import app.vigie.auditlog.QuarantineService;
import app.vigie.problem.Params;
import app.vigie.security.Role;

/**
 * {@code GET /api/quarantine}: every rejected record, newest first, paged, each with a preview of its first bytes,
 * its length and SHA-256. {@code source} filters by http, kafka, file, or apply (accepted, then found impossible in
 * its stream's state). {@code GET /api/quarantine/{id}}: one record with the bytes kept of it (at most 64 KiB).
 */
@Path("/api/quarantine")
public class QuarantineResource {
    static final int MAX_SIZE = 500;

    @Inject
    QuarantineService quarantine;

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public QuarantineService.Page list(@QueryParam("page") @DefaultValue("1") String pageParam,
            @QueryParam("size") @DefaultValue("50") String sizeParam, @QueryParam("source") String source)
            throws SQLException {
        return quarantine.page((int) Params.number("page", pageParam, 1, 1_000_000),
                (int) Params.number("size", sizeParam, 1, MAX_SIZE), source);
    }

    @GET
    @Path("{id}")
    @Produces(MediaType.APPLICATION_JSON)
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public QuarantineService.Detail one(@PathParam("id") String idParam) throws SQLException {
        return quarantine.one(Params.number("id", idParam, 1, Long.MAX_VALUE));
    }
}
