package app.vigie.rootcause.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import org.junit.jupiter.api.Test;

import app.vigie.auditlog.intake.IncomingLine;
import app.vigie.auditlog.intake.Source;
import app.vigie.cli.LogValidator;
import app.vigie.cli.ValidateCommand;
import app.vigie.runtime.engine.Cache;
import app.vigie.runtime.engine.Fault;
import app.vigie.runtime.engine.Fix;
import app.vigie.runtime.sim.Simulation;
import app.vigie.runtime.sim.Simulation.Options;
import app.vigie.runtime.sim.Simulation.Scenario;
import app.vigie.runtime.sim.Simulation.Scheduling;

/**
 * The catalogue against the reference runtime: each fault alone yields its own hint and no other, as each hint's
 * {@code runtime} says how to reproduce it, one request at a time and with continuous batching; and each check the
 * runtime can switch on prevents the leak.
 */
class RootCauseRuntimeTest {
    private final HintCatalogue catalogue;

    RootCauseRuntimeTest() throws Exception {
        catalogue = HintLoader.load("root-causes.yaml", HintLoaderTest.shipped());
    }

    private static <E extends Enum<E>> E constant(Class<E> type, String name) {
        return Enum.valueOf(type, name.toUpperCase(Locale.ROOT).replace('-', '_'));
    }

    private static Options options(Hint.Reproduction r, Set<Fix> fixes, long seed, Scheduling scheduling) {
        Scenario scenario = constant(Scenario.class, r.scenario());
        Options o = Options.of(scenario, 6, scenario == Scenario.COLOCATED ? 600 : 400, seed).scheduled(scheduling)
                .with(r.fault() == null ? Set.of() : EnumSet.of(constant(Fault.class, r.fault())), fixes);
        if (r.cache() != null) {
            o = o.with(constant(Cache.class, r.cache()));
        }
        return o.sendRecords(!r.logVersion().equals("1"));
    }

    private record Outcome(Set<String> hints, Simulation.Summary summary) {
    }

    private Outcome run(Options o) {
        List<String> lines = new ArrayList<>();
        Simulation.Summary summary = Simulation.run(o, lines::add, null);
        LogValidator v = new LogValidator();
        long n = 0;
        for (String line : lines) {
            v.line(IncomingLine.of(Source.FILE, "sim", ++n, line.getBytes(StandardCharsets.UTF_8)));
        }
        LogValidator.Report report = v.finish();
        assertThat(report.problems()).as("the runtime's log conforms").isEmpty();
        HintMatcher.Result result = ValidateCommand.causes(report, catalogue);
        Set<String> hints = new LinkedHashSet<>();
        result.matches().forEach(m -> hints.add(m.hint().id()));
        return new Outcome(hints, summary);
    }

    @Test
    void eachFaultOfTheReferenceRuntimeAloneYieldsItsOwnHintAndNoOther() {
        Set<Fault> reproduced = EnumSet.noneOf(Fault.class);
        for (Hint h : catalogue.hints()) {
            Hint.Reproduction r = h.runtime();
            assertThat(r).as("%s says how the runtime reproduces it", h.id()).isNotNull();
            for (Scheduling scheduling : Scheduling.values()) {
                for (long seed : List.of(7L, 2026L)) {
                    Outcome o = run(options(r, Set.of(), seed, scheduling));
                    assertThat(o.hints()).as("%s, seed %d, %s", h.id(), seed, scheduling).containsExactly(h.id());
                }
            }
            if (r.fault() != null) {
                reproduced.add(constant(Fault.class, r.fault()));
            }
        }
        assertThat(reproduced).as("every fault of the runtime has its hint").isEqualTo(EnumSet.allOf(Fault.class));
    }

    /**
     * Each check the reference runtime has a switch for, on with the fault, leaves no response carrying another
     * request's tokens; and the startup window check removes its hint's very finding.
     */
    @Test
    void eachCheckTheRuntimeCanSwitchOnPreventsTheLeak() {
        for (Scheduling scheduling : Scheduling.values()) {
            checksPreventTheLeak(scheduling);
        }
    }

    private void checksPreventTheLeak(Scheduling scheduling) {
        for (Hint h : catalogue.hints()) {
            Hint.Reproduction r = h.runtime();
            Outcome without = run(options(r, Set.of(), 7, scheduling));
            for (Hint.Check c : h.prevention()) {
                if (c.runtimeFix() == null) {
                    continue;
                }
                Outcome with = run(options(r, EnumSet.of(constant(Fix.class, c.runtimeFix())), 7, scheduling));
                assertThat(with.summary().truth().readers()).as("%s with %s, %s", h.id(), c.id(), scheduling)
                        .isEmpty();
                if (c.id().equals("startup-window-check")) {
                    assertThat(without.hints()).contains(h.id());
                    assertThat(with.hints()).as("%s with %s", h.id(), c.id()).doesNotContain(h.id());
                }
            }
        }
    }

    /**
     * The same on a disaggregated deployment with a prefix cache on its prefill node, where every fault can happen:
     * each alone yields the hint whose reproduction names it (log v1.1), and no other, in both schedulings.
     */
    @Test
    void onAPrefillNodeWithACacheEachFaultAloneYieldsItsOwnHint() {
        for (Fault fault : Fault.values()) {
            String name = fault.name().toLowerCase(Locale.ROOT).replace('_', '-');
            Hint h = catalogue.hints().stream().filter(x -> x.runtime() != null && name.equals(x.runtime().fault())
                    && x.runtime().logVersion().equals("1.1")).findFirst().orElseThrow();
            for (Scheduling scheduling : Scheduling.values()) {
                Outcome o = run(options(new Hint.Reproduction(name, "disaggregated", null, "1.1"), Set.of(), 7,
                        scheduling));
                assertThat(o.hints()).as("%s, %s", name, scheduling).containsExactly(h.id());
            }
        }
    }
}
