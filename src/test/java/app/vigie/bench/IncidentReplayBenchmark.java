package app.vigie.bench;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import app.vigie.runtime.engine.Cache;
import app.vigie.runtime.engine.Fault;
import app.vigie.runtime.engine.GroundTruth;
import app.vigie.runtime.sim.Simulation;
import app.vigie.testing.ServiceProcess;

/**
 * The 2026 incident at its published shape (issue 23, part 2), replayed into Vigie: the reference runtime's
 * {@code INCIDENT_2026_FULL} scenario (a decode pool of 681,280 tokens behind a 1,048,576-token window, over-long
 * prompts rejected but not aborted), 40 tenants, 20,000 requests at a rate that spans 13 days of simulated time, posted
 * in log order over HTTP to the packaged service in embedded mode. Prints the simulated time of the first leaking
 * response, how long after its leaking record reached Vigie the incident became a personal data breach (wall ms), the
 * leaked responses found against the runtime's ground truth, and how many would have been avoided had the provider
 * acted on the first alert (or only 72 hours after it). Run it with {@code bench/incident-2026 [--seed N]
 * [--requests N] [--days D]}.
 */
public final class IncidentReplayBenchmark {
    private static final ObjectMapper JSON = new ObjectMapper();

    public static void main(String[] args) throws Exception {
        long seed = 2026;
        int requests = 20_000;
        double days = 13;
        double longShare = 0.00775;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--seed" -> seed = Long.parseLong(args[++i]);
                case "--requests" -> requests = Integer.parseInt(args[++i]);
                case "--days" -> days = Double.parseDouble(args[++i]);
                case "--long-prompts" -> longShare = Double.parseDouble(args[++i]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]
                        + " (--seed N, --requests N, --days D, --long-prompts SHARE)");
            }
        }
        double rate = requests / (days * 86_400);
        String deployment = "glm-5.3/prod-eu";
        List<String> lines = new ArrayList<>();
        long generating = System.nanoTime();
        Simulation.Summary summary = Simulation.run(new Simulation.Options(Simulation.Scenario.INCIDENT_2026_FULL, 40,
                requests, EnumSet.of(Fault.POOL_SMALLER_THAN_WINDOW, Fault.REJECT_WITHOUT_ABORT), Set.of(), seed,
                deployment, longShare, Cache.OFF, 0, rate), lines::add, null);
        GroundTruth truth = summary.truth();
        // the leaking responses of the ground truth: delivered, with another tenant's tokens; each one's first ATTACH
        Map<String, Integer> firstAttach = new HashMap<>();
        Map<String, Instant> attachAt = new HashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            if (l.contains("\"type\":\"ATTACH\"")) {
                JsonNode r = JSON.readTree(l);
                String request = r.get("request").asText();
                if (!firstAttach.containsKey(request)) {
                    firstAttach.put(request, i);
                    attachAt.put(request, Instant.parse(r.get("ts").asText()));
                }
            }
        }
        TreeMap<Instant, String> leaking = new TreeMap<>();
        truth.readers().forEach((reader, r) -> {
            boolean foreign = r.tokensByVictim().keySet().stream().anyMatch(v -> !r.victimTenant(v).equals(r.tenant()));
            if (r.delivered() && foreign) {
                leaking.put(attachAt.get(reader), reader);
            }
        });
        Instant start = Simulation.START;
        Instant end = Instant.parse(JSON.readTree(lines.get(lines.size() - 1)).get("ts").asText());
        System.out.printf("generated %,d records of %,d requests over %.1f simulated days in %.1f s: %,d leaking"
                + " responses in the ground truth%n", lines.size(), requests,
                Duration.between(start, end).toSeconds() / 86_400.0, (System.nanoTime() - generating) / 1e9,
                leaking.size());
        if (leaking.isEmpty()) {
            System.out.println("no leak: nothing to measure");
            return;
        }
        Instant firstLeak = leaking.firstKey();
        int firstLine = firstAttach.get(leaking.firstEntry().getValue());

        String password = "bench-" + Long.toHexString(System.nanoTime());
        String admin = "admin:" + password;
        Path tmp = Files.createTempDirectory("vigie-bench-incident");
        Map<String, String> env = new HashMap<>(Map.of("VIGIE_ADMIN_PASSWORD", password));
        String options = System.getenv().getOrDefault("VIGIE_BENCH_JAVA_OPTIONS", "-Xms2g -Xmx2g");
        if (!options.isBlank()) {
            env.put("JAVA_TOOL_OPTIONS", options.trim());
        }
        try (ServiceProcess service = new ServiceProcess(tmp.resolve("data"), env).start()) {
            // the 13 days before the first leaking record, in batches as a shipper would send them
            post(service, admin, lines.subList(0, firstLine));
            if (breach(service, admin, deployment) != null) {
                throw new IllegalStateException("a breach before the first leaking response: the ground truth and"
                        + " the log disagree");
            }
            // the first leaking response's ATTACH, alone, then the incident as the API shows it
            long sent = System.nanoTime();
            check(service.postNdjson(lines.get(firstLine) + "\n", admin));
            JsonNode incident;
            while ((incident = breach(service, admin, deployment)) == null) {
                if (System.nanoTime() - sent > Duration.ofSeconds(30).toNanos()) {
                    throw new IllegalStateException("no breach 30 s after the leaking record");
                }
                Thread.sleep(1);
            }
            double openedMs = (System.nanoTime() - sent) / 1e6;
            post(service, admin, lines.subList(firstLine + 1, lines.size()));
            incident = breach(service, admin, deployment);
            int found = incident.get("leaked_responses").asInt();
            Instant alert = firstLeak.plusNanos((long) (openedMs * 1e6));
            long avoided = leaking.tailMap(alert, false).size();
            long avoided72 = leaking.tailMap(alert.plus(Duration.ofHours(72)), false).size();
            System.out.printf("first leaking response at simulated %s (day %.1f of %.1f)%n", firstLeak,
                    Duration.between(start, firstLeak).toSeconds() / 86_400.0,
                    Duration.between(start, end).toSeconds() / 86_400.0);
            System.out.printf("incident a personal data breach %.1f ms after its leaking record was posted%n",
                    openedMs);
            System.out.printf("leaked responses found: %d of %d in the ground truth%n", found, leaking.size());
            System.out.printf("avoided had the provider acted on the first alert: %d of %d (acting 72 h after it: %d)%n",
                    avoided, leaking.size(), avoided72);
            System.out.printf("13 days -> %.0f ms%n", openedMs);
        }
    }

    /** Posts the lines in batches of 5,000, in order. */
    private static void post(ServiceProcess service, String admin, List<String> lines) throws Exception {
        for (int from = 0; from < lines.size(); from += 5_000) {
            check(service.postNdjson(String.join("\n", lines.subList(from, Math.min(lines.size(), from + 5_000)))
                    + "\n", admin));
        }
    }

    private static void check(HttpResponse<String> r) {
        if (r.statusCode() != 200 || !r.body().contains("\"rejected\":[]")) {
            throw new IllegalStateException("POST /api/audit-log answered " + r.statusCode() + ": " + r.body());
        }
    }

    /** The deployment's incident once it is a personal data breach, else null. */
    private static JsonNode breach(ServiceProcess service, String admin, String deployment) throws Exception {
        for (JsonNode i : JSON.readTree(service.get("/api/incidents", admin).body())) {
            if (i.get("deployment").asText().equals(deployment)
                    && i.get("classification").asText().equals("PERSONAL_DATA_BREACH")) {
                return i;
            }
        }
        return null;
    }
}
