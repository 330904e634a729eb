package app.vigie.notice;

import java.sql.SQLException;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Response;

import app.vigie.security.Role;

/** {@code GET /api/incidents/{id}/documents/incident-report.{html|pdf|json}}: the provider's report for a regulator. */
@Path("/api/incidents/{id}/documents")
public class IncidentDocumentResource {

    @Inject
    DocumentService documents;

    @GET
    @Path("{document}")
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public Response report(@PathParam("id") String id, @PathParam("document") String document,
            @QueryParam("lang") String langParam, @QueryParam("zone") String zoneParam) throws SQLException {
        return Reader.answer(documents.incidentReport(id, document, langParam, zoneParam));
    }
}
