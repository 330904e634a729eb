package app.vigie.bench;

import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import app.vigie.runtime.engine.Fault;
import app.vigie.runtime.sim.Simulation;
import app.vigie.testing.Fleet;

/**
 * How many page audit records one inference node writes per second, from the reference runtime under its realistic
 * load (requests arriving at {@code --rate} per second, prompts of 100 to 2,000 tokens, 15 % over-long, faults on or
 * off), measured on the simulated clock; and, given an intake rate, how many such nodes one Vigie instance keeps up
 * with. Run it with {@code bench/node-rates [--intake RECORDS_PER_S]}.
 */
public final class NodeRates {

    public static void main(String[] args) {
        double intake = 0;
        int requests = 20_000;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--intake" -> intake = Double.parseDouble(args[++i]);
                case "--requests" -> requests = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("options: --intake RECORDS_PER_S --requests N");
            }
        }
        System.out.printf("%-26s %6s %10s %12s %14s%n", "scenario", "req/s", "records", "node", "records/s");
        double worst = 0;
        for (Simulation.Scenario scenario : Simulation.Scenario.values()) {
            for (double rate : new double[] {10, 50, 200}) {
                for (boolean faults : new boolean[] {false, true}) {
                    Map<String, Instant[]> span = new TreeMap<>();
                    Map<String, Long> count = new TreeMap<>();
                    Simulation.run(new Simulation.Options(scenario, 6, requests,
                            faults ? Fault.endingInReads() : Set.of(), Set.of(), 7, "rates", 0.15)
                            .arriving(rate), line -> {
                                String stream = Fleet.streamOf(line);
                                int t = line.indexOf("\"ts\":\"") + 6;
                                Instant ts = Instant.parse(line.substring(t, line.indexOf('"', t)));
                                span.computeIfAbsent(stream, k -> new Instant[] {ts, ts})[1] = ts;
                                count.merge(stream, 1L, Long::sum);
                            }, null);
                    for (String stream : count.keySet()) {
                        Instant[] s = span.get(stream);
                        double seconds = Math.max(1e-3, (s[1].toEpochMilli() - s[0].toEpochMilli()) / 1000.0);
                        double perSecond = count.get(stream) / seconds;
                        worst = Math.max(worst, perSecond);
                        System.out.printf("%-26s %6.0f %,10d %12s %,14.0f%n", scenario.name().toLowerCase()
                                + (faults ? " (faults)" : ""), rate, count.get(stream),
                                stream.replaceAll(".*/(n\\d+/\\w+)/.*", "$1"), perSecond);
                    }
                }
            }
        }
        System.out.printf("busiest node: %,.0f records/s%n", worst);
        if (intake > 0) {
            System.out.printf("one instance ingesting %,.0f records/s keeps up with %,.0f such nodes (busiest) %n",
                    intake, Math.floor(intake / worst));
        }
    }
}
