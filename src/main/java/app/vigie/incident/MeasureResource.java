package app.vigie.incident;

import java.sql.SQLException;
import java.util.List;

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

import app.vigie.incident.IncidentMeasure.Measure;
import app.vigie.security.Role;

/** {@code /api/incidents/{id}/measures}: what was done about an incident, for the notices and the register. */
@Path("/api/incidents/{id}/measures")
@Produces(MediaType.APPLICATION_JSON)
public class MeasureResource {

    @Inject
    MeasureService measures;

    public record MeasureBody(String takenAt, String text) {
    }

    @GET
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public List<Measure> list(@PathParam("id") String id) throws SQLException {
        return measures.list(id);
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST})
    public Response add(@PathParam("id") String id, MeasureBody body, @Context SecurityContext who)
            throws SQLException {
        Measure m = measures.add(id, body == null ? null : body.takenAt(), body == null ? null : body.text(),
                who.getUserPrincipal().getName());
        return Response.status(201).entity(m).build();
    }
}
