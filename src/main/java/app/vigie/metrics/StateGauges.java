package app.vigie.metrics;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import io.agroal.api.AgroalDataSource;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;
import io.quarkus.scheduler.Scheduled;

import app.vigie.db.Transactions;
import app.vigie.db.UnitOfWork;
import app.vigie.incident.IncidentStatus;

/**
 * Gauges of what the database holds (docs/operations.md, "Metrics"): incidents by status, exposures, leaked responses
 * of running incidents, records held behind gaps, the quarantine, and the obligations and alerts the last reminder
 * check counted ({@code overview_summary}). Read every {@code vigie.metrics.refresh-every} (15 s) by one query, so
 * that a scrape reads memory, never the database: every instance shows the same values, as they are the whole
 * service's, not the instance's (aggregate them with max, not sum).
 */
@Startup
@ApplicationScoped
public class StateGauges {
    private static final Logger LOG = Logger.getLogger(StateGauges.class);

    @Inject
    AgroalDataSource dataSource;

    @Inject
    MeterRegistry meters;

    @Inject
    Clock clock;

    private final Map<String, Double> values = new ConcurrentHashMap<>();

    @PostConstruct
    void register() {
        for (IncidentStatus s : IncidentStatus.values()) {
            gauge("vigie.incidents", "Incidents by status", "status", s.name());
        }
        gauge("vigie.exposures", "Exposures (one per reader and victim request) of every incident", null, null);
        gauge("vigie.leaked.responses", "Responses that carried another tenant's tokens and were delivered, of"
                + " running incidents", null, null);
        gauge("vigie.intake.held", "Records stored but held back behind a missing seq", null, null);
        gauge("vigie.quarantine.records", "Rejected records kept with their reason", null, null);
        gauge("vigie.obligations.due.soon", "Open obligations of running incidents due within 24 hours (as of the"
                + " last reminder check)", null, null);
        gauge("vigie.obligations.overdue", "Open obligations of running incidents past their period (as of the last"
                + " reminder check)", null, null);
        gauge("vigie.alerts.undelivered", "Customer alerts of running incidents that no channel has delivered",
                null, null);
        gauge("vigie.alerts.unacknowledged", "Delivered customer alerts not acknowledged", null, null);
        gauge("vigie.obligations.checked.age", "Seconds since the reminder check last counted the obligations",
                null, null);
    }

    private void gauge(String name, String description, String tag, String value) {
        String key = StateQueries.key(name, value);
        Gauge.Builder<Map<String, Double>> b = Gauge.builder(name, values, m -> m.getOrDefault(key, Double.NaN))
                .description(description).strongReference(true);
        if (tag != null) {
            b.tag(tag, value.toLowerCase(Locale.ROOT));
        }
        b.register(meters);
    }

    /** Reads the values again; a failure leaves the last ones and is logged (the next period tries again). */
    @Scheduled(every = "${vigie.metrics.refresh-every:15s}", delayed = "2s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    public void refresh() {
        try {
            read();
        } catch (SQLException | RuntimeException e) {
            LOG.warnf("Metrics: the state gauges could not be read (%s); they keep their last values", e.toString());
        }
    }

    /** The values, read in one transaction. */
    @UnitOfWork
    void read() throws SQLException {
        try (Connection c = Transactions.connection(dataSource)) {
            values.putAll(StateQueries.read(c, clock.instant()));
        }
    }
}
