package app.vigie.compliance.service;

import java.sql.SQLException;
import java.util.List;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import app.vigie.problem.Params;
import app.vigie.security.Role;

/** {@code GET /api/escalations?after=N&limit=M}: every escalation written, oldest first, as a feed to follow. */
@Path("/api/escalations")
@Produces(MediaType.APPLICATION_JSON)
public class EscalationResource {

    @Inject
    CaseService cases;

    @GET
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public List<Escalation.Row> feed(@QueryParam("after") @DefaultValue("0") String after,
            @QueryParam("limit") @DefaultValue("100") String limit) throws SQLException {
        long from = Params.number("after", after, 0, Long.MAX_VALUE);
        int max = (int) Params.number("limit", limit, 1, 1000);
        return cases.escalations(from, max);
    }
}
