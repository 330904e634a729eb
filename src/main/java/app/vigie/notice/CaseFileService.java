package app.vigie.notice;

import java.sql.SQLException;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.agroal.api.AgroalDataSource;

import app.vigie.compliance.service.ObligationService;
import app.vigie.db.Transactions;
import app.vigie.incident.ExposureView;
import app.vigie.incident.FindingView;
import app.vigie.incident.IncidentMeasure;
import app.vigie.incident.IncidentQueries;
import app.vigie.incident.IncidentView;
import app.vigie.incident.TenantView;

/**
 * What the dashboard's incident page and a customer's portal page show of an incident, each read in one transaction,
 * so that the facts, the plan and the documents' data on one page are of one moment.
 */
@ApplicationScoped
public class CaseFileService {

    @Inject
    AgroalDataSource dataSource;

    @Inject
    ObligationService obligations;

    @Inject
    NoticeService notices;

    /** An incident's file: its facts, exposures, tenants, plan, findings, measures and timeline. */
    public record IncidentFile(IncidentView incident, List<ExposureView> exposures, List<TenantView> tenants,
            ObligationService.Plan plan, List<FindingView> findings, List<IncidentMeasure.Measure> measures,
            List<IncidentReport.Event> timeline) {
    }

    /** A controller's file on its portal: the processor's alert to it, its statements, its severity. */
    public record ControllerFile(ProcessorAlert alert, Statements statements,
            ObligationService.SeverityView severity) {
    }

    /** The incident's file at {@code now}, its times in {@code zone}; empty when there is no such incident. */
    public Optional<IncidentFile> incident(UUID id, Instant now, ZoneId zone, Locale locale) throws SQLException {
        return Transactions.run(dataSource, c -> {
            Optional<IncidentView> found = IncidentQueries.get(c, id);
            if (found.isEmpty()) {
                return Optional.empty();
            }
            IncidentView i = found.get();
            List<ExposureView> exposures = IncidentQueries.exposures(c, id);
            return Optional.of(new IncidentFile(i, exposures, IncidentQueries.tenants(c, exposures),
                    obligations.plan(c, id, now, false).orElseThrow(), IncidentQueries.findings(c, id),
                    IncidentMeasure.of(id), Timeline.of(c, i, zone, locale)));
        });
    }

    /** The tenant's file of an incident touching it (the caller has checked it does), at {@code now}. */
    public ControllerFile controller(UUID id, String tenant, Instant now, ZoneId zone, Locale locale)
            throws SQLException {
        return Transactions.run(dataSource, c -> {
            ObligationService.Plan plan = obligations.plan(c, id, now, false).orElseThrow();
            return new ControllerFile(notices.processorAlert(c, IncidentQueries.get(c, id).orElseThrow(), tenant,
                    locale, zone, now, plan), notices.statements(c, id, tenant), plan.severity().get(tenant));
        });
    }
}
