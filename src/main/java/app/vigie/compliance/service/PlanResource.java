package app.vigie.compliance.service;

import java.time.Clock;
import java.time.Instant;
import java.util.List;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import com.fasterxml.jackson.databind.JsonNode;

import app.vigie.compliance.plan.Obligation;
import app.vigie.compliance.plan.PlanRequest;
import app.vigie.problem.ProblemException;
import app.vigie.security.Role;

/**
 * {@code POST /api/obligations/plan}: the obligations compliance-rules/ give for a set of facts, nothing stored
 * (docs/obligations-plan.md). The live incident's plan is the same computation on the recorded facts.
 */
@Path("/api/obligations/plan")
public class PlanResource {

    @Inject
    ComplianceRules rules;

    @Inject
    Clock clock;

    /** The answer: which rules were used, and every obligation. */
    public record PlanAnswer(String rulesVersion, List<Obligation> obligations) {
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    @RolesAllowed({Role.R_ADMIN, Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public PlanAnswer plan(JsonNode body) {
        return answer(rules, body, clock.instant());
    }

    /** The plan of a request, for the endpoint and the command. */
    public static PlanAnswer answer(ComplianceRules rules, JsonNode body, Instant now) {
        try {
            PlanRequest request = PlanRequest.read(body, rules.provider(), rules.planner(), now);
            return new PlanAnswer("sha256:" + rules.version(), request.plan(rules.planner()));
        } catch (PlanRequest.Invalid e) {
            throw new ProblemException(400, e.getMessage());
        }
    }
}
