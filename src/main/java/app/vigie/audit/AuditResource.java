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
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import app.vigie.export.Csv;
import app.vigie.problem.Params;
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
    public static final int PAGE_MAX = 1000;

    @Inject
    AuditService audit;

    @Inject
    ObjectMapper json;

    /** An event as the API gives it: before and after as JSON values. */
    public record EventView(long id, Instant at, String actor, String action, String target,
            JsonNode before, JsonNode after) {
    }

    @GET
    @RolesAllowed({Role.R_DPO, Role.R_AUDITOR})
    public List<EventView> list(@QueryParam("actor") String actor, @QueryParam("action") String action,
            @QueryParam("target") String target, @QueryParam("from") String from, @QueryParam("to") String to,
            @QueryParam("before") String before, @QueryParam("limit") String limit) {
        AuditFilter f = AuditFilter.parse(actor, action, target, from, to, before);
        int n = limit == null || limit.isBlank() ? 100 : (int) Params.number("limit", limit, 1, PAGE_MAX);
        List<EventView> out = new ArrayList<>();
        for (AuditEvent e : audit.find(f, n)) {
            try {
                out.add(new EventView(e.id, e.at, e.actor, e.action, e.target,
                        e.before == null ? null : json.readTree(e.before),
                        e.after == null ? null : json.readTree(e.after)));
            } catch (JsonProcessingException ex) {
                throw new IllegalStateException("audit event " + e.id + " holds invalid JSON", ex);
            }
        }
        return out;
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
