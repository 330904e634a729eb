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

    /** What one run deleted; {@code skipped} when another instance held the job. */
    public record Run(Instant at, boolean skipped, long boots, long records, long segments, long requestFacts,
            long quarantine, long alertBodies, long deploymentsFound) {

        boolean deletedSomething() {
            return boots + requestFacts + quarantine + alertBodies > 0;
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
    public Storage storage() throws SQLException {
        return Transactions.run(dataSource, RetentionStore::storage);
    }

    /**
     * One run at {@code now}, by {@code actor}: every kind purged in batches until nothing is left; stops at once,
     * {@code skipped}, when another instance holds the job.
     */
    public Run run(Instant now, String actor) throws SQLException {
        Instant recordsCutoff = now.minus(config.records());
        Instant evidenceCutoff = now.minus(config.incidentEvidence());
        Instant factsCutoff = now.minus(config.requestFacts());
        Instant quarantineCutoff = now.minus(config.quarantine());
        Instant alertCutoff = now.minus(config.alertBodies());
        int batch = config.batch();
        long[] n = new long[7];  // boots, records, segments, facts, quarantine, alert bodies, deployments found
        boolean skipped = false;
        loop:
        for (int kind = 0; kind < 5; kind++) {
            while (true) {
                final int k = kind;
                Integer done = Transactions.run(dataSource, c -> {
                    if (!RetentionStore.tryLock(c)) {
                        return null;
                    }
                    return switch (k) {
                        case 0 -> findDeployments(c, batch, n);
                        case 1 -> {
                            List<RetentionStore.Boot> found = RetentionStore.purgeableBoots(c, recordsCutoff,
                                    evidenceCutoff, batch);
                            if (!found.isEmpty()) {
                                n[2] += RetentionStore.purgeBoots(c, found, now);
                                n[0] += found.size();
                                n[1] += found.stream().mapToLong(RetentionStore.Boot::records).sum();
                                found.forEach(b -> detection.forget(b.stream(), b.boot()));
                            }
                            yield found.size();
                        }
                        case 2 -> add(n, 3, RetentionStore.purgeRequestFacts(c, factsCutoff, evidenceCutoff,
                                batch * 20));
                        case 3 -> add(n, 4, RetentionStore.purgeQuarantine(c, quarantineCutoff, batch * 20));
                        default -> add(n, 5, RetentionStore.purgeAlertBodies(c, alertCutoff, now, batch));
                    };
                });
                if (done == null) {
                    skipped = true;
                    break loop;
                }
                if (done == 0) {
                    break;
                }
            }
        }
        Run run = new Run(now, skipped, n[0], n[1], n[2], n[3], n[4], n[5], n[6]);
        boots.increment(run.boots());
        records.increment(run.records());
        facts.increment(run.requestFacts());
        quarantined.increment(run.quarantine());
        alertBodies.increment(run.alertBodies());
        if (run.deletedSomething()) {
            Transactions.run(dataSource, c -> {
                AuditTrail.record(actor, "retention.purge", "retention", null, json(run));
                return null;
            });
        }
        return run;
    }

    private static int add(long[] n, int i, int count) {
        n[i] += count;
        return count;
    }

    /** Reads the deployment of boots made before V25 from their first stored record. */
    private int findDeployments(Connection c, int batch, long[] n) throws SQLException {
        List<Long> ids = RetentionStore.bootsWithoutDeployment(c, batch);
        for (long id : ids) {
            StoredRecord first = RecordStore.first(c, id);
            String deployment = "";  // no record left: nothing to keep for a deployment
            if (first != null) {
                try {
                    deployment = parser.parse(first.body()).deployment();
                } catch (InvalidRecordException e) {
                    throw new IllegalStateException("a stored record no longer parses: " + e.getMessage(), e);
                }
            }
            RetentionStore.setDeployment(c, id, deployment);
            n[6]++;
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
