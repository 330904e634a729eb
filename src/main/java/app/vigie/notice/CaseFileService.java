package app.vigie.notice;

import java.sql.Connection;
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
import app.vigie.db.UnitOfWork;
import app.vigie.incident.FindingView;
import app.vigie.incident.IncidentMeasure;
import app.vigie.incident.IncidentQueries;
import app.vigie.incident.IncidentView;
import app.vigie.incident.TenantView;
import app.vigie.rootcause.RootCauses;
import app.vigie.rootcause.core.HintMatcher;

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

    @Inject
    RootCauses rootCauses;

    /**
     * An incident's file: its facts, its exposures summed per pair of tenants and per leaking response, tenants,
     * plan, findings counted per rule ({@code findingsTotal} in all) and one page of them (page {@code findingsPage}
     * of {@code findingsPages}, from 1), measures and timeline, and the known causes the findings match. Nothing in it grows with the incident's exposures but
     * the leaking responses.
     */
    public record IncidentFile(IncidentView incident, List<IncidentQueries.PairTokens> pairs,
            List<IncidentQueries.Leak> leaks, List<TenantView> tenants, ObligationService.Plan plan,
            List<IncidentQueries.FindingCount> findingCounts, long findingsTotal, int findingsPage, int findingsPages,
            List<FindingView> findings, List<IncidentMeasure.Measure> measures, List<IncidentReport.Event> timeline,
            HintMatcher.Result causes) {
    }

    /** A controller's file on its portal: the processor's alert to it, its statements, its severity. */
    public record ControllerFile(ProcessorAlert alert, Statements statements,
            ObligationService.SeverityView severity) {
    }

    /**
     * The incident's file at {@code now}, its times in {@code zone}, with page {@code findingsPage} (from 1; the last
     * one when past it) of its findings, {@code perPage} a page; empty when there is no such incident.
     */
    @UnitOfWork
    public Optional<IncidentFile> incident(UUID id, Instant now, ZoneId zone, Locale locale, int findingsPage,
            int perPage) throws SQLException {
        try (Connection c = Transactions.connection(dataSource)) {
            Optional<IncidentView> found = IncidentQueries.get(c, id);
            if (found.isEmpty()) {
                return Optional.empty();
            }
            IncidentView i = found.get();
            List<IncidentQueries.FindingCount> counts = IncidentQueries.findingCounts(c, id);
            long total = counts.stream().mapToLong(IncidentQueries.FindingCount::findings).sum();
            int pages = (int) Math.max(1, (total + perPage - 1) / perPage);
            int page = Math.min(findingsPage, pages);
            // the page shows the possible exposures apart, in their own colour (spec 1.3, amendment 3)
            IncidentQueries.ExposureSums sums = IncidentQueries.exposureSums(c, id, true);
            return Optional.of(new IncidentFile(i, sums.pairs(), sums.leaks(), sums.tenants(),
                    obligations.plan(c, id, now, false).orElseThrow(), counts, total, page, pages,
                    IncidentQueries.findingsPage(c, id, (page - 1) * perPage, perPage), IncidentMeasure.of(id),
                    Timeline.of(c, i, zone, locale), rootCauses.of(c, id)));
        }
    }

    /** The tenant's file of an incident touching it (the caller has checked it does), at {@code now}. */
    @UnitOfWork
    public ControllerFile controller(UUID id, String tenant, Instant now, ZoneId zone, Locale locale)
            throws SQLException {
        try (Connection c = Transactions.connection(dataSource)) {
            ObligationService.Plan plan = obligations.plan(c, id, now, false).orElseThrow();
            return new ControllerFile(notices.processorAlert(c, IncidentQueries.get(c, id).orElseThrow(), tenant,
                    locale, zone, now, plan), notices.statements(c, id, tenant), plan.severity().get(tenant));
        }
    }
}
