package app.vigie.audit;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import app.vigie.export.Csv;
import app.vigie.platform.Keyset;
import app.vigie.problem.ProblemException;
import app.vigie.security.Role;
import app.vigie.time.Zones;

/**
 * {@code /api/audit-trail}: every state change, newest first, filtered by actor, action, target prefix and time;
 * {@code export.csv} gives the same selection (up to {@value AuditService#EXPORT_MAX} events) for a spreadsheet. For the DPO
 * and auditors.
 */
@Path("/api/audit-trail")
@Produces(MediaType.APPLICATION_JSON)
public class AuditResource {
    public static final int PAGE_MAX = Keyset.MAX_LIMIT;

    @Inject
    AuditService audit;

    @Inject
    ObjectMapper json;

    /** An event as the API gives it: before and after as JSON values. */
    public record EventView(long id, Instant at, String actor, String action, String target,
            JsonNode before, JsonNode after) {
    }

    /**
     * A page of events, newest first: from the newest, or older than {@code before} or {@code after} (the same cursor:
     * the id of the last event of the page before). A page that is not the last carries
     * {@code Link: <…>; rel="next"}.
     */
    @APIResponse(responseCode = "200", description = Keyset.PAGE_DESCRIPTION, content = @Content(mediaType =
            MediaType.APPLICATION_JSON, schema = @Schema(type = SchemaType.ARRAY, implementation = EventView.class)),
            headers = @Header(name = "Link", description = Keyset.LINK_DESCRIPTION))
    @GET
    @RolesAllowed({Role.R_DPO, Role.R_AUDITOR})
    public Response list(@QueryParam("actor") String actor, @QueryParam("action") String action,
            @QueryParam("target") String target, @QueryParam("from") String from, @QueryParam("to") String to,
            @QueryParam("before") String before, @QueryParam("after") String after,
            @QueryParam("limit") String limit, @Context UriInfo uri) {
        if (before != null && after != null) {
            throw new ProblemException(400, "query parameters 'before' and 'after' cannot be combined: both give the"
                    + " event the page starts after");
        }
        Keyset page = new Keyset(after, Keyset.limit(limit));
        String older = after == null ? before : Long.toString(Keyset.id(after.strip()));
        AuditFilter f = AuditFilter.parse(actor, action, target, from, to, older);
        List<EventView> out = new ArrayList<>();
        for (AuditEvent e : audit.find(f, page.fetch())) {
            try {
                out.add(new EventView(e.id, e.at, e.actor, e.action, e.target,
                        e.before == null ? null : json.readTree(e.before),
                        e.after == null ? null : json.readTree(e.after)));
            } catch (JsonProcessingException ex) {
                throw new IllegalStateException("audit event " + e.id + " holds invalid JSON", ex);
            }
        }
        // the next page's link says after=, whichever of before and after this one was asked with
        return page.answer(out, v -> Long.toString(v.id()),
                uri.getRequestUriBuilder().replaceQueryParam("before"));
    }

    @GET
    @Path("export.csv")
    @Produces("text/csv")
    @RolesAllowed({Role.R_DPO, Role.R_AUDITOR})
    public Response csv(@QueryParam("actor") String actor, @QueryParam("action") String action,
            @QueryParam("target") String target, @QueryParam("from") String from, @QueryParam("to") String to,
            @QueryParam("zone") String zoneName) {
        return Csv.attachment(audit.csv(AuditFilter.parse(actor, action, target, from, to, null),
                Zones.parse(zoneName)));
    }
}
