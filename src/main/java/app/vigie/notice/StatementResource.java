package app.vigie.notice;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.UUID;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.SecurityContext;

import io.agroal.api.AgroalDataSource;

import app.vigie.audit.AuditTrail;
import app.vigie.db.Transactions;
import app.vigie.incident.IncidentIds;
import app.vigie.incident.IncidentQueries;
import app.vigie.incident.IncidentView;
import app.vigie.problem.ProblemException;
import app.vigie.security.Role;

/**
 * {@code /api/incidents/{id}/tenants/{tenant}/statements}: what the controller states of its case (data and persons
 * concerned, consequences, its measures, the information of the persons, its reasons for a delay), for its
 * notification and its communication to the persons. Replaced whole; audited.
 */
@Path("/api/incidents/{id}/tenants/{tenant}/statements")
@Produces(MediaType.APPLICATION_JSON)
public class StatementResource {

    @Inject
    AgroalDataSource dataSource;

    @Inject
    NoticeService notices;

    @Inject
    Clock clock;

    @GET
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR})
    public Statements get(@PathParam("id") String id, @PathParam("tenant") String tenant) throws SQLException {
        UUID uuid = IncidentIds.uuid(id);
        return Transactions.run(dataSource, c -> {
            affected(c, uuid, id, tenant);
            return notices.statements(c, uuid, tenant);
        });
    }

    @PUT
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST})
    public Statements put(@PathParam("id") String id, @PathParam("tenant") String tenant, Statements body,
            @Context SecurityContext who) throws SQLException {
        return record(id, tenant, body, who.getUserPrincipal().getName());
    }

    /** Records a controller's statements, checked, for a caller that checked who may (the API above, a portal). */
    public Statements record(String id, String tenant, Statements body, String actor) throws SQLException {
        if (body == null) {
            throw new ProblemException(400, "a body of statements is required (see docs/documents.md)");
        }
        var problems = body.problems();
        if (!problems.isEmpty()) {
            throw new ProblemException(400, String.join("; ", problems));
        }
        Statements s = body.normalized();
        UUID uuid = IncidentIds.uuid(id);
        Instant now = clock.instant();
        return Transactions.run(dataSource, c -> {
            affected(c, uuid, id, tenant);
            Statements before = notices.statements(c, uuid, tenant);
            String json = notices.json(s);
            DocumentStore.setStatements(c, uuid, tenant, json, actor, now);
            AuditTrail.record(c, actor, "case.statements", "incident:" + uuid + "/tenant:" + tenant,
                    before == Statements.NONE ? null : notices.json(before), json);
            return s;
        });
    }

    static IncidentView affected(Connection c, UUID uuid, String id, String tenant) throws SQLException {
        return IncidentIds.affected(IncidentQueries.get(c, uuid).orElseThrow(() -> IncidentIds.notFound(id)), tenant);
    }
}
