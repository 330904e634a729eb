package app.vigie.detection.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import app.vigie.auditlog.intake.RecordParser;
import app.vigie.auditlog.record.AuditRecord;
import app.vigie.auditlog.record.Body;
import app.vigie.runtime.engine.Cache;
import app.vigie.runtime.engine.Fault;
import app.vigie.runtime.engine.Fix;
import app.vigie.runtime.sim.Simulation;
import app.vigie.runtime.sim.Simulation.Options;
import app.vigie.runtime.sim.Simulation.Scenario;
import app.vigie.runtime.sim.Simulation.Scheduling;
import app.vigie.runtime.sim.Simulation.Transport;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * The detector core against a deliberately naive second implementation of the spec ({@link NaiveModel}, written from
 * the spec's text alone): on thousands of random adversarial logs ({@link RandomLogs}: several streams and
 * tensor-parallel ranks, prefill/decode with transfers, aborts with steps in flight, reboots with late records,
 * prefix shares with and without fingerprints, duplicates, any arrival order across batches, flushes in the middle)
 * and on the reference runtime's logs, every finding with its evidence, every exposure with its tokens, first sight
 * and delivery, and every refused or impossible record must be the same. The core side snapshots and restores its
 * detectors at random points, as a restart does.
 */
class DifferentialTest {

    /** Both sides fed the same deliveries; their results compared. */
    static void compare(List<Delivery> deliveries, long restartSeed) {
        NaiveModel model = new NaiveModel();
        CorePipeline core = new CorePipeline(restartSeed, 0.05);
        for (Delivery d : deliveries) {
            if (d instanceof Delivery.Batch b) {
                for (AuditRecord r : b.records()) {
                    model.receive(r);
                    core.receive(r);
                }
            } else {
                model.flush();
                core.flush();
            }
        }
        ModelResult want = model.result();
        ModelResult got = core.result();
        assertThat(got.exposures()).as("exposures").isEqualTo(want.exposures());
        assertThat(got.findings()).as("findings").isEqualTo(want.findings());
        assertThat(got.invalid()).as("records impossible in their stream").isEqualTo(want.invalid());
        assertThat(got.late()).as("late records").isEqualTo(want.late());
        assertThat(got.conflicts()).as("conflicting duplicates").isEqualTo(want.conflicts());
    }

    @Provide
    Arbitrary<app.vigie.detection.model.Scenario> scenarios() {
        return RandomLogs.scenarios(60);
    }

    @Property(tries = 3000, seed = "20261203")
    void theCoreAgreesWithTheNaiveModelOnRandomLogs(@ForAll("scenarios") app.vigie.detection.model.Scenario s) {
        NaiveModel naive = naiveOf(s);
        ModelResult model = naive.result();
        // spec 1.3, amendment 4: some logs must expose through a chain (a decode node forwarding what it received),
        // or chains would be compared on nothing
        Statistics.label("exposed through a chain").collect(naive.chained() > 0);
        Statistics.label("exposed through a chain").coverage(c -> c.check(true).count(n -> n >= 10));
        Statistics.label("exposures").collect(bucket(model.exposures().size()));
        // spec 1.3, amendment 3: some logs must make possible exposures (an XFER_DONE after a write in flight), or
        // the send windows would be compared on nothing
        boolean possible = model.exposures().values().stream().anyMatch(ModelExposure::possible);
        Statistics.label("possible exposures").collect(possible);
        Statistics.label("possible exposures").coverage(c -> c.check(true).count(n -> n >= 10));
        // and through three transfers, and where the window was at a later hop (the second decode node's pull)
        Statistics.label("exposed through three transfers").collect(naive.chainedTwice() > 0);
        Statistics.label("exposed through three transfers").coverage(c -> c.check(true).count(n -> n >= 5));
        boolean laterWindow = naive.possiblyExposedOn().contains(RandomLogs.STREAMS[RandomLogs.DECODE3]);
        Statistics.label("possible at a later hop").collect(laterWindow);
        Statistics.label("possible at a later hop").coverage(c -> c.check(true).count(n -> n >= 5));
        // amendment 1: boots not judged (an unknown extension declared), and records of undeclared extensions
        boolean unsupported = model.findings().keySet().stream().anyMatch(k -> k.contains("STREAM_UNSUPPORTED"));
        Statistics.label("a boot not judged").collect(unsupported);
        Statistics.label("a boot not judged").coverage(c -> c.check(true).count(n -> n >= 20));
        Statistics.label("an undeclared extension used").collect(usesUndeclared(s.log()));
        Statistics.label("an undeclared extension used").coverage(c -> c.check(true).count(n -> n >= 20));
        // amendment 2: a failed attempt's send, a transfer nobody received
        boolean retried = s.log().stream().anyMatch(r -> r.body() instanceof Body.XferSend x
                && x.transfer().endsWith("#0"));
        Statistics.label("a transfer retried").collect(retried);
        Statistics.label("a transfer retried").coverage(c -> c.check(true).count(n -> n >= 100));
        compare(withRestarts(s.deliveries()), s.log().size());
    }

    /** Whether a record uses an extension its boot's CONFIG did not declare (spec 1.3, amendment 1). */
    static boolean usesUndeclared(List<AuditRecord> log) {
        Map<String, List<String>> declared = new HashMap<>();
        for (AuditRecord r : log) {
            String boot = r.stream() + "|" + r.boot();
            if (r.body() instanceof Body.Config c) {
                declared.put(boot, c.extensions());
            } else if (declared.containsKey(boot) && (r.body() instanceof Body.XferSend || r.body() instanceof Body.Write w
                    && w.sent()) && !declared.get(boot).contains("xfer-send")) {
                return true;
            }
        }
        return false;
    }

    /**
     * Spec v1.2: one ALLOC or SHARE in 13 says {@code restart}, chosen by its key, so that every copy of a record gets
     * the same: mostly impossible (the request still owns pages), sometimes a table started anew.
     */
    static List<Delivery> withRestarts(List<Delivery> deliveries) {
        List<Delivery> out = new ArrayList<>();
        for (Delivery d : deliveries) {
            if (d instanceof Delivery.Batch b) {
                List<AuditRecord> records = new ArrayList<>();
                for (AuditRecord r : b.records()) {
                    boolean flip = Math.floorMod((r.stream() + "|" + r.boot() + "|" + r.seq()).hashCode(), 13) == 0;
                    if (flip && r.body() instanceof Body.Alloc a) {
                        r = new AuditRecord(r.stream(), r.boot(), r.seq(), r.ts(), r.deployment(), new Body.Alloc(a.request(),
                                a.tenant(), a.pages(), a.purpose(), a.claimedTokens(), true));
                    } else if (flip && r.body() instanceof Body.Share sh) {
                        r = new AuditRecord(r.stream(), r.boot(), r.seq(), r.ts(), r.deployment(), new Body.Share(sh.request(),
                                sh.tenant(), sh.pages(), sh.fp(), true));
                    }
                    records.add(r);
                }
                out.add(new Delivery.Batch(records));
            } else {
                out.add(d);
            }
        }
        return out;
    }

    private static NaiveModel naiveOf(app.vigie.detection.model.Scenario s) {
        NaiveModel model = new NaiveModel();
        for (Delivery d : s.deliveries()) {
            if (d instanceof Delivery.Batch b) {
                b.records().forEach(model::receive);
            } else {
                model.flush();
            }
        }
        return model;
    }

    private static String bucket(int n) {
        return n == 0 ? "0" : n < 3 ? "1-2" : n < 10 ? "3-9" : "10+";
    }

    /** The reference runtime's logs (every fault, each cache mode, reboots, both transports), shuffled into batches with duplicates. */
    @Property(tries = 12, seed = "42")
    void theCoreAgreesWithTheNaiveModelOnTheRuntimesLogs(@ForAll("runtimeRuns") RuntimeRun run) throws Exception {
        List<String> lines = new ArrayList<>();
        Options o = Options.of(run.scenario(), 5, 120, run.seed()).with(EnumSet.allOf(Fault.class), EnumSet.noneOf(
                Fix.class)).with(run.cache()).rebootingEvery(run.rebootEvery()).scheduled(run.scheduling())
                .arriving(run.scheduling() == Scheduling.BATCHED ? 200 : 50)
                .transported(run.scenario() == Scenario.COLOCATED ? Transport.PUSH : run.transport());
        Simulation.run(o, lines::add, null);
        RecordParser parser = new RecordParser();
        List<AuditRecord> records = new ArrayList<>();
        for (String line : lines) {
            records.add(parser.parse(line));
        }
        Random random = new Random(run.seed());
        records.addAll(records.subList(0, records.size() / 10));
        Collections.shuffle(records, random);
        List<Delivery> deliveries = new ArrayList<>();
        for (int from = 0; from < records.size(); from += 97) {
            deliveries.add(new Delivery.Batch(records.subList(from, Math.min(records.size(), from + 97))));
        }
        deliveries.add(new Delivery.Flush());
        compare(deliveries, run.seed());
    }

    /** One run of the reference runtime (a colocated one always pushes: it has no transfer). */
    record RuntimeRun(Scenario scenario, Cache cache, int rebootEvery, long seed, Scheduling scheduling,
            Transport transport) {
    }

    @Provide
    Arbitrary<RuntimeRun> runtimeRuns() {
        return Combinators.combine(Arbitraries.of(Scenario.class),
                Arbitraries.of(Cache.class), Arbitraries.of(0, 40),
                Arbitraries.longs().between(1, 1_000_000), Arbitraries.of(Scheduling.class),
                Arbitraries.of(Transport.class)).as(RuntimeRun::new);
    }
}
