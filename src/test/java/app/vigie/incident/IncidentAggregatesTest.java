package app.vigie.incident;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;

import app.vigie.compliance.plan.CaseFacts;
import app.vigie.compliance.service.CaseStore;
import app.vigie.runtime.log.AuditLogWriter;
import app.vigie.runtime.log.PageRun;
import app.vigie.testing.Api;
import app.vigie.testing.Logs;

/**
 * The sums the incident page, the documents and the API read from the database ({@link IncidentQueries#exposureSums}:
 * tenants, pairs, leaks; {@code findingCounts}, {@code findingsPage}, and one customer's exposures,
 * {@code exposuresOf}) against the same sums and selections made in Java
 * over the incident's whole list of exposures and findings ({@link ExposureModel}): on the shared examples and on
 * random logs of a shared pool with several tenants, responses delivered, contained and not finished.
 */
@QuarkusTest
class IncidentAggregatesTest {
    private static final Comparator<IncidentQueries.PairTokens> PAIRS = Comparator
            .comparing(IncidentQueries.PairTokens::victimTenant).thenComparing(IncidentQueries.PairTokens::readerTenant)
            .thenComparing(IncidentQueries.PairTokens::intra)
            .thenComparing(p -> String.valueOf(p.delivered()));

    @Inject
    AgroalDataSource dataSource;

    @Test
    void theDatabasesSumsEqualThoseOverTheWholeLists() throws Exception {
        List<String> deployments = new ArrayList<>();
        for (String example : List.of("01-benign-colocated", "02-partial-overwrite", "03-pd-rejected-prompt",
                "04-prefix-shared-same-tenant")) {
            String p = Api.uniquePrefix();
            Api.post(Api.renamed(Api.example(example + ".ndjson"), p)).then().statusCode(200);
            deployments.add(p + "/glm-5.3/prod-eu");
        }
        for (long seed = 1; seed <= 8; seed++) {
            String p = Api.uniquePrefix();
            Api.post(Logs.body(sharedPool(p, new Random(seed)))).then().statusCode(200);
            deployments.add(p + "/dep");
        }
        // one tenant reading only its own tenant's tokens: a victim, not a recipient
        String solo = Api.uniquePrefix();
        Api.leakingIncident(solo, "acme", "acme");
        deployments.add(solo + "/dep");
        int compared = 0;
        int withLeaks = 0;
        int withUnknownFate = 0;
        try (Connection c = dataSource.getConnection()) {
            for (IncidentView i : IncidentQueries.list(c, null)) {
                if (!deployments.contains(i.deployment())) {
                    continue;
                }
                UUID id = i.id();
                List<ExposureView> exposures = IncidentQueries.exposures(c, id);
                assertThat(IncidentQueries.tenants(c, id)).as(i.deployment())
                        .isEqualTo(ExposureModel.tenants(exposures));
                IncidentQueries.ExposureSums sums = IncidentQueries.exposureSums(c, id);
                assertThat(sums.pairs().stream().sorted(PAIRS).toList()).as(i.deployment())
                        .isEqualTo(ExposureModel.pairs(exposures).stream().sorted(PAIRS).toList());
                assertThat(sums.leaks()).as(i.deployment())
                        .containsExactlyInAnyOrderElementsOf(ExposureModel.leaks(exposures));
                // the plan's affected tenants, from the counts the intake keeps: victim when a request of the
                // tenant was read, recipient when one read another tenant's tokens
                Map<String, CaseFacts.Exposure> affected = new TreeMap<>();
                for (ExposureView e : exposures) {
                    affected.merge(e.victimTenant(), CaseFacts.Exposure.VICTIM, IncidentAggregatesTest::both);
                    if (!e.readerTenant().equals(e.victimTenant())) {
                        affected.merge(e.readerTenant(), CaseFacts.Exposure.RECIPIENT, IncidentAggregatesTest::both);
                    }
                }
                assertThat(CaseStore.affectedTenants(c, id)).as(i.deployment()).containsExactlyEntriesOf(affected);
                for (TenantView t : IncidentQueries.tenants(c, id)) {
                    assertThat(IncidentQueries.exposuresOf(c, id, t.tenant())).as(t.tenant())
                            .isEqualTo(exposures.stream().filter(e -> e.victimTenant().equals(t.tenant())
                                    || e.readerTenant().equals(t.tenant()) && "CROSS_TENANT".equals(e.kind()))
                                    .toList());
                }
                List<FindingView> findings = IncidentQueries.findings(c, id);
                assertThat(IncidentQueries.findingCounts(c, id)).as(i.deployment()).allSatisfy(f -> {
                    List<FindingView> of = findings.stream().filter(x -> x.rule().equals(f.rule())).toList();
                    assertThat(f.findings()).isEqualTo(of.size());
                    assertThat(f.firstSeenAt()).isEqualTo(of.stream().map(FindingView::seenAt)
                            .min(Comparator.naturalOrder()).orElseThrow());
                });
                assertThat(IncidentQueries.findingCounts(c, id).stream().mapToLong(IncidentQueries.FindingCount::findings)
                        .sum()).isEqualTo(findings.size());
                List<FindingView> paged = new ArrayList<>();
                for (int from = 0; from < findings.size(); from += 3) {
                    paged.addAll(IncidentQueries.findingsPage(c, id, from, 3));
                }
                assertThat(paged).isEqualTo(findings);
                compared++;
                withLeaks += sums.leaks().isEmpty() ? 0 : 1;
                withUnknownFate += exposures.stream().anyMatch(e -> e.delivered() == null) ? 1 : 0;
            }
        }
        assertThat(compared).as("incidents compared").isGreaterThanOrEqualTo(8);
        assertThat(withLeaks).as("incidents with a leaking response").isGreaterThanOrEqualTo(5);
        assertThat(withUnknownFate).as("incidents with a response not finished").isPositive();
    }

    private static CaseFacts.Exposure both(CaseFacts.Exposure a, CaseFacts.Exposure b) {
        return a == b ? a : CaseFacts.Exposure.BOTH;
    }

    /**
     * Forty requests of five tenants on a 32-page pool, each writing part of its pages and attending all of them:
     * what the last writer left is read by the next; responses delivered, contained or not finished.
     */
    private static List<String> sharedPool(String p, Random random) {
        List<String> lines = new ArrayList<>();
        AuditLogWriter w = new AuditLogWriter(p + "/s", p + "/dep", "b1", lines::add);
        Instant t = Instant.parse("2026-10-25T00:00:00Z");
        w.config(t, 4, 32, 128, 100);
        for (int r = 0; r < 40; r++) {
            t = t.plusSeconds(1 + random.nextInt(600));
            String request = p + "-r" + r;
            String tenant = "t" + random.nextInt(5);
            List<PageRun> pages = List.of(new PageRun(random.nextInt(28), 1 + random.nextInt(4)));
            int size = pages.get(0).count() * 4;
            w.alloc(t, request, tenant, pages, "PREFILL", null);
            w.write(t, request, tenant, 0, 1 + random.nextInt(size), "COMPUTE", null);
            w.attach(t, request, tenant, size);
            int fate = random.nextInt(3);
            if (fate < 2) {
                w.finish(t, request, tenant, "STOP", 200, 3, fate == 0);
            }
            w.free(t, request, pages, "FINISH");
        }
        return lines;
    }
}
