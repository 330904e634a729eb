package app.vigie.runtime.sim;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import app.vigie.runtime.engine.Cache;
import app.vigie.runtime.engine.Fault;
import app.vigie.runtime.engine.Fix;
import app.vigie.runtime.engine.GroundTruth;
import app.vigie.runtime.log.Json;
import app.vigie.runtime.sim.Simulation.Options;
import app.vigie.runtime.sim.Simulation.Scenario;

/**
 * {@code simulate}: runs the toy runtime on a multi-tenant workload and writes its page audit log to a file or to
 * Vigie, with the ground truth of what each response carried.
 */
public final class SimulateCommand {
    static final String USAGE = """
            usage: simulate [--scenario incident-2026|incident-2026-full|colocated|disaggregated] [--tenants N] [--requests N] [--seed N]
                            [--faults all|none|f1,f2] [--fixes all|none|x1,x2] [--long-prompts SHARE]
                            [--cache per-tenant|shared|off] [--reboot-every N] [--rate REQUESTS_PER_S]
                            [--deployment NAME] [--truth FILE] [--log-version 1.1|1]
                            [--scheduling one-at-a-time|batched] [--decode-nodes N] [--transport push|pull]
                            (--out FILE[.gz] | --vigie URL | --kafka BOOTSTRAP [--topic vigie.page-audit.v1])
              faults: %s
              fixes:  %s
              --log-version 1: transfers without the sender's XFER_SEND (an engine writing spec v1)
              --scheduling batched: continuous batching (a token budget per step, prompt chunks mixed with decodes,
                admission while others decode); one-at-a-time (the default) runs each request to its end first
              --decode-nodes N: a prefill node serving N decode nodes (1 to 8), each request on the next in turn
              --transport pull: the decode side reads the sender's pages some time after the hand-over (XFER_SEND),
                and the sender writes XFER_DONE when the read finished (spec 1.3, amendment 3); push (the default)
                reads each chunk at its XFER_SEND
              --vigie posts to URL/api/audit-log as VIGIE_USER (default admin) with VIGIE_PASSWORD
            """;

    private SimulateCommand() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs the command; returns the exit status (0 done, 2 bad arguments, 1 failure). */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        String usage = USAGE.formatted(names(Fault.values()), names(Fix.values()));
        Scenario scenario = Scenario.INCIDENT_2026;
        int tenants = 6;
        int requests = 1000;
        long seed = 2026;
        Set<Fault> faults = EnumSet.noneOf(Fault.class);
        Set<Fix> fixes = EnumSet.noneOf(Fix.class);
        double longPrompts = 0.15;
        Cache cache = Cache.PER_TENANT;
        int rebootEvery = 0;
        double rate = 50;
        Simulation.Scheduling scheduling = Simulation.Scheduling.ONE_AT_A_TIME;
        int decodeNodes = 1;
        Simulation.Transport transport = Simulation.Transport.PUSH;
        String deployment = "sim-model/prod";
        boolean sendRecords = true;
        Path file = null;
        URI vigie = null;
        String kafka = null;
        String topic = "vigie.page-audit.v1";
        Path truthFile = null;
        try {
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                if (a.equals("-h") || a.equals("--help")) {
                    out.print(usage);
                    return 0;
                }
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException(a + " needs a value");
                }
                String v = args[++i];
                switch (a) {
                    case "--scenario" -> scenario = constant(Scenario.class, v);
                    case "--tenants" -> tenants = Integer.parseInt(v);
                    case "--requests" -> requests = Integer.parseInt(v);
                    case "--seed" -> seed = Long.parseLong(v);
                    case "--faults" -> faults = parse(Fault.class, v);
                    case "--fixes" -> fixes = parse(Fix.class, v);
                    case "--long-prompts" -> longPrompts = Double.parseDouble(v);
                    case "--reboot-every" -> rebootEvery = Integer.parseInt(v);
                    case "--rate" -> rate = Double.parseDouble(v);
                    case "--cache" -> cache = constant(Cache.class, v);
                    case "--scheduling" -> scheduling = constant(Simulation.Scheduling.class, v);
                    case "--decode-nodes" -> decodeNodes = Integer.parseInt(v);
                    case "--transport" -> transport = constant(Simulation.Transport.class, v);
                    case "--deployment" -> deployment = v;
                    case "--out" -> file = Path.of(v);
                    case "--vigie" -> vigie = URI.create(v);
                    case "--kafka" -> kafka = v;
                    case "--topic" -> topic = v;
                    case "--truth" -> truthFile = Path.of(v);
                    case "--log-version" -> sendRecords = switch (v) {
                        case "1.1" -> true;
                        case "1" -> false;
                        default -> throw new IllegalArgumentException("--log-version is 1.1 or 1, got '" + v + "'");
                    };
                    default -> throw new IllegalArgumentException("unknown option " + a);
                }
            }
            if ((file != null ? 1 : 0) + (vigie != null ? 1 : 0) + (kafka != null ? 1 : 0) != 1) {
                throw new IllegalArgumentException("give one of --out FILE, --vigie URL or --kafka BOOTSTRAP");
            }
            Options options = new Options(scenario, tenants, requests, faults, fixes, seed, deployment, longPrompts,
                    cache, rebootEvery, rate, sendRecords, scheduling, decodeNodes, transport);
            Simulation.Summary summary;
            try (Sinks.Sink sink = file != null ? Sinks.file(file) : vigie != null ? Sinks.http(vigie,
                    System.getenv().getOrDefault("VIGIE_USER", "admin"), password(), 5000)
                    : Sinks.kafka(kafka, topic)) {
                int step = Math.max(1, requests / 10);
                summary = Simulation.run(options, sink, (done, total) -> {
                    if (done % step == 0 || done == total) {
                        err.printf("simulated %,d of %,d requests (%d%%)%n", done, total, done * 100L / total);
                    }
                });
            }
            out.printf("%s: %d requests, %d rejected, %d rejected at admission but served anyway, %d aborted, "
                    + "%d delivered; %d responses carried other requests' tokens (%,d foreign tokens delivered); "
                    + "log in %s%n", scenario.name().toLowerCase(Locale.ROOT).replace('_', '-'), summary.requests(),
                    summary.rejected(), summary.rejectedButServed(), summary.aborted(), summary.delivered(),
                    summary.truth().readers().size(),
                    summary.truth().deliveredForeignTokens(), file != null ? file : vigie != null ? vigie
                    : "topic " + topic + " of " + kafka);
            if (scheduling == Simulation.Scheduling.BATCHED) {
                Simulation.Batching b = summary.batching();
                out.printf("batched: %,d steps, %,d with prompt chunks and decodes together, at most %d requests in a"
                        + " step and %d in flight, %,d preempted%n", b.steps(), b.mixedSteps(), b.maxBatch(),
                        b.maxInFlight(), b.preemptions());
            }
            if (truthFile != null) {
                Files.writeString(truthFile, truthJson(summary.truth()), StandardCharsets.UTF_8);
                out.println("ground truth in " + truthFile);
            }
            return 0;
        } catch (IllegalArgumentException e) {
            err.println("simulate: " + e.getMessage());
            err.print(usage);
            return 2;
        } catch (IOException | RuntimeException e) {
            err.println("simulate: failed: " + e.getMessage());
            return 1;
        }
    }

    private static String password() {
        String p = System.getenv("VIGIE_PASSWORD");
        if (p == null || p.isEmpty()) {
            throw new IllegalArgumentException("--vigie needs the password in VIGIE_PASSWORD");
        }
        return p;
    }

    private static <E extends Enum<E>> Set<E> parse(Class<E> type, String v) {
        if (v.equals("all")) {
            return EnumSet.allOf(type);
        }
        Set<E> out = EnumSet.noneOf(type);
        if (v.equals("none") || v.isBlank()) {
            return out;
        }
        for (String name : v.split(",")) {
            out.add(constant(type, name));
        }
        return out;
    }

    /**
     * The constant of {@code type} written the command-line way ({@code incident-2026} for
     * {@code INCIDENT_2026}), or an error naming the choices.
     */
    public static <E extends Enum<E>> E constant(Class<E> type, String name) {
        try {
            return Enum.valueOf(type, name.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown " + type.getSimpleName().toLowerCase(Locale.ROOT) + " '"
                    + name + "'; one of " + names(type.getEnumConstants()));
        }
    }

    private static String names(Enum<?>[] values) {
        return Arrays.stream(values).map(e -> e.name().toLowerCase(Locale.ROOT).replace('_', '-'))
                .collect(Collectors.joining(", "));
    }

    /** The ground truth as JSON: per reader, its tenant, whether its response was delivered, and its victims. */
    static String truthJson(GroundTruth truth) {
        StringBuilder b = new StringBuilder("{\"readers\":[");
        boolean first = true;
        for (Map.Entry<String, GroundTruth.Reader> e : truth.readers().entrySet()) {
            b.append(first ? "" : ",").append("\n{\"request\":");
            Json.string(b, e.getKey());
            b.append(",\"tenant\":");
            Json.string(b, e.getValue().tenant());
            b.append(",\"delivered\":").append(e.getValue().delivered()).append(",\"victims\":[");
            boolean firstVictim = true;
            for (Map.Entry<String, Integer> v : e.getValue().tokensByVictim().entrySet()) {
                b.append(firstVictim ? "" : ",").append("{\"request\":");
                Json.string(b, v.getKey());
                b.append(",\"tenant\":");
                Json.string(b, e.getValue().victimTenant(v.getKey()));
                b.append(",\"tokens\":").append(v.getValue()).append('}');
                firstVictim = false;
            }
            b.append("]}");
            first = false;
        }
        return b.append("\n]}\n").toString();
    }
}
