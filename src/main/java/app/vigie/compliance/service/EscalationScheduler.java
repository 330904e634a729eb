package app.vigie.compliance.service;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
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
import app.vigie.db.UnitOfWork;

/**
 * Writes the escalations every running incident's deadlines have reached, planning only the incidents whose plan may
 * have changed since the last check (V26__plan_changes.sql). Each is keyed by (obligation, step,
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

    /** How often every running incident is planned, whether or not it changed (a net under V26's triggers). */
    @Inject
    ComplianceConfig config;

    /** The most changes one check reads (the rest wait for the next). */
    static final int CHANGES_READ = 100_000;

    private volatile Instant lastFull;

    @Scheduled(every = "${vigie.compliance.escalation-check-every}", delayed = "5s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void check() {
        try {
            tick(clock.instant());
        } catch (SQLException | RuntimeException e) {
            LOG.error("Escalation check failed; it will be tried again", e);
        }
    }

    /**
     * Writes every escalation reached at {@code now} not written yet; returns how many it wrote. Plans the running
     * incidents whose plan may have changed (V26: facts changed, a step or a status change come, never planned under
     * these rules), and every running incident at this instance's first check and then every
     * {@code vigie.compliance.full-check-every}.
     */
    public int tick(Instant now) throws SQLException {
        Instant last = lastFull;
        boolean full = last == null || now.isBefore(last) || !now.isBefore(last.plus(config.fullCheckEvery()));
        int written = tick(now, full);
        if (full) {
            lastFull = now;
        }
        return written;
    }

    /** The incidents a check plans (filling {@code changes} with the changes read), read in one transaction. */
    @UnitOfWork
    List<UUID> toCheck(Instant now, boolean full, String with, Map<UUID, List<Long>> changes) throws SQLException {
        try (Connection c = Transactions.connection(dataSource)) {
            changes.putAll(DeadlineStore.changes(c, CHANGES_READ));
            Set<UUID> out = new LinkedHashSet<>(full ? CaseStore.running(c).stream().map(CaseStore.IncidentRow::id)
                    .toList() : DeadlineStore.due(c, now, with));
            out.addAll(changes.keySet());
            return List.copyOf(out);
        }
    }

    /** One batch of a check, in its transaction; the reminders written. */
    @UnitOfWork
    int checkBatch(List<UUID> batch, Instant now, Map<UUID, List<Long>> changes, String with) throws SQLException {
        try (Connection c = Transactions.connection(dataSource)) {
            return check(c, batch, now, changes, with);
        }
    }

    /** The overview's summary counted again, in a transaction of its own. */
    @UnitOfWork
    void refreshSummary(Instant now) throws SQLException {
        try (Connection c = Transactions.connection(dataSource)) {
            DeadlineStore.refresh(c, now);
        }
    }

    /**
     * {@link #tick(Instant)}, planning every running incident when {@code full}. The incidents are planned
     * {@value ObligationService#BATCH} at a time, each batch in one transaction that reads its incidents again (one
     * dismissed or closed since the list was made gets nothing), writes their reminders, saves their deadlines and
     * deletes the changes it has planned. An incident whose plan fails is logged and the others still get theirs (its
     * changes are kept for the next check); a batch that fails is logged and the next ones are still checked, and the
     * check then fails with the first error, so that it is retried and seen.
     */
    public int tick(Instant now, boolean full) throws SQLException {
        long started = System.nanoTime();
        String with = rules.plannedWith();
        Map<UUID, List<Long>> changes = new HashMap<>();
        List<UUID> incidents = toCheck(now, full, with, changes);
        int written = 0;
        SQLException sqlFailure = null;
        RuntimeException failure = null;
        for (int from = 0; from < incidents.size(); from += ObligationService.BATCH) {
            List<UUID> batch = incidents.subList(from, Math.min(incidents.size(), from + ObligationService.BATCH));
            try {
                written += checkBatch(batch, now, changes, with);
            } catch (SQLException e) {
                LOG.errorf(e, "Escalation check of %d incidents failed; the next ones are checked", batch.size());
                sqlFailure = sqlFailure == null ? e : sqlFailure;
            } catch (RuntimeException e) {
                LOG.errorf(e, "Escalation check of %d incidents failed; the next ones are checked", batch.size());
                failure = failure == null ? e : failure;
            }
        }
        try {
            refreshSummary(now);
        } catch (SQLException | RuntimeException e) {
            LOG.errorf(e, "The overview's summary could not be counted; it keeps the last one");
        }
        // bench/dashboard reads this line
        LOG.debugf("Escalation check: %d incidents planned, %d reminders written in %.1f ms",
                (Object) incidents.size(), (Object) written, (Object) ((System.nanoTime() - started) / 1e6));
        if (sqlFailure != null) {
            throw sqlFailure;
        }
        if (failure != null) {
            throw failure;
        }
        return written;
    }

    /**
     * Writes the reminders due at {@code now} of these incidents, read again here (only those still running get
     * any), saves their deadlines and when to look again, and deletes their {@code changes} planned.
     */
    int check(Connection c, List<UUID> batch, Instant now, Map<UUID, List<Long>> changes, String with)
            throws SQLException {
        Map<UUID, CaseStore.IncidentRow> rows = CaseStore.incidents(c, batch);
        List<CaseStore.IncidentRow> still = batch.stream().map(rows::get)
                .filter(r -> r != null && CaseStore.running(r.status())).toList();
        Set<Escalation.Key> done = Escalation.written(batch);
        Set<UUID> failed = new HashSet<>();
        List<ObligationService.Plan> plans = service.plans(c, still, now, (incident, e) -> {
            failed.add(incident.id());
            LOG.errorf(e, "Incident %s could not be planned: its reminders wait until it can", incident.id());
        });
        int n = write(c, plans, done, now);
        DeadlineStore.save(c, plans, now, p -> checkAt(p, now), with);  // what the overview counts and filters on
        DeadlineStore.planned(c, batch.stream().filter(id -> !failed.contains(id))
                .flatMap(id -> changes.getOrDefault(id, List.of()).stream()).toList());
        return n;
    }

    /**
     * When the check must plan an incident again if none of its facts changes: the next step of one of its open
     * obligations, or the instant past which time alone changes its plan, whichever comes first (null: neither).
     */
    Instant checkAt(ObligationService.Plan plan, Instant now) {
        Instant at = plan.changesAfter();
        for (Obligation o : plan.obligations()) {
            Instant next = rules.escalations().next(o, now);
            if (next != null && (at == null || next.isBefore(at))) {
                at = next;
            }
        }
        return at;
    }

    /**
     * The ids written, as runs {@code [[first, last], ...]}: one run when no other instance wrote meanwhile, and
     * exactly this batch's rows when one did (their ids then interleave).
     */
    static String runs(Collection<Long> ids) {
        long[] sorted = ids.stream().mapToLong(Long::longValue).sorted().toArray();
        StringBuilder out = new StringBuilder("[");
        for (int i = 0; i < sorted.length; i++) {
            int j = i;
            while (j + 1 < sorted.length && sorted[j + 1] == sorted[j] + 1) {
                j++;
            }
            out.append(out.length() > 1 ? "," : "").append('[').append(sorted[i]).append(',').append(sorted[j])
                    .append(']');
            i = j;
        }
        return out.append(']').toString();
    }

    /** How many reminders of a batch are logged one by one; the others are counted in one line. */
    static final int LOGGED = 10;

    /** An obligation's reminder to send at this check, and the earlier steps of its deadline recorded as skipped. */
    private record Due(Obligation o, Escalation.Key latest, List<Escalation.Key> skipped) {
    }

    /**
     * Writes each obligation's steps reached and not written yet, by one statement for the batch, and one audit event
     * for the batch with its counts and the ids written, as runs (each reminder's row is its record: who, which
     * step, when).
     * When several steps of a deadline are reached (the service was down across them, or an incident is first planned
     * late in its clock), only the latest is sent; the earlier ones are recorded as skipped. The first
     * {@value #LOGGED} reminders are logged one by one, the others counted in one line.
     */
    private int write(Connection c, List<ObligationService.Plan> plans, Set<Escalation.Key> done, Instant now)
            throws SQLException {
        List<Due> dues = new ArrayList<>();
        List<EscalationStore.Pending> rows = new ArrayList<>();
        for (ObligationService.Plan plan : plans) {
            UUID id = plan.incident().id();
            for (Obligation o : plan.obligations()) {
                List<Escalations.Step> missing = rules.escalations().reached(o, now).stream()
                        .filter(s -> !done.contains(Escalation.Key.of(id, o, s.name(), s.dueAt()))).toList();
                if (missing.isEmpty()) {
                    continue;
                }
                Escalations.Step latest = missing.stream().max(Comparator.comparing(Escalations.Step::fireAt))
                        .orElseThrow();
                Escalation.Key latestKey = null;
                List<Escalation.Key> skipped = new ArrayList<>();
                for (Escalations.Step s : missing) {
                    Escalation.Key key = Escalation.Key.of(id, o, s.name(), s.dueAt());
                    rows.add(new EscalationStore.Pending(key, s.fireAt(), o.status().name(), s != latest));
                    if (s == latest) {
                        latestKey = key;
                    } else {
                        skipped.add(key);
                    }
                }
                dues.add(new Due(o, latestKey, skipped));
            }
        }
        Map<Escalation.Key, Long> written = EscalationStore.insert(c, rows, now);
        if (written.isEmpty()) {
            return 0;
        }
        int sent = 0;
        Set<UUID> incidents = new HashSet<>();
        for (Due d : dues) {
            if (!written.containsKey(d.latest())) {
                continue;   // another instance wrote it meanwhile, and sent it
            }
            sent++;
            incidents.add(d.latest().incident());
            if (sent <= LOGGED) {
                List<String> skipped = d.skipped().stream().filter(written::containsKey).map(Escalation.Key::step)
                        .toList();
                Obligation o = d.o();
                LOG.warnf("Escalation %s: %s toward %s (%s) is due %s, %s%s", d.latest().step(), o.rule(),
                        o.recipient(), o.tenant() == null ? "the provider" : "tenant " + o.tenant(),
                        d.latest().dueAt(), o.status(), skipped.isEmpty() ? "" : " (" + String.join(", ", skipped)
                                + " passed unsent: no check ran)");
            }
        }
        long first = written.values().stream().mapToLong(Long::longValue).min().orElseThrow();
        long last = written.values().stream().mapToLong(Long::longValue).max().orElseThrow();
        if (sent > LOGGED) {
            LOG.warnf("Escalation: %d more reminders written (ids %d to %d: GET /api/escalations?after=%d)",
                    sent - LOGGED, first, last, first - 1);
        }
        AuditTrail.record("system", "obligation.escalations", "escalations:" + first + "-" + last, null,
                "{\"sent\":" + sent + ",\"skipped\":" + (written.size() - sent) + ",\"incidents\":"
                        + incidents.size() + ",\"first_id\":" + first + ",\"last_id\":" + last + ",\"ids\":"
                        + runs(written.values()) + ",\"at\":\"" + now + "\"}");
        return sent;
    }
}
