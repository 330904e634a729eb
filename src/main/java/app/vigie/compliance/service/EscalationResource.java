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

import io.agroal.api.AgroalDataSource;

import app.vigie.db.Transactions;
import app.vigie.problem.ProblemException;
import app.vigie.security.Role;

/** {@code GET /api/escalations?after=N&limit=M}: every escalation written, oldest first, as a feed to follow. */
@Path("/api/escalations")
@Produces(MediaType.APPLICATION_JSON)
public class EscalationResource {

    @Inject
    AgroalDataSource dataSource;

    @GET
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public List<CaseStore.EscalationRow> feed(@QueryParam("after") @DefaultValue("0") long after,
            @QueryParam("limit") @DefaultValue("100") int limit) throws SQLException {
        if (after < 0 || limit < 1 || limit > 1000) {
            throw new ProblemException(400, "'after' is an escalation id (0 or more), 'limit' between 1 and 1000");
        }
        return Transactions.run(dataSource, c -> CaseStore.escalations(c, null, after, limit));
    }
}
