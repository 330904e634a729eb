package app.vigie.incident;

import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
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
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;

import io.agroal.api.AgroalDataSource;

import app.vigie.audit.AuditTrail;
import app.vigie.db.Transactions;
import app.vigie.problem.ProblemException;
import app.vigie.security.Role;

/** {@code /api/incidents/{id}/measures}: what was done about an incident, for the notices and the register. */
@Path("/api/incidents/{id}/measures")
@Produces(MediaType.APPLICATION_JSON)
public class MeasureResource {
    private static final int TEXT_MAX = 4000;

    @Inject
    AgroalDataSource dataSource;

    @Inject
    Clock clock;

    public record MeasureBody(String takenAt, String text) {
    }

    @GET
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public List<Measures.Measure> list(@PathParam("id") String id) throws SQLException {
        UUID uuid = IncidentIds.uuid(id);
        return Transactions.run(dataSource, c -> {
            if (!IncidentQueries.exists(c, uuid)) {
                throw IncidentIds.notFound(id);
            }
            return Measures.of(c, uuid);
        });
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST})
    public Response add(@PathParam("id") String id, MeasureBody body, @Context SecurityContext who)
            throws SQLException {
        UUID uuid = IncidentIds.uuid(id);
        String text = body == null || body.text() == null ? "" : body.text().strip();
        if (text.isEmpty() || text.length() > TEXT_MAX) {
            throw new ProblemException(400, "field 'text' is required, at most " + TEXT_MAX + " characters: the "
                    + "measure as the notices will state it");
        }
        Instant now = clock.instant();
        Instant takenAt = now;
        if (body.takenAt() != null && !body.takenAt().isBlank()) {
            try {
                takenAt = OffsetDateTime.parse(body.takenAt().strip()).toInstant();
            } catch (DateTimeParseException e) {
                throw new ProblemException(400, "field 'taken_at' must be an RFC 3339 time with its offset, got '"
                        + body.takenAt() + "'");
            }
            if (takenAt.isAfter(now.plus(Duration.ofMinutes(5)))) {
                throw new ProblemException(400, "field 'taken_at' is in the future: " + takenAt);
            }
        }
        String actor = who.getUserPrincipal().getName();
        Instant at = takenAt;
        Measures.Measure m = Transactions.run(dataSource, c -> {
            if (!IncidentQueries.exists(c, uuid)) {
                throw IncidentIds.notFound(id);
            }
            Measures.Measure added = Measures.add(c, uuid, at, text, actor, now);
            AuditTrail.record(c, actor, "incident.measure", "incident:" + uuid, null, "{\"taken_at\":\"" + at
                    + "\",\"text\":" + AuditTrail.quote(text) + "}");
            return added;
        });
        return Response.status(201).entity(m).build();
    }
}
