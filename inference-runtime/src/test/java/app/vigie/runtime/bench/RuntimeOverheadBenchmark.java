package app.vigie.runtime.bench;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.Locale;
import java.util.Set;

import com.sun.management.OperatingSystemMXBean;

import app.vigie.runtime.sim.Simulation;
import app.vigie.runtime.sim.Simulation.Options;
import app.vigie.runtime.sim.Simulation.Scenario;
import app.vigie.runtime.sim.Simulation.Scheduling;

/**
 * What the audit costs the runtime: the colocated workload (prefix cache on, no fault) run with page tags and the
 * audit log off, tags only, then tags and the log (records described, pages fingerprinted, lines formatted and handed
 * to a sink that counts them) with the log's work in the engine's thread ("inline") and in a thread of its own
 * ("background", the runtime's default), in pages allocated per second, the overhead ratios, and the process CPU time
 * per page, of the engine's thread and of the whole process (every thread: engine, emitter, compiler, collector): what
 * the background mode spends on a second core shows in the latter. One request at a time, or with continuous batching
 * ({@code batched}, second argument).
 * Ground truth is off throughout: it is the tests' instrument, not the runtime's. Run it with
 * {@code bench/runtime [requests] [one-at-a-time|batched]}.
 */
public final class RuntimeOverheadBenchmark {
    private static final String[] MODES = {"bare", "tags", "tags + log inline", "tags + log background"};

    public static void main(String[] args) {
        int requests = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        Scheduling scheduling = args.length > 1 ? Scheduling.valueOf(args[1].toUpperCase(Locale.ROOT)
                .replace('-', '_')) : Scheduling.ONE_AT_A_TIME;
        Options o = Options.of(Scenario.COLOCATED, 6, requests, 1).with(Set.of(), Set.of()).scheduled(scheduling);
        System.out.printf("colocated workload, %,d requests, 6 tenants, prefix cache per tenant, scheduling %s, Java %s,"
                + " %d cores%n", requests, scheduling.name().toLowerCase(Locale.ROOT).replace('_', '-'),
                System.getProperty("java.version"), Runtime.getRuntime().availableProcessors());
        int rounds = 11;
        int warm = 2;
        double[][] rate = new double[MODES.length][rounds - warm];
        double[][] cpu = new double[MODES.length][rounds - warm];
        double[][] engine = new double[MODES.length][rounds - warm];
        for (int round = 1; round <= rounds; round++) {
            StringBuilder line = new StringBuilder("round " + round + ":");
            for (int m = 0; m < MODES.length; m++) {
                long[] counted = {0, 0};
                double[] r = measure(o, m, counted);
                line.append(String.format(" %s %,.0f pages/s;", MODES[m], r[0]));
                if (round > warm) {
                    rate[m][round - warm - 1] = r[0];
                    cpu[m][round - warm - 1] = r[1];
                    engine[m][round - warm - 1] = r[2];
                }
                if (m == 3 && round == 1) {
                    System.out.printf("the log: %,d records, %,d bytes a run%n", counted[1], counted[0]);
                }
            }
            System.out.println(line + (round <= warm ? " (warm-up)" : ""));
        }
        System.out.printf("medians of %d rounds (overhead: against the same round's bare run; CPU: µs per page "
                + "allocated)%n", rounds - warm);
        System.out.printf("  %-22s %10s %9s %11s %12s%n", "", "pages/s", "overhead", "engine CPU", "process CPU");
        for (int m = 0; m < MODES.length; m++) {
            double mr = median(rate[m]);
            // The overhead of a round is measured against the bare run of the same round (the machine's pace drifts
            // from minute to minute; a pair does not): the median of the rounds' ratios.
            double[] ratio = new double[rounds - warm];
            for (int i = 0; i < ratio.length; i++) {
                ratio[i] = rate[0][i] / rate[m][i] - 1;
            }
            System.out.printf("  %-22s %,10.0f %9s %11.3f %12.2f%n", MODES[m], mr,
                    m == 0 ? "" : String.format("%.1f %%", median(ratio) * 100), median(engine[m]), median(cpu[m]));
        }
        System.out.println("goal: overhead of tags + log (background, the default) at most 10 %");
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    /**
     * Pages/s, process CPU µs per page and the engine thread's CPU µs per page of one run in mode {@code m};
     * {@code counted}: bytes and lines logged.
     */
    private static double[] measure(Options o, int m, long[] counted) {
        var os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        System.gc(); // every mode starts from the same heap: no collection of the previous run's garbage on its time
        var threads = ManagementFactory.getThreadMXBean();
        long cpu = os.getProcessCpuTime();
        long engine = threads.getCurrentThreadCpuTime();
        long start = System.nanoTime();
        Simulation.Summary s = Simulation.run(o, m < 2 ? null : line -> {
            counted[0] += line.length() + 1;
            counted[1]++;
        }, null, m != 0, false, m == 3);
        double seconds = (System.nanoTime() - start) / 1e9;
        double cpuMicros = (os.getProcessCpuTime() - cpu) / 1e3;
        double engineMicros = (threads.getCurrentThreadCpuTime() - engine) / 1e3;
        return new double[] {s.pagesAllocated() / seconds, cpuMicros / s.pagesAllocated(),
            engineMicros / s.pagesAllocated()};
    }
}
