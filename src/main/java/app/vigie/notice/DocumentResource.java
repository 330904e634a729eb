package app.vigie.notice;

import java.sql.SQLException;
import java.util.List;

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
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;

import app.vigie.security.Role;

/**
 * {@code GET /api/incidents/{id}/tenants/{tenant}/documents/{kind}.{html|pdf|json}}: an incident's documents for one
 * controller, previewed (HTML), downloaded (PDF/A-3u with its JSON inside) or as data (JSON), in French or English
 * ({@code lang}), with times in the reader's zone ({@code zone}, Europe/Paris by default).
 */
@Path("/api/incidents/{id}/tenants/{tenant}/documents")
public class DocumentResource {

    @Inject
    DocumentService documents;

    @GET
    @Path("{document}")
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public Response document(@PathParam("id") String id, @PathParam("tenant") String tenant,
            @PathParam("document") String document, @QueryParam("lang") String langParam,
            @QueryParam("zone") String zoneParam) throws SQLException {
        return Reader.answer(documents.controllerDocument(id, tenant, document, langParam, zoneParam));
    }

    /** The versions of the authority notification issued so far. */
    @GET
    @Path(NoticeService.AUTHORITY + "/versions")
    @Produces(MediaType.APPLICATION_JSON)
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public List<DocumentService.VersionView> versions(@PathParam("id") String id, @PathParam("tenant") String tenant)
            throws SQLException {
        return documents.versions(id, tenant);
    }

    /** Issues the next version of the authority notification (INITIAL, then COMPLEMENTARY) as it stands now. */
    @POST
    @Path(NoticeService.AUTHORITY + "/versions")
    @Produces(MediaType.APPLICATION_JSON)
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST})
    public Response issue(@PathParam("id") String id, @PathParam("tenant") String tenant,
            @QueryParam("lang") String langParam, @QueryParam("zone") String zoneParam,
            @Context SecurityContext who) throws SQLException {
        return Response.status(201).entity(documents.issue(id, tenant, langParam, zoneParam,
                who.getUserPrincipal().getName())).type(MediaType.APPLICATION_JSON).build();
    }

    /** An issued version, as it was issued: its JSON exactly, or rendered from it. */
    @GET
    @Path(NoticeService.AUTHORITY + "/versions/{file}")
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public Response version(@PathParam("id") String id, @PathParam("tenant") String tenant,
            @PathParam("file") String file) throws SQLException {
        return Reader.answer(documents.version(id, tenant, file));
    }
}
