package app.vigie.retention;

import java.sql.SQLException;
import java.time.Instant;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.SecurityContext;

import app.vigie.security.Role;

/** The retention policy, what Vigie stores, and a run on demand (docs/api.md, "Retention"). */
@Path("/api/retention")
@Produces(MediaType.APPLICATION_JSON)
public class RetentionResource {
    /** What the periods rest on: said with them, since the law fixes none of them. */
    static final String BASIS = "GDPR Art. 5(1)(e) (storage limitation); no article sets these periods. For data"
            + " processed for customers they follow the customers' instructions and the contract (Art. 28(3)(a), (g)):"
            + " settings (vigie.retention.*) to agree with them and the DPO";

    @Inject
    RetentionService retention;

    /** The policy in force, as ISO-8601 durations, with its basis. */
    public record Policy(String records, String requestFacts, String quarantine, String alertBodies,
            String incidentEvidence, String every, String basis) {
    }

    public record State(Policy policy, Storage storage) {
    }

    /** {@code GET /api/retention} (admin, DPO, auditor): the policy and what is stored. */
    @GET
    @RolesAllowed({Role.R_ADMIN, Role.R_DPO, Role.R_AUDITOR})
    public State get() throws SQLException {
        RetentionConfig c = retention.config();
        return new State(new Policy(RetentionConfig.iso(c.records()), RetentionConfig.iso(c.requestFacts()),
                RetentionConfig.iso(c.quarantine()), RetentionConfig.iso(c.alertBodies()),
                RetentionConfig.iso(c.incidentEvidence()), c.every(), BASIS), retention.storage());
    }

    /** {@code POST /api/retention/run} (admin): a run now, as the schedule would; answers what it deleted. */
    @POST
    @Path("run")
    @RolesAllowed(Role.R_ADMIN)
    public RetentionService.Run run(@Context SecurityContext who) throws SQLException {
        return retention.run(Instant.now(), who.getUserPrincipal().getName());
    }
}
