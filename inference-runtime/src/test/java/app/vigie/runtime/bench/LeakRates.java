package app.vigie.runtime.bench;

import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import app.vigie.runtime.engine.Cache;
import app.vigie.runtime.engine.Fault;
import app.vigie.runtime.engine.GroundTruth;
import app.vigie.runtime.sim.Simulation;
import app.vigie.runtime.sim.Simulation.Options;
import app.vigie.runtime.sim.Simulation.Scenario;
import app.vigie.runtime.sim.Simulation.Scheduling;

/**
 * How often responses leak, one request at a time against continuous batching, on the same workloads (scenario, fault
 * set, seeds): per 1,000 requests, the responses delivered with another request's tokens and those with another
 * tenant's, and the foreign tokens delivered; from the runtime's ground truth (what the responses carried), no log.
 * Run it with {@code bench/leak-rates [requests] [seeds]}.
 */
public final class LeakRates {
    private record Row(String name, Scenario scenario, Set<Fault> faults, Cache cache, double rate) {
        Row(String name, Scenario scenario, Set<Fault> faults) {
            this(name, scenario, faults, Cache.PER_TENANT, 50);
        }
    }

    private static final List<Row> ROWS = List.of(
            new Row("2026: window > pool, reject without abort", Scenario.INCIDENT_2026,
                    EnumSet.of(Fault.POOL_SMALLER_THAN_WINDOW, Fault.REJECT_WITHOUT_ABORT)),
            new Row("P/D: prefill cut short", Scenario.INCIDENT_2026, EnumSet.of(Fault.PARTIAL_PREFILL_WRITE)),
            new Row("P/D: free during transfer", Scenario.INCIDENT_2026, EnumSet.of(Fault.FREE_DURING_TRANSFER)),
            new Row("P/D: every fault", Scenario.INCIDENT_2026, EnumSet.allOf(Fault.class)),
            new Row("colocated: prefill cut short", Scenario.COLOCATED, EnumSet.of(Fault.PARTIAL_PREFILL_WRITE)),
            new Row("colocated: stale cache index", Scenario.COLOCATED, EnumSet.of(Fault.STALE_CACHE_INDEX)),
            new Row("colocated: every fault", Scenario.COLOCATED, EnumSet.allOf(Fault.class)),
            new Row("P/D, cache on prefill: stale cache index", Scenario.DISAGGREGATED,
                    EnumSet.of(Fault.STALE_CACHE_INDEX)),
            new Row("colocated, no cache, 200/s: every fault", Scenario.COLOCATED, EnumSet.allOf(Fault.class),
                    Cache.OFF, 200));

    /** The table's columns: a scheduling, and the transport (pull only for P/D). */
    private enum Column {
        ONE_AT_A_TIME(Scheduling.ONE_AT_A_TIME, false),
        BATCHED(Scheduling.BATCHED, false),
        BATCHED_PULL(Scheduling.BATCHED, true);

        final Scheduling scheduling;
        final boolean pull;

        Column(Scheduling scheduling, boolean pull) {
            this.scheduling = scheduling;
            this.pull = pull;
        }
    }

    public static void main(String[] args) {
        int requests = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        int seeds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        System.out.printf(Locale.ROOT, "%,d requests x %d seeds per cell, 6 tenants, 50 requests/s unless said; per 1,000 requests:"
                + " responses delivered with another request's tokens (of another tenant's), foreign tokens delivered%n",
                requests, seeds);
        System.out.printf(Locale.ROOT, "%-44s | %-34s | %-34s | %-34s | %-30s | %s%n", "workload", "one at a time",
                "batched", "batched, pull transport", "pull: possible only (carried)",
                "batched: most requests in flight, in a step; preempted");
        for (Row row : ROWS) {
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-44s", row.name()));
            String batching = "";
            String possibleOnly = "";
            for (Column column : Column.values()) {
                Scheduling scheduling = column.scheduling;
                if (column.pull && row.scenario() == Scenario.COLOCATED) {
                    line.append(String.format(Locale.ROOT, " | %-34s", "—"));
                    possibleOnly = "—";
                    continue;
                }
                long flagged = 0;
                long flaggedCarried = 0;
                long leaking = 0;
                long cross = 0;
                long tokens = 0;
                int inFlight = 0;
                int batch = 0;
                long preempted = 0;
                for (int seed = 1; seed <= seeds; seed++) {
                    Options o = Options.of(row.scenario(), 6, requests, seed).with(row.faults(), Set.of())
                            .with(row.cache()).arriving(row.rate()).scheduled(scheduling)
                            .transported(column.pull ? Simulation.Transport.PULL : Simulation.Transport.PUSH);
                    Simulation.Summary s = Simulation.run(o, null, null, true, true);
                    GroundTruth t = s.truth();
                    for (GroundTruth.Reader r : t.readers().values()) {
                        if (r.delivered()) {
                            leaking++;
                            if (r.tokensByVictim().keySet().stream()
                                    .anyMatch(v -> !r.victimTenant(v).equals(r.tenant()))) {
                                cross++;
                            }
                        }
                    }
                    tokens += t.deliveredForeignTokens();
                    // what the log can only call possible: delivered readers with a possible origin and no certain one
                    for (Map.Entry<String, GroundTruth.Labels> e : t.labels().entrySet()) {
                        GroundTruth.Labels l = e.getValue();
                        if (l.delivered() && l.certain().isEmpty() && !l.possible().isEmpty()) {
                            flagged++;
                            GroundTruth.Reader carried = t.readers().get(e.getKey());
                            if (carried != null && l.possible().keySet().stream()
                                    .anyMatch(v -> carried.tokensByVictim().containsKey(v))) {
                                flaggedCarried++;
                            }
                        }
                    }
                    inFlight = Math.max(inFlight, s.batching().maxInFlight());
                    batch = Math.max(batch, s.batching().maxBatch());
                    preempted += s.batching().preemptions();
                }
                double n = (double) requests * seeds / 1000;
                line.append(String.format(Locale.ROOT, " | %7.2f (%7.2f) %,14.0f tok", leaking / n, cross / n,
                        tokens / n));
                if (column.pull) {
                    possibleOnly = String.format(Locale.ROOT, "%7.2f (%7.2f)", flagged / n, flaggedCarried / n);
                }
                if (column == Column.BATCHED) {
                    batching = inFlight + ", " + batch + (preempted > 0 ? "; " + preempted + " preempted" : "");
                }
            }
            System.out.println(line + String.format(Locale.ROOT, " | %-30s", possibleOnly) + " | " + batching);
        }
    }
}
