package app.vigie.runtime.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import app.vigie.runtime.engine.Cache;
import app.vigie.runtime.engine.Fault;
import app.vigie.runtime.engine.Fix;
import app.vigie.runtime.sim.Simulation.Options;
import app.vigie.runtime.sim.Simulation.Scenario;
import app.vigie.runtime.sim.Simulation.Summary;

/** The toy runtime leaks the 2026 way with its faults on, and each announced fix closes it (ground truth). */
class SimulationTest {
    private static final Options INCIDENT = Options.of(Scenario.INCIDENT_2026, 6, 400, 2026);
    private static final Set<Fault> FAULTS = EnumSet.allOf(Fault.class);
    /** The two faults of the 2026 incident. */
    private static final Set<Fault> FAULTS_2026 = EnumSet.of(Fault.POOL_SMALLER_THAN_WINDOW,
            Fault.REJECT_WITHOUT_ABORT);

    private static Summary run(Options o, List<String> lines) {
        return Simulation.run(o, lines::add, null);
    }

    @Test
    void withTheIncidentsFaultsDeliveredResponsesCarryOtherTenantsTokens() {
        List<String> lines = new ArrayList<>();
        Summary s = run(INCIDENT.with(FAULTS, Set.of()), lines);
        assertThat(s.truth().readers()).isNotEmpty();
        assertThat(s.truth().deliveredForeignTokens()).isPositive();
        assertThat(s.rejectedButServed()).as("over-long prompts rejected, then served by the decode node")
                .isPositive();
        assertThat(s.truth().readers().values()).anySatisfy(r -> assertThat(r.tokensByVictim().keySet())
                .anySatisfy(v -> assertThat(r.victimTenant(v)).isNotEqualTo(r.tenant())));
        assertThat(lines.get(1)).contains("\"context_window\":16384").contains("\"pool_pages\":200");
    }

    @Test
    void withoutFaultsNothingLeaks() {
        Summary s = run(INCIDENT, new ArrayList<>());
        assertThat(s.truth().readers()).isEmpty();
        assertThat(s.rejected()).as("over-long prompts are still rejected").isPositive();
        assertThat(s.delivered()).isPositive();
    }

    @Test
    void eachFixAloneClosesTheLeakOf2026() {
        for (Fix fix : List.of(Fix.NO_PREALLOC_FOR_REJECTED, Fix.COVERAGE_CHECK, Fix.TAG_CHECK)) {
            Summary s = run(INCIDENT.with(FAULTS_2026, Set.of(fix)), new ArrayList<>());
            assertThat(s.truth().readers()).as(fix.name()).isEmpty();
            assertThat(s.rejectedButServed()).as(fix.name()).isZero();
            if (fix != Fix.NO_PREALLOC_FOR_REJECTED) {
                assertThat(s.aborted()).as(fix + " aborts what would have leaked").isPositive();
            }
        }
    }

    @Test
    void theCoverageAndTagChecksCloseEveryFaultOfTheReadsTheNarrowFixDoesNot() {
        Set<Fault> reads = Fault.endingInReads();
        assertThat(run(INCIDENT.with(reads, Set.of(Fix.COVERAGE_CHECK)), new ArrayList<>()).truth().readers())
                .isEmpty();
        assertThat(run(INCIDENT.with(reads, Set.of(Fix.TAG_CHECK)), new ArrayList<>()).truth().readers()).isEmpty();
        assertThat(run(INCIDENT.with(reads, Set.of(Fix.NO_PREALLOC_FOR_REJECTED)), new ArrayList<>()).truth()
                .readers()).as("a prefill cut short still leaks").isNotEmpty();
        assertThat(run(INCIDENT.with(FAULTS, EnumSet.allOf(Fix.class)), new ArrayList<>()).truth().readers())
                .as("every fix against every fault").isEmpty();
    }

    @Test
    void aPrefillCutShortLeaksAloneAndTheTagCheckClosesIt() {
        Options colocated = Options.of(Scenario.COLOCATED, 6, 400, 2026);
        Set<Fault> partial = EnumSet.of(Fault.PARTIAL_PREFILL_WRITE);
        assertThat(run(colocated, new ArrayList<>()).truth().readers()).isEmpty();
        Summary leaking = run(colocated.with(partial, Set.of()), new ArrayList<>());
        assertThat(leaking.truth().deliveredForeignTokens()).isPositive();
        assertThat(leaking.rejectedButServed()).isZero();
        Summary fixed = run(colocated.with(partial, Set.of(Fix.TAG_CHECK)), new ArrayList<>());
        assertThat(fixed.truth().readers()).isEmpty();
        assertThat(fixed.aborted()).isPositive();
        // Disaggregated, the transfer carries only what was written: the coverage check stops it too.
        assertThat(run(INCIDENT.with(partial, Set.of()), new ArrayList<>()).truth().readers()).isNotEmpty();
        assertThat(run(INCIDENT.with(partial, Set.of(Fix.COVERAGE_CHECK)), new ArrayList<>()).truth().readers())
                .isEmpty();
    }

    @Test
    void pagesFreedDuringATransferCarryAnotherTenantsPromptAndOnlyTheDeferredFreeStopsIt() {
        Set<Fault> early = EnumSet.of(Fault.FREE_DURING_TRANSFER);
        List<String> lines = new ArrayList<>();
        Summary leaking = run(INCIDENT.with(early, Set.of()), lines);
        assertThat(leaking.truth().readers()).isNotEmpty();
        assertThat(leaking.truth().readers().values()).allSatisfy(r -> assertThat(r.tokensByVictim().keySet())
                .allSatisfy(v -> assertThat(v).contains("-x")));
        assertThat(lines).anySatisfy(l -> assertThat(l).contains("\"checksum_ok\":false"));
        assertThat(run(INCIDENT.with(early, Set.of(Fix.TAG_CHECK, Fix.COVERAGE_CHECK)), new ArrayList<>()).truth()
                .readers()).as("the pages are the reader's own, fully covered: the checks see nothing").isNotEmpty();
        List<String> fixed = new ArrayList<>();
        assertThat(run(INCIDENT.with(early, Set.of(Fix.DEFERRED_FREE)), fixed).truth().readers()).isEmpty();
        assertThat(fixed).noneSatisfy(l -> assertThat(l).contains("\"checksum_ok\":false"));
    }

    @Test
    void thePrefixCacheSharesPagesWithoutLeakingAndCanBeSwitchedOff() {
        Options colocated = Options.of(Scenario.COLOCATED, 6, 400, 2026);
        for (Cache cache : Cache.values()) {
            List<String> lines = new ArrayList<>();
            Summary s = run(colocated.with(cache), lines);
            assertThat(s.truth().readers()).as(cache.name()).isEmpty();
            long shares = lines.stream().filter(l -> l.contains("\"type\":\"SHARE\"")).count();
            if (cache == Cache.OFF) {
                assertThat(shares).isZero();
            } else {
                assertThat(shares).as(cache.name()).isGreaterThan(200);
            }
        }
    }

    @Test
    void aStaleCacheIndexLeaksAndTheTagCheckClosesIt() {
        Options colocated = Options.of(Scenario.COLOCATED, 6, 600, 2026)
                .with(EnumSet.of(Fault.STALE_CACHE_INDEX), Set.of());
        Summary leaking = run(colocated, new ArrayList<>());
        assertThat(leaking.truth().deliveredForeignTokens()).isPositive();
        Summary fixed = run(colocated.with(EnumSet.of(Fault.STALE_CACHE_INDEX), Set.of(Fix.TAG_CHECK)),
                new ArrayList<>());
        assertThat(fixed.truth().readers()).isEmpty();
        assertThat(fixed.aborted()).isPositive();
    }

    @Test
    void aRebootStartsANewBootWithNothingWrittenSoNothingCrossesIt() {
        Set<Fault> reads = Fault.endingInReads();
        List<String> lines = new ArrayList<>();
        Summary s = run(INCIDENT.with(reads, Set.of()).rebootingEvery(100), lines);
        List<String> configs = lines.stream().filter(l -> l.contains("\"type\":\"CONFIG\"")).toList();
        assertThat(configs).hasSize(2 * 4);
        assertThat(configs.stream().map(l -> l.replaceAll(".*\"boot\":\"([^\"]+)\".*", "$1")).distinct())
                .hasSize(4);
        assertThat(configs).allSatisfy(l -> assertThat(l).contains("\"seq\":1,"));
        assertThat(s.truth().readers()).isNotEmpty();
        s.truth().readers().forEach((reader, r) -> r.tokensByVictim().keySet().forEach(victim ->
                assertThat(index(victim) / 100).as("%s read %s", reader, victim).isEqualTo(index(reader) / 100)));
    }

    @Test
    void requestsArriveAtTheGivenRate() {
        List<String> slow = new ArrayList<>();
        List<String> fast = new ArrayList<>();
        run(INCIDENT.arriving(10), slow);
        run(INCIDENT.arriving(1000), fast);
        Function<List<String>, Duration> span = lines -> Duration.between(
                Instant.parse(lines.get(0).replaceAll(".*\"ts\":\"([^\"]+)\".*", "$1")),
                Instant.parse(lines.get(lines.size() - 1).replaceAll(".*\"ts\":\"([^\"]+)\".*", "$1")));
        // 400 requests at 10/s take about 40 s of simulated time; at 1000/s the span is the runtime's own work (a
        // millisecond per record, one request after another): about 16 s.
        assertThat(span.apply(slow)).isBetween(Duration.ofSeconds(35), Duration.ofSeconds(70));
        assertThat(span.apply(fast)).isLessThan(Duration.ofSeconds(25));
        assertThat(slow.size()).isEqualTo(fast.size());
    }

    private static int index(String request) {
        return Integer.parseInt(request.substring(request.lastIndexOf('-') + 1));
    }

    @Test
    void eachFaultOf2026AloneShowsItsOwnSign() {
        // The pool smaller than the window, alone: the decode node advertises more than its pool holds (200 pages
        // of 64 tokens), and the prefill still rejects over-long prompts and aborts them: nothing leaks.
        List<String> lines = new ArrayList<>();
        Summary pool = run(INCIDENT.with(EnumSet.of(Fault.POOL_SMALLER_THAN_WINDOW), Set.of()), lines);
        assertThat(lines.get(1)).contains("\"pool_pages\":200").contains("\"context_window\":16384");
        assertThat(pool.truth().readers()).isEmpty();
        assertThat(pool.rejectedButServed()).isZero();
        List<String> clamped = new ArrayList<>();
        run(INCIDENT, clamped);
        assertThat(clamped.get(1)).as("without the fault").contains("\"context_window\":12800");
        // Rejected without abort, alone: the decode node serves what it pre-allocated.
        Summary reject = run(INCIDENT.with(EnumSet.of(Fault.REJECT_WITHOUT_ABORT), Set.of()), new ArrayList<>());
        assertThat(reject.rejectedButServed()).isPositive();
        assertThat(reject.truth().readers()).isNotEmpty();
    }

    @Test
    void theStartupCheckClampsTheWindowToThePool() {
        List<String> lines = new ArrayList<>();
        run(INCIDENT.with(FAULTS, Set.of(Fix.STARTUP_WINDOW_CHECK)), lines);
        assertThat(lines.get(1)).contains("\"context_window\":12800");
    }

    @Test
    void requestIdsDifferFromOneRunToAnother() {
        List<String> a = new ArrayList<>();
        List<String> b = new ArrayList<>();
        run(INCIDENT, a);
        run(Options.of(Scenario.COLOCATED, 6, 400, 2026), b);
        Function<List<String>, Set<String>> ids = lines -> lines.stream()
                .filter(l -> l.contains("\"request\":\""))
                .map(l -> l.replaceAll(".*\"request\":\"([^\"]+)\".*", "$1")).collect(Collectors.toSet());
        assertThat(ids.apply(a)).isNotEmpty().doesNotContainAnyElementsOf(ids.apply(b));
    }

    @Test
    void aSeedGivesTheSameLogAndAnotherSeedAnother() {
        List<String> a = new ArrayList<>();
        List<String> b = new ArrayList<>();
        List<String> c = new ArrayList<>();
        run(INCIDENT.with(FAULTS, Set.of()), a);
        run(INCIDENT.with(FAULTS, Set.of()), b);
        run(Options.of(Scenario.INCIDENT_2026, 6, 400, 7).with(FAULTS, Set.of()), c);
        assertThat(a).isEqualTo(b).isNotEqualTo(c);
    }

    @Test
    void theLogIsTheSameWhetherItsWorkRunsInTheEnginesThreadOrInItsOwn() {
        for (Scenario scenario : Scenario.values()) {
            for (Cache cache : Cache.values()) {
                Options o = Options.of(scenario, 5, 300, 11).with(FAULTS, Set.of()).with(cache).rebootingEvery(120);
                List<String> inline = new ArrayList<>();
                List<String> background = new ArrayList<>();
                Summary a = Simulation.run(o, inline::add, null, true, true, false);
                Summary b = Simulation.run(o, background::add, null, true, true, true);
                assertThat(background).as(scenario + " " + cache).hasSizeGreaterThan(1000).isEqualTo(inline);
                assertThat(b.truth().readers().keySet()).isEqualTo(a.truth().readers().keySet());
                assertThat(b.truth().deliveredForeignTokens()).isEqualTo(a.truth().deliveredForeignTokens());
                // Fingerprints serve to judge a SHARE: written for the pages a prefix cache may share, and only then.
                long withFingerprints = inline.stream().filter(l -> l.contains("\"fp\":[")).count();
                boolean cacheOn = (scenario == Scenario.COLOCATED || scenario == Scenario.DISAGGREGATED)
                        && cache != Cache.OFF;
                assertThat(withFingerprints > 0).as(scenario + " " + cache + " fingerprints").isEqualTo(cacheOn);
            }
        }
    }
}
