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
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.core.UriInfo;

import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

import app.vigie.detection.EvidenceCheck;
import app.vigie.detection.store.CounterStore;
import app.vigie.platform.Keyset;
import app.vigie.problem.Params;
import app.vigie.problem.ProblemException;
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

    /**
     * The incidents, newest first: all of them; a page by keyset ({@code after}, {@code limit}); or a page by
     * {@code offset}. A page that is not the last carries {@code Link: <…>; rel="next"}.
     */
    @APIResponse(responseCode = "200", description = Keyset.PAGE_DESCRIPTION, content = @Content(mediaType =
            MediaType.APPLICATION_JSON, schema = @Schema(type = SchemaType.ARRAY, implementation = IncidentView.class)),
            headers = @Header(name = "Link", description = Keyset.LINK_DESCRIPTION))
    @GET
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public Response list(@QueryParam("status") String status, @QueryParam("limit") String limit,
            @QueryParam("offset") String offset, @QueryParam("after") String after, @Context UriInfo uri)
            throws SQLException {
        IncidentStatus s = status == null ? null : IncidentStatus.parse(status);
        if (offset != null) {
            if (after != null) {
                throw new ProblemException(400, "query parameters 'after' and 'offset' cannot be combined: 'after'"
                        + " pages by the last incident seen, 'offset' by position");
            }
            int l = Keyset.limit(limit);
            int o = (int) Params.number("offset", offset, 0, Integer.MAX_VALUE - Keyset.MAX_LIMIT - 1);
            return Keyset.byOffset(incidents.list(s, l + 1, o), l, o, uri);
        }
        Keyset page = Keyset.of(after, limit);
        if (page == null) {
            return Response.ok(incidents.list(s, null, 0)).build();
        }
        UUID from = page.after() == null ? null : cursor(page.after());
        List<IncidentView> rows = incidents.listAfter(s, from, page.fetch())
                .orElseThrow(() -> Keyset.badCursor(page.after()));
        return page.answer(rows, v -> v.id().toString(), uri);
    }

    private static UUID cursor(String after) {
        try {
            return UUID.fromString(after);
        } catch (IllegalArgumentException e) {
            throw Keyset.badCursor(after);
        }
    }

    /**
     * {@code POST /api/incidents/counters/recount} (admin): the counters the list reads brought back to what the rows
     * say; answers what was corrected. Writers wait while it runs.
     */
    @POST
    @Path("counters/recount")
    @RolesAllowed(Role.R_ADMIN)
    public CounterStore.Recount recount(@Context SecurityContext who) throws SQLException {
        return incidents.recountCounters(who.getUserPrincipal().getName());
    }

    @GET
    @Path("{id}")
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public IncidentView get(@PathParam("id") String id) throws SQLException {
        return incidents.get(id);
    }

    /**
     * {@code GET /api/incidents/{id}/evidence-check}: the records the incident rests on replayed through a fresh
     * detector; says which stored finding or exposure they do not give again (none, while its evidence is kept).
     */
    @GET
    @Path("{id}/evidence-check")
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public EvidenceCheck.Result checkEvidence(@PathParam("id") String id) throws SQLException {
        return incidents.checkEvidence(id);
    }

    /**
     * A page of the incident's exposures (docs/api.md, "Paging"): the first {@value Keyset#DEFAULT_LIMIT} when no
     * {@code limit} is given, never the whole list in one answer; the Link rel="next" leads on.
     */
    @APIResponse(responseCode = "200", description = Keyset.PAGE_DESCRIPTION, content = @Content(mediaType =
            MediaType.APPLICATION_JSON, schema = @Schema(type = SchemaType.ARRAY, implementation = ExposureView.class)),
            headers = @Header(name = "Link", description = Keyset.LINK_DESCRIPTION))
    @GET
    @Path("{id}/exposures")
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public Response exposures(@PathParam("id") String id, @QueryParam("after") String after,
            @QueryParam("limit") String limit, @Context UriInfo uri) throws SQLException {
        Keyset page = Keyset.page(after, limit);
        String[] pair = page.after() == null ? new String[2] : Keyset.keys(page.after(), 2);
        return page.answer(incidents.exposures(id, pair[0], pair[1], page.fetch()),
                e -> Keyset.cursor(e.readerRequest(), e.victimRequest()), uri);
    }

    @GET
    @Path("{id}/tenants")
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public List<TenantView> tenants(@PathParam("id") String id) throws SQLException {
        return incidents.tenantsWithPossible(id);
    }

    /** A page of the incident's findings, as {@link #exposures}: the first when no {@code limit} is given. */
    @APIResponse(responseCode = "200", description = Keyset.PAGE_DESCRIPTION, content = @Content(mediaType =
            MediaType.APPLICATION_JSON, schema = @Schema(type = SchemaType.ARRAY, implementation = FindingView.class)),
            headers = @Header(name = "Link", description = Keyset.LINK_DESCRIPTION))
    @GET
    @Path("{id}/findings")
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public Response findings(@PathParam("id") String id, @QueryParam("after") String after,
            @QueryParam("limit") String limit, @Context UriInfo uri) throws SQLException {
        Keyset page = Keyset.page(after, limit);
        long from = page.after() == null ? 0 : Keyset.id(page.after());
        return page.answer(incidents.findings(id, from, page.fetch()), f -> Long.toString(f.id()), uri);
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
