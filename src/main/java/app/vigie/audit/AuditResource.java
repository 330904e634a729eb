package app.vigie.audit;

import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
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

import io.agroal.api.AgroalDataSource;

import app.vigie.db.Transactions;
import app.vigie.export.Csv;
import app.vigie.problem.Params;
import app.vigie.problem.ProblemException;
import app.vigie.security.Role;
import app.vigie.time.Zones;

/**
 * {@code /api/audit-trail}: every state change, newest first, filtered by actor, action, target prefix and time;
 * {@code export.csv} gives the same selection (up to {@value #EXPORT_MAX} events) for a spreadsheet. For the DPO
 * and auditors.
 */
@Path("/api/audit-trail")
@Produces(MediaType.APPLICATION_JSON)
public class AuditResource {
    public static final int PAGE_MAX = 1000;
    public static final int EXPORT_MAX = 100_000;

    @Inject
    AgroalDataSource dataSource;

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
            @QueryParam("before") String before, @QueryParam("limit") String limit) throws SQLException {
        AuditEvents.Filter f = filter(actor, action, target, from, to, before);
        int n = limit == null || limit.isBlank() ? 100 : (int) Params.number("limit", limit, 1, PAGE_MAX);
        List<EventView> out = new ArrayList<>();
        for (AuditEvents.Event e : Transactions.run(dataSource, c -> AuditEvents.find(c, f, n))) {
            try {
                out.add(new EventView(e.id(), e.at(), e.actor(), e.action(), e.target(),
                        e.before() == null ? null : json.readTree(e.before()),
                        e.after() == null ? null : json.readTree(e.after())));
            } catch (JsonProcessingException ex) {
                throw new IllegalStateException("audit event " + e.id() + " holds invalid JSON", ex);
            }
        }
        return out;
    }

    /** The events of a checked filter, newest first (for the dashboard's page). */
    @RolesAllowed({Role.R_DPO, Role.R_AUDITOR})
    public List<AuditEvents.Event> find(AuditEvents.Filter f, int limit) throws SQLException {
        return Transactions.run(dataSource, c -> AuditEvents.find(c, f, limit));
    }

    @GET
    @Path("export.csv")
    @Produces("text/csv")
    @RolesAllowed({Role.R_DPO, Role.R_AUDITOR})
    public Response csv(@QueryParam("actor") String actor, @QueryParam("action") String action,
            @QueryParam("target") String target, @QueryParam("from") String from, @QueryParam("to") String to,
            @QueryParam("zone") String zoneName) throws SQLException {
        AuditEvents.Filter f = filter(actor, action, target, from, to, null);
        ZoneId zone = Zones.parse(zoneName);
        DateTimeFormatter local = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss xxx").withZone(zone);
        List<AuditEvents.Event> events = Transactions.run(dataSource, c -> AuditEvents.find(c, f, EXPORT_MAX));
        StringBuilder out = new StringBuilder("id,at_utc,at_local,actor,action,target,before,after\r\n");
        for (AuditEvents.Event e : events) {
            Csv.row(out, List.of(Long.toString(e.id()), e.at().toString(), local.format(e.at()), e.actor(),
                    e.action(), e.target(), e.before() == null ? "" : e.before(), e.after() == null ? "" : e.after()));
        }
        return Response.ok(out.toString()).type("text/csv; charset=UTF-8")
                .header("Content-Disposition", "attachment; filename=\"audit-trail.csv\"").build();
    }

    /** The filters of a query, each checked: a bad one is a 400 naming it. */
    public static AuditEvents.Filter filter(String actor, String action, String target, String from, String to,
            String before) {
        Instant f = time("from", from);
        Instant t = time("to", to);
        if (f != null && t != null && !f.isBefore(t)) {
            throw new ProblemException(400, "query parameter 'from' (" + f + ") must be before 'to' (" + t + ")");
        }
        return new AuditEvents.Filter(blank(actor), blank(action), blank(target), f, t,
                before == null || before.isBlank() ? null : Params.number("before", before, 1, Long.MAX_VALUE));
    }

    private static Instant time(String name, String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        try {
            return OffsetDateTime.parse(value.strip()).toInstant();
        } catch (DateTimeParseException e) {
            throw new ProblemException(400, "query parameter '" + name + "' must be an RFC 3339 time such as "
                    + "2026-12-02T09:00:00Z, got '" + value + "'");
        }
    }

    private static String blank(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }
}
