package app.vigie.compliance.service;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import io.agroal.api.AgroalDataSource;
import io.quarkus.scheduler.Scheduled;

import app.vigie.audit.AuditTrail;
import app.vigie.compliance.plan.Escalations;
import app.vigie.compliance.plan.Obligation;
import app.vigie.db.Transactions;

/**
 * Writes the escalations every running incident's deadlines have reached. Each is keyed by (obligation, step,
 * deadline) in the database, so a restart writes what it missed and nothing twice, and several instances checking
 * at once write each one once.
 */
@ApplicationScoped
public class EscalationScheduler {
    private static final Logger LOG = Logger.getLogger(EscalationScheduler.class);

    @Inject
    AgroalDataSource dataSource;

    @Inject
    ObligationService service;

    @Inject
    ComplianceRules rules;

    @Inject
    Clock clock;

    @Scheduled(every = "${vigie.compliance.escalation-check-every}", delayed = "5s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void check() {
        long started = System.nanoTime();
        try {
            int written = tick(clock.instant());
            LOG.debugf("Escalation check: %d reminders written in %.1f ms", (Object) written,
                    (Object) ((System.nanoTime() - started) / 1e6));
        } catch (SQLException | RuntimeException e) {
            LOG.error("Escalation check failed; it will be tried again", e);
        }
    }

    /**
     * Writes every escalation reached at {@code now} not written yet; returns how many it wrote. The running incidents
     * are planned {@value ObligationService#BATCH} at a time, each batch in one transaction that reads its incidents
     * again (one dismissed or closed since the list was made gets nothing) and writes their reminders. An incident
     * whose plan fails is logged and the others still get theirs; a batch that fails is logged and the next ones are
     * still checked, and the check then fails with the first error, so that it is retried and seen.
     */
    public int tick(Instant now) throws SQLException {
        List<UUID> running = Transactions.run(dataSource, c -> CaseStore.running(c).stream()
                .map(CaseStore.IncidentRow::id).toList());
        int written = 0;
        SQLException sqlFailure = null;
        RuntimeException failure = null;
        for (int from = 0; from < running.size(); from += ObligationService.BATCH) {
            List<UUID> batch = running.subList(from, Math.min(running.size(), from + ObligationService.BATCH));
            try {
                written += Transactions.run(dataSource, c -> check(c, batch, now));
            } catch (SQLException e) {
                LOG.errorf(e, "Escalation check of %d incidents failed; the next ones are checked", batch.size());
                sqlFailure = sqlFailure == null ? e : sqlFailure;
            } catch (RuntimeException e) {
                LOG.errorf(e, "Escalation check of %d incidents failed; the next ones are checked", batch.size());
                failure = failure == null ? e : failure;
            }
        }
        try {
            Transactions.run(dataSource, c -> DeadlineStore.refresh(c, now));
        } catch (SQLException | RuntimeException e) {
            LOG.errorf(e, "The overview's summary could not be counted; it keeps the last one");
        }
        if (sqlFailure != null) {
            throw sqlFailure;
        }
        if (failure != null) {
            throw failure;
        }
        return written;
    }

    /** Writes the reminders due at {@code now} of these incidents, read again here: only those still running. */
    int check(Connection c, List<UUID> batch, Instant now) throws SQLException {
        Map<UUID, CaseStore.IncidentRow> rows = CaseStore.incidents(c, batch);
        List<CaseStore.IncidentRow> still = batch.stream().map(rows::get)
                .filter(r -> r != null && CaseStore.running(r.status())).toList();
        Set<Escalation.Key> done = Escalation.written(batch);
        int n = 0;
        List<ObligationService.Plan> plans = service.plans(c, still, now, (incident, e) -> LOG.errorf(e,
                "Incident %s could not be planned: its reminders wait until it can", incident.id()));
        for (ObligationService.Plan plan : plans) {
            n += write(plan, done, now);
        }
        DeadlineStore.save(c, plans, now);  // what the overview counts and filters on
        return n;
    }

    /**
     * Writes each obligation's steps reached and not written yet. When several are (the service was down across
     * them, or an incident is first planned late in its clock), only the latest is sent, that is logged and in the
     * audit trail as a reminder; the earlier ones are recorded as skipped, named in its audit event.
     */
    private int write(ObligationService.Plan plan, Set<Escalation.Key> done, Instant now) {
        UUID id = plan.incident().id();
        int n = 0;
        for (Obligation o : plan.obligations()) {
            List<Escalations.Step> missing = rules.escalations().reached(o, now).stream()
                    .filter(s -> !done.contains(Escalation.Key.of(id, o, s.name(), s.dueAt()))).toList();
            if (missing.isEmpty()) {
                continue;
            }
            Escalations.Step latest = missing.stream().max(Comparator.comparing(Escalations.Step::fireAt))
                    .orElseThrow();
            List<String> skipped = new ArrayList<>();
            for (Escalations.Step s : missing) {
                if (s != latest && Escalation.write(id, o, s.name(), s.dueAt(), s.fireAt(), now, true)) {
                    skipped.add(s.name());
                }
            }
            if (Escalation.write(id, o, latest.name(), latest.dueAt(), latest.fireAt(), now, false)) {
                n++;
                AuditTrail.record("system", "obligation.escalation", "incident:" + id + "/"
                        + (o.tenant() == null ? "provider" : "tenant:" + o.tenant()) + "/" + o.rule() + "/"
                        + o.recipient(), null, "{\"step\":\"" + latest.name() + "\",\"due_at\":\"" + latest.dueAt()
                        + "\",\"status\":\"" + o.status() + "\"" + (skipped.isEmpty() ? "" : ",\"skipped\":[\""
                        + String.join("\",\"", skipped) + "\"]") + "}");
                LOG.warnf("Escalation %s: %s toward %s (%s) is due %s, %s%s", latest.name(), o.rule(), o.recipient(),
                        o.tenant() == null ? "the provider" : "tenant " + o.tenant(), latest.dueAt(), o.status(),
                        skipped.isEmpty() ? "" : " (" + String.join(", ", skipped) + " passed unsent: no check ran)");
            }
        }
        return n;
    }
}
