package app.vigie.retention;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import io.agroal.api.AgroalDataSource;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.scheduler.Scheduled;

import app.vigie.audit.AuditTrail;
import app.vigie.auditlog.intake.InvalidRecordException;
import app.vigie.auditlog.intake.RecordParser;
import app.vigie.auditlog.store.RecordStore;
import app.vigie.auditlog.store.StoredRecord;
import app.vigie.db.Transactions;
import app.vigie.db.UnitOfWork;
import app.vigie.detection.DetectionService;

/**
 * Deletes what Vigie no longer needs, kind by kind, in small transactions (docs/operations.md, "Retention"): the
 * records of silent boots that no incident rests on, request facts, the quarantine, delivered alerts' bodies. Runs on
 * every instance; the first to take the job's lock does the work, the others skip their turn, and every row is locked
 * with {@code skip locked}, so that no row is handled twice. Each run that deleted something is one audit event.
 */
@ApplicationScoped
public class RetentionService {
    private static final Logger LOG = Logger.getLogger(RetentionService.class);
    private static final String ACTOR = "vigie:retention";

    @Inject
    AgroalDataSource dataSource;

    @Inject
    RetentionConfig config;

    @Inject
    DetectionService detection;

    @Inject
    MeterRegistry meters;

    private final RecordParser parser = new RecordParser();
    private Counter boots;
    private Counter records;
    private Counter facts;
    private Counter quarantined;
    private Counter alertBodies;

    @PostConstruct
    void meters() {
        boots = purged("boots", "(stream, boot) pairs whose records were deleted");
        records = purged("records", "audit records deleted with their boots");
        facts = purged("request_facts", "request facts deleted");
        quarantined = purged("quarantine", "rejected records deleted from the quarantine");
        alertBodies = purged("alert_bodies", "delivered alerts whose body was replaced by its SHA-256");
    }

    private Counter purged(String kind, String description) {
        return Counter.builder("vigie.retention.purged").tag("kind", kind).description(description).register(meters);
    }

    /**
     * What one run deleted: boots marked purged (their records counted), segments deleted (of those and of boots
     * marked before), request facts, rejected records, alert bodies, pre-V25 boots whose deployment was read;
     * {@code skipped} when another instance held the job and this run stopped early.
     */
    public record Run(Instant at, boolean skipped, long boots, long records, long segments, long requestFacts,
            long quarantine, long alertBodies, long deploymentsFound) {

        boolean deletedSomething() {
            return boots + segments + requestFacts + quarantine + alertBodies > 0;
        }
    }

    @Scheduled(every = "${vigie.retention.every:1h}", delayed = "1m",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void scheduled() {
        try {
            Run r = run(Instant.now(), ACTOR);
            if (r.deletedSomething()) {
                LOG.infof("Retention: deleted the records of %d boots (%d records), %d request facts, %d rejected"
                        + " records, %d alert bodies", r.boots(), r.records(), r.requestFacts(), r.quarantine(),
                        r.alertBodies());
            }
        } catch (SQLException | RuntimeException e) {
            LOG.warnf(e, "Retention: the run failed; the next one starts again where it stopped");
        }
    }

    /** The policy in force. */
    public RetentionConfig config() {
        return config;
    }

    /** Bytes on disk and rows of the largest kinds. */
    @UnitOfWork
    public Storage storage() throws SQLException {
        try (Connection c = Transactions.connection(dataSource)) {
            return RetentionStore.storage(c);
        }
    }

    /** One step of a run, in one transaction: pairs (counter index, count); the second is 0 when nothing is left. */
    @FunctionalInterface
    interface Step {
        long[] apply(Connection c) throws SQLException;
    }

    /**
     * One run at {@code now}, by {@code actor}: each kind purged in batches until nothing is left, each kind on its
     * own (one that fails is logged and the others still run). Stops early, {@code skipped}, when another instance
     * holds the job; what was deleted before that is counted.
     */
    public Run run(Instant now, String actor) throws SQLException {
        Instant recordsCutoff = now.minus(config.records());
        Instant evidenceCutoff = now.minus(config.incidentEvidence());
        Instant factsCutoff = now.minus(config.requestFacts());
        Instant quarantineCutoff = now.minus(config.quarantine());
        Instant alertCutoff = now.minus(config.alertBodies());
        int batch = config.batch();
        int rows = batch * 20;
        // added once a step's transaction committed: an attempt retried (UnitOfWork) counts once
        long[] n = new long[7];  // boots, records, segments, facts, quarantine, alert bodies, deployments found
        List<Step> steps = List.of(
                c -> new long[] {6, findDeployments(c, batch)},
                c -> {
                    List<RetentionStore.Boot> found = RetentionStore.purgeableBoots(c, recordsCutoff,
                            evidenceCutoff, batch);
                    if (!found.isEmpty()) {
                        RetentionStore.markPurged(c, found, now);
                    }
                    return new long[] {0, found.size(), 1,
                            found.stream().mapToLong(RetentionStore.Boot::records).sum()};
                },
                c -> new long[] {2, RetentionStore.deletePurgedSegments(c, batch)},
                c -> new long[] {3, RetentionStore.purgeRequestFacts(c, factsCutoff, evidenceCutoff, rows)},
                c -> new long[] {4, RetentionStore.purgeQuarantine(c, quarantineCutoff, rows)},
                c -> new long[] {5, RetentionStore.purgeAlertBodies(c, alertCutoff, now, batch)});
        boolean skipped = false;
        for (Step step : steps) {
            try {
                while (true) {
                    long[] done = step(step);
                    if (done == null) {
                        skipped = true;
                        break;
                    }
                    for (int k = 0; k + 1 < done.length; k += 2) {
                        n[(int) done[k]] += done[k + 1];
                    }
                    if (done[1] == 0) {
                        break;
                    }
                }
            } catch (SQLException | RuntimeException e) {
                LOG.warnf(e, "Retention: a step failed; the other kinds go on, the next run tries it again");
            }
            if (skipped) {
                break;
            }
        }
        Run run = new Run(now, skipped, n[0], n[1], n[2], n[3], n[4], n[5], n[6]);
        boots.increment(run.boots());
        records.increment(run.records());
        facts.increment(run.requestFacts());
        quarantined.increment(run.quarantine());
        alertBodies.increment(run.alertBodies());
        if (run.deletedSomething()) {
            audit(actor, run);
        }
        return run;
    }

    /** One batch of a step, in its transaction; null when another instance holds the job. */
    @UnitOfWork
    long[] step(Step step) throws SQLException {
        try (Connection c = Transactions.connection(dataSource)) {
            return RetentionStore.tryLock(c) ? step.apply(c) : null;
        }
    }

    /** The run's audit event, once its batches committed. */
    @UnitOfWork
    void audit(String actor, Run run) {
        AuditTrail.record(actor, "retention.purge", "retention", null, json(run));
    }

    /** Reads the deployment of boots made before V25 from their first stored record. */
    private long findDeployments(Connection c, int batch) throws SQLException {
        List<Long> ids = RetentionStore.bootsWithoutDeployment(c, batch);
        for (long id : ids) {
            StoredRecord first = RecordStore.first(c, id);
            String deployment = "";  // no record left, or none readable: no deployment's incident keeps the boot
            if (first != null) {
                try {
                    deployment = parser.parse(first.body()).deployment();
                } catch (InvalidRecordException e) {
                    LOG.warnf("Retention: the first stored record of stream_boot %d no longer parses (%s); its"
                            + " deployment is left unknown", id, e.getMessage());
                }
            }
            RetentionStore.setDeployment(c, id, deployment);
        }
        return ids.size();
    }

    /** The run and the policy it applied, for the audit event. */
    private String json(Run r) {
        return "{\"boots\":" + r.boots() + ",\"records\":" + r.records() + ",\"segments\":" + r.segments()
                + ",\"request_facts\":" + r.requestFacts() + ",\"quarantine\":" + r.quarantine()
                + ",\"alert_bodies\":" + r.alertBodies() + ",\"policy\":{\"records\":" + quoted(config.records())
                + ",\"request_facts\":" + quoted(config.requestFacts()) + ",\"quarantine\":"
                + quoted(config.quarantine()) + ",\"alert_bodies\":" + quoted(config.alertBodies())
                + ",\"incident_evidence\":" + quoted(config.incidentEvidence()) + "}}";
    }

    private static String quoted(Duration d) {
        return AuditTrail.quote(RetentionConfig.iso(d));
    }
}
