package app.vigie.compliance.service;

import java.sql.SQLException;
import java.util.List;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;

import app.vigie.compliance.plan.Obligation;
import app.vigie.compliance.service.CaseService.AwarenessBody;
import app.vigie.compliance.service.CaseService.CaseView;
import app.vigie.compliance.service.CaseService.CompletionBody;
import app.vigie.compliance.service.CaseService.DecisionBody;
import app.vigie.compliance.service.CaseService.SeverityBody;
import app.vigie.security.Role;

/**
 * An incident's obligations and the facts of each case that drive them: the controller's awareness, decisions,
 * severity (ENISA's inputs and the controller's override), completions with their evidence. HTTP only: each call is
 * one use case of {@link CaseService}. See docs/obligations.md.
 */
@Path("/api/incidents/{id}")
@Produces(MediaType.APPLICATION_JSON)
public class ObligationResource {

    @Inject
    CaseService cases;

    @GET
    @Path("obligations")
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public List<Obligation> obligations(@PathParam("id") String id) throws SQLException {
        return cases.obligations(id);
    }

    @GET
    @Path("tenants/{tenant}/obligations")
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public List<Obligation> tenantObligations(@PathParam("id") String id, @PathParam("tenant") String tenant)
            throws SQLException {
        return cases.tenantObligations(id, tenant);
    }

    @GET
    @Path("tenants/{tenant}/case")
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public CaseView tenantCase(@PathParam("id") String id, @PathParam("tenant") String tenant) throws SQLException {
        return cases.tenantCase(id, tenant);
    }

    @GET
    @Path("case")
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public CaseView providerCase(@PathParam("id") String id) throws SQLException {
        return cases.providerCase(id);
    }

    @PUT
    @Path("tenants/{tenant}/awareness")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST})
    public CaseView awareness(@PathParam("id") String id, @PathParam("tenant") String tenant, AwarenessBody body,
            @Context SecurityContext who) throws SQLException {
        return cases.setAwareness(id, tenant, body, actor(who));
    }

    @PUT
    @Path("tenants/{tenant}/decisions/{decision}")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST})
    public CaseView tenantDecision(@PathParam("id") String id, @PathParam("tenant") String tenant,
            @PathParam("decision") String decision, DecisionBody body, @Context SecurityContext who)
            throws SQLException {
        return cases.decide(id, tenant, decision, body, actor(who));
    }

    @PUT
    @Path("decisions/{decision}")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST})
    public CaseView providerDecision(@PathParam("id") String id, @PathParam("decision") String decision,
            DecisionBody body, @Context SecurityContext who) throws SQLException {
        return cases.decide(id, null, decision, body, actor(who));
    }

    @PUT
    @Path("tenants/{tenant}/severity")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST})
    public CaseView severity(@PathParam("id") String id, @PathParam("tenant") String tenant, SeverityBody body,
            @Context SecurityContext who) throws SQLException {
        return cases.assessSeverity(id, tenant, body, actor(who));
    }

    @POST
    @Path("tenants/{tenant}/obligations/{rule}/{recipient}/completions")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST})
    public Response tenantCompletion(@PathParam("id") String id, @PathParam("tenant") String tenant,
            @PathParam("rule") String rule, @PathParam("recipient") String recipient, CompletionBody body,
            @Context SecurityContext who) throws SQLException {
        return created(cases.complete(id, tenant, rule, recipient, body, actor(who)));
    }

    @POST
    @Path("obligations/{rule}/{recipient}/completions")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST})
    public Response providerCompletion(@PathParam("id") String id, @PathParam("rule") String rule,
            @PathParam("recipient") String recipient, CompletionBody body, @Context SecurityContext who)
            throws SQLException {
        return created(cases.complete(id, null, rule, recipient, body, actor(who)));
    }

    @GET
    @Path("escalations")
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public List<Escalation.Row> escalations(@PathParam("id") String id) throws SQLException {
        return cases.escalations(id);
    }

    private static Response created(Obligation done) {
        return Response.status(201).entity(done).build();
    }

    private static String actor(SecurityContext who) {
        return who.getUserPrincipal().getName();
    }
}
