package app.vigie.runtime.bench;

import java.util.Set;

import app.vigie.runtime.sim.Simulation;
import app.vigie.runtime.sim.Simulation.Options;
import app.vigie.runtime.sim.Simulation.Scenario;

/**
 * What the audit costs the runtime: the colocated workload (prefix cache on, no fault) run with page tags and the
 * audit log off, tags only, then tags and the log (records built, fingerprints computed, lines handed to a sink
 * that counts them), in pages allocated per second, and the overhead ratio. Ground truth is off throughout: it is the
 * tests' instrument, not the runtime's. Run it with {@code bench/runtime [requests]}.
 */
public final class RuntimeOverheadBenchmark {

    public static void main(String[] args) {
        int requests = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        Options o = Options.of(Scenario.COLOCATED, 6, requests, 1).with(Set.of(), Set.of());
        System.out.printf("colocated workload, %,d requests, 6 tenants, prefix cache per tenant, Java %s%n", requests,
                System.getProperty("java.version"));
        int rounds = 9;
        int warm = 2;
        double[] bare = new double[rounds - warm];
        double[] tags = new double[rounds - warm];
        double[] full = new double[rounds - warm];
        for (int round = 1; round <= rounds; round++) {
            double b = rate(o, false, false);
            double t = rate(o, true, false);
            long[] bytes = {0, 0};
            long start = System.nanoTime();
            Simulation.Summary s = Simulation.run(o, line -> {
                bytes[0] += line.length() + 1;
                bytes[1]++;
            }, null, true, false);
            double f = s.pagesAllocated() / ((System.nanoTime() - start) / 1e9);
            System.out.printf("round %d: bare %,.0f pages/s; tags %,.0f pages/s; tags + audit log %,.0f pages/s "
                    + "(%,d records, %,d bytes)%s%n", round, b, t, f, bytes[1], bytes[0],
                    round <= warm ? " (warm-up)" : "");
            if (round > warm) {
                bare[round - warm - 1] = b;
                tags[round - warm - 1] = t;
                full[round - warm - 1] = f;
            }
        }
        double mb = median(bare);
        double mt = median(tags);
        double mf = median(full);
        System.out.printf("medians of %d rounds: bare %,.0f, tags %,.0f, tags + audit log %,.0f pages/s; overhead of "
                + "tags %.1f %%, of tags and audit log %.1f %% (goal: at most 10 %%)%n", rounds - warm, mb, mt, mf,
                (mb / mt - 1) * 100, (mb / mf - 1) * 100);
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        java.util.Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    private static double rate(Options o, boolean tagging, boolean log) {
        long start = System.nanoTime();
        Simulation.Summary s = Simulation.run(o, log ? line -> { } : null, null, tagging, false);
        return s.pagesAllocated() / ((System.nanoTime() - start) / 1e9);
    }
}
