package app.vigie.incident;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import io.agroal.api.AgroalDataSource;

import app.vigie.audit.AuditTrail;
import app.vigie.db.Transactions;
import app.vigie.db.UnitOfWork;
import app.vigie.detection.DetectionService;
import app.vigie.detection.EvidenceCheck;
import app.vigie.detection.store.CounterStore;
import app.vigie.platform.Permits;
import app.vigie.problem.ProblemException;

/**
 * Incidents as people read and move them: lists, one incident and its exposures, affected tenants and findings; the
 * lifecycle, where one status change is one transaction with its audit event and what listeners write.
 */
@ApplicationScoped
public class IncidentService {
    /** The longest reason kept with a status. */
    static final int MAX_REASON = 4000;

    @Inject
    AgroalDataSource dataSource;

    @Inject
    DetectionService detection;

    @Inject
    @Any
    Instance<IncidentStatusListener> listeners;

    /** The incidents, newest first, of one status or all; a page of them when {@code limit} is given. */
    @UnitOfWork
    public List<IncidentView> list(IncidentStatus status, Integer limit, int offset) throws SQLException {
        String s = status == null ? null : status.name();
        try (Connection c = Transactions.connection(dataSource)) {
            return limit == null ? IncidentQueries.list(c, s) : IncidentQueries.list(c, s, limit, offset);
        }
    }

    /**
     * At most {@code limit} incidents of {@code list(status, ...)} that come after the incident {@code after} (null:
     * from the first); empty when {@code after} is no incident.
     */
    @UnitOfWork
    public Optional<List<IncidentView>> listAfter(IncidentStatus status, UUID after, int limit) throws SQLException {
        String s = status == null ? null : status.name();
        try (Connection c = Transactions.connection(dataSource)) {
            return IncidentQueries.listAfter(c, s, after, limit);
        }
    }

    /**
     * Brings the incidents' counters back to what their rows say (after a rolling upgrade to V23, or rows changed by
     * hand), audited as done by {@code actor}; returns what was corrected.
     */
    @UnitOfWork
    public CounterStore.Recount recountCounters(String actor) throws SQLException {
        CounterStore.Recount r;
        try (Connection c = Transactions.connection(dataSource)) {
            r = CounterStore.recount(c);
        }
        AuditTrail.record(actor, "incident.counters-recount", "incidents", null, "{\"leaked_responses_added\":"
                + r.leakedResponsesAdded() + ",\"recipients_marked\":" + r.recipientsMarked()
                + ",\"counters_corrected\":" + r.countersCorrected() + ",\"finding_counts_corrected\":"
                + r.findingCountsCorrected() + "}");
        return r;
    }

    /** Evidence checks run at once at most: each replays every record its incident rests on (the rest: 503). */
    static final int CHECKS_AT_ONCE = 2;
    private final Permits checks = new Permits(CHECKS_AT_ONCE, "evidence checks are running already",
            Duration.ofMinutes(1));

    /** The evidence checks' permits (a test holds them to see the next check refused). */
    Permits evidenceChecks() {
        return checks;
    }

    /**
     * The incident's kept evidence judged again (docs/operations.md, "Retention"); 404 when there is none; 503 while
     * {@value #CHECKS_AT_ONCE} checks run.
     */
    public EvidenceCheck.Result checkEvidence(String id) throws SQLException {
        UUID uuid = IncidentIds.uuid(id);
        try (Permits.Permit permit = checks.take()) {
            permit.start();
            return ofIncident(id, (c, incident) -> EvidenceCheck.check(c, incident, detection.limits()));
        }
    }

    /** The tenants of open incidents the directory does not know (their controllers are unknown). */
    @UnitOfWork
    public List<String> unmappedTenants() throws SQLException {
        try (Connection c = Transactions.connection(dataSource)) {
            return OverviewQueries.unmappedTenants(c);
        }
    }

    /** One incident; 404 when there is none. */
    public IncidentView get(String id) throws SQLException {
        return find(IncidentIds.uuid(id)).orElseThrow(() -> IncidentIds.notFound(id));
    }

    /** One incident, if there is one. */
    @UnitOfWork
    public Optional<IncidentView> find(UUID id) throws SQLException {
        try (Connection c = Transactions.connection(dataSource)) {
            return IncidentQueries.get(c, id);
        }
    }

    /** Whether the incident touches the tenant: one of its requests was read by another's, or it read another's. */
    @UnitOfWork
    public boolean touches(UUID id, String tenant) throws SQLException {
        try (Connection c = Transactions.connection(dataSource)) {
            return !IncidentQueries.touching(c, tenant, id).isEmpty();
        }
    }

    public List<ExposureView> exposures(String id) throws SQLException {
        // the possible ones among them, marked (spec 1.3, amendment 3): a regulator's pack hides none
        return ofIncident(id, (c, uuid) -> IncidentQueries.exposures(c, uuid, null, null, Integer.MAX_VALUE, true));
    }

    /** The incident's exposures whose victim or reader is {@code tenant}, read as such from the database. */
    public List<ExposureView> exposuresTouching(String id, String tenant) throws SQLException {
        return ofIncident(id, (c, uuid) -> IncidentQueries.exposuresTouching(c, uuid, tenant));
    }

    /** At most {@code limit} exposures of the incident after the pair (reader, victim) (null: from the first). */
    public List<ExposureView> exposures(String id, String afterReader, String afterVictim, int limit)
            throws SQLException {
        return ofIncident(id, (c, uuid) -> IncidentQueries.exposures(c, uuid, afterReader, afterVictim, limit, true));
    }

    /** At most {@code limit} findings of the incident after the finding {@code after} (0: from the first). */
    public List<FindingView> findings(String id, long after, int limit) throws SQLException {
        return ofIncident(id, (c, uuid) -> IncidentQueries.findings(c, uuid, after, limit));
    }

    public List<TenantView> tenants(String id) throws SQLException {
        return ofIncident(id, (c, uuid) -> IncidentQueries.tenants(c, uuid));
    }

    /** The incident's affected tenants as the API shows them: with the possible exposures' counts (api.md 1.3). */
    public List<TenantView> tenantsWithPossible(String id) throws SQLException {
        return ofIncident(id, (c, uuid) -> IncidentQueries.tenantsWithPossible(c, uuid));
    }

    public List<FindingView> findings(String id) throws SQLException {
        return ofIncident(id, IncidentQueries::findings);
    }

    /** A read of one incident's details. */
    @FunctionalInterface
    interface IncidentRead<T> {
        T read(Connection c, UUID id) throws SQLException;
    }

    /** Runs a read of an existing incident, in one transaction; 404 when there is no such incident. */
    @UnitOfWork
    <T> T ofIncident(String id, IncidentRead<T> read) throws SQLException {
        UUID uuid = IncidentIds.uuid(id);
        try (Connection c = Transactions.connection(dataSource)) {
            if (!IncidentQueries.exists(c, uuid)) {
                throw IncidentIds.notFound(id);
            }
            return read.read(c, uuid);
        }
    }

    /**
     * Moves an incident to {@code to}, audited as done by {@code actor}; 404 when there is no such incident, 409 when
     * its status cannot become {@code to}, 400 when a reason is required and missing or too long.
     */
    @UnitOfWork
    public void changeStatus(UUID incident, IncidentStatus to, String reason, String actor) throws SQLException {
        String why = reason == null ? null : reason.strip();
        if (to.needsReason() && (why == null || why.isEmpty())) {
            throw new ProblemException(400, "a reason is required to set an incident " + to);
        }
        if (why != null && why.length() > MAX_REASON) {
            throw new ProblemException(400, "field 'reason' has at most " + MAX_REASON + " characters");
        }
        List<IncidentStatusListener> told = listeners.stream().toList();
        Instant now = Instant.now();
        IncidentStatus before;
        try {
            before = Incident.changeStatus(incident, to, why, now)
                    .orElseThrow(() -> IncidentIds.notFound(incident.toString()));
        } catch (IllegalStateException e) {
            throw new ProblemException(409, e.getMessage());
        }
        AuditTrail.record(actor, "incident.status", "incident:" + incident,
                "{\"status\":\"" + before + "\"}",
                "{\"status\":\"" + to + "\",\"reason\":" + AuditTrail.quote(why) + "}");
        try (Connection c = Transactions.connection(dataSource)) {
            for (IncidentStatusListener l : told) {
                l.statusChanged(c, incident, before, to, now);
            }
        }
    }
}
