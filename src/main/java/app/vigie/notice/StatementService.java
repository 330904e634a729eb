package app.vigie.notice;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.agroal.api.AgroalDataSource;

import app.vigie.audit.AuditTrail;
import app.vigie.compliance.service.CaseService;
import app.vigie.compliance.service.ObligationService;
import app.vigie.compliance.severity.EnisaSeverity;
import app.vigie.db.Transactions;
import app.vigie.db.UnitOfWork;
import app.vigie.incident.IncidentIds;
import app.vigie.incident.IncidentQueries;
import app.vigie.problem.ProblemException;

/**
 * What a controller states of its case (data and persons concerned, consequences, its measures, the information of
 * the persons, its reasons for a delay), for its notification and its communication to the persons: read, replaced
 * whole and audited; and the portal's questionnaire, which states the data concerned and scores the severity in one
 * transaction.
 */
@ApplicationScoped
public class StatementService {

    @Inject
    AgroalDataSource dataSource;

    @Inject
    NoticeService notices;

    @Inject
    DocumentRenderer renderer;

    @Inject
    CaseService cases;

    @Inject
    ObligationService obligations;

    @Inject
    Clock clock;

    /** The answers of the portal's questionnaire, checked by the portal. */
    public record Questionnaire(List<String> dataCategories, List<String> specialCategories, Long persons,
            String dataProcessingContext, String easeOfIdentification) {
    }

    /** A tenant's statements; 404 when the incident is unknown or the tenant not affected by it. */
    @UnitOfWork
    public Statements get(String id, String tenant) throws SQLException {
        UUID uuid = IncidentIds.uuid(id);
        try (Connection c = Transactions.connection(dataSource)) {
            IncidentQueries.affected(c, uuid, id, tenant);
            return notices.statements(c, uuid, tenant);
        }
    }

    /** Replaces a controller's statements, checked, audited as done by {@code actor}. */
    @UnitOfWork
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
        try (Connection c = Transactions.connection(dataSource)) {
            IncidentQueries.affected(c, uuid, id, tenant);
            Statements before = notices.statements(c, uuid, tenant);
            String json = renderer.json(s);
            CaseStatement.record(uuid, tenant, json, actor, now);
            AuditTrail.record(actor, "case.statements", "incident:" + uuid + "/tenant:" + tenant,
                    before == Statements.NONE ? null : renderer.json(before), json);
            return s;
        }
    }

    /**
     * The questionnaire's answers, in one transaction: the data concerned and the number of persons replace those of
     * the statements (the rest kept), and ENISA's inputs are scored (the controller's override of the level kept).
     * Nothing is recorded when any part is refused.
     */
    @UnitOfWork
    public void answer(String id, String tenant, Questionnaire q, String actor) throws SQLException {
        UUID uuid = IncidentIds.uuid(id);
        // one transaction (the runs below join it), retried whole on a deadlock
        try (Connection c = Transactions.connection(dataSource)) {
            Statements before = notices.statements(c, uuid, tenant);  // record() checks the incident and tenant
            record(id, tenant, new Statements(q.dataCategories(), q.specialCategories(), before.approximateRecords(),
                    before.personCategories(), q.persons(), before.likelyConsequences(),
                    before.securityMeasuresBefore(), before.measuresProposed(), before.personsInformed(),
                    before.personsInformedAt(), before.personsNotInformedReason(), before.delayReasons(),
                    before.contactForPersons(), before.sector(), before.address(), before.discovery(),
                    before.dataUnintelligible(), before.contactName(), before.contactEmail(), before.contactPhone()),
                    actor);
            ObligationService.SeverityView sev = obligations.plan(c, uuid, clock.instant(), false).orElseThrow()
                    .severity().get(tenant);
            CaseService.OverrideBody keep = sev == null || sev.overrideLevel() == null ? null
                    : new CaseService.OverrideBody(sev.overrideLevel(), sev.overrideJustification());
            cases.assessSeverity(id, tenant, new CaseService.SeverityBody(new EnisaSeverity.Inputs(
                    q.dataProcessingContext(), 0, q.easeOfIdentification(), "known_recipients", "none", "none",
                    false), keep), actor);
        }
    }
}
