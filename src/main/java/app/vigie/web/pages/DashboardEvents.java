package app.vigie.web.pages;

import java.sql.SQLException;
import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import io.agroal.api.AgroalDataSource;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.operators.multi.processors.BroadcastProcessor;

import app.vigie.db.FailureLog;
import app.vigie.db.Transactions;
import app.vigie.incident.IncidentQueries;

/**
 * Tells the open dashboards when incidents change. One check for the whole instance (not one per browser) reads a
 * fingerprint of what the overview shows (incidents, findings, exposures, audit events, reminders: counts and
 * highest ids, all from indexes) every {@code vigie.dashboard.push-check-every}; when it moves, every subscriber
 * gets an {@code incidents} event and reloads its table. The database is the source, so a change made through
 * another instance is seen too; no coordination between instances is needed.
 */
@ApplicationScoped
public class DashboardEvents {
    private static final Logger LOG = Logger.getLogger(DashboardEvents.class);
    private final FailureLog checkLog = new FailureLog(LOG, "Dashboard change check");
    static final String CHANGED = "incidents";
    static final String PING = "ping";

    @Inject
    AgroalDataSource dataSource;

    private final BroadcastProcessor<String> changes = BroadcastProcessor.create();
    private volatile String last;

    @Scheduled(every = "${vigie.dashboard.push-check-every:2s}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void check() {
        try {
            String now = Transactions.run(dataSource, IncidentQueries::changeMark);
            if (last != null && !last.equals(now)) {
                changes.onNext(CHANGED);
            }
            last = now;
            checkLog.succeeded();
        } catch (SQLException | RuntimeException e) {
            // open dashboards fall back to their periodic refresh
            checkLog.failed(e);
        }
    }

    /** {@value #CHANGED} when the incidents change, {@value #PING} every {@code keepAlive} to hold the connection. */
    public Multi<String> stream(Duration keepAlive) {
        return Multi.createBy().merging().streams(changes, Multi.createFrom().ticks().every(keepAlive)
                .map(tick -> PING));
    }
}
