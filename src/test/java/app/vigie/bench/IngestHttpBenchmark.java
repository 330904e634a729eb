package app.vigie.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import app.vigie.runtime.engine.Fault;
import app.vigie.runtime.sim.Simulation;
import app.vigie.runtime.workload.BenignWorkload;
import app.vigie.testing.ServiceProcess;

/**
 * Ingests N valid records (default 1,000,000) over HTTP into Vigie, after a warm-up of other records of the same
 * workload, and prints records/s, next to the rate of raw Jackson parsing of the same lines on this machine. The
 * batches are encoded before the clock starts. Starts the packaged service in embedded mode on a temporary
 * data directory unless {@code --url} names a running one. Run it with {@code bench/ingest-http}.
 */
public final class IngestHttpBenchmark {

    public static void main(String[] args) throws Exception {
        long records = 1_000_000;
        int threads = 4;
        int streamsPerThread = 4;
        int batch = 5000;
        String url = null;
        String workload = "benign";
        long warmup = 1_500_000;
        long coldRecords = 0;
        String password = System.getenv().getOrDefault("VIGIE_ADMIN_PASSWORD", "bench-admin-password");
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--records" -> records = Long.parseLong(args[++i]);
                case "--threads" -> threads = Integer.parseInt(args[++i]);
                case "--streams-per-thread" -> streamsPerThread = Integer.parseInt(args[++i]);
                case "--batch" -> batch = Integer.parseInt(args[++i]);
                case "--url" -> url = args[++i];
                case "--workload" -> workload = args[++i];
                case "--warmup" -> warmup = Long.parseLong(args[++i]);
                case "--cold" -> coldRecords = Long.parseLong(args[++i]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]
                        + "; options: --records N --threads N --streams-per-thread N --batch N --url URL "
                        + "--workload benign|pd-example|runtime-pd[-clean][-v1] --warmup N --cold N (a fresh JVM's first N records timed apart)");
            }
        }
        long seed = System.nanoTime();
        List<List<String>> perThread = workload(workload, records, threads, streamsPerThread, seed);
        List<List<String>> warmupLines = warmup == 0 ? List.of()
                : workload(workload, warmup, threads, streamsPerThread, seed + 1_000_003);
        List<List<String>> coldLines = coldRecords == 0 ? List.of()
                : workload(workload, coldRecords, threads, streamsPerThread, seed + 2_000_011);
        long generated = perThread.stream().mapToLong(List::size).sum();
        long bytes = perThread.stream().flatMap(List::stream).mapToLong(l -> l.length() + 1).sum();
        System.out.printf("generated %,d records (%,d bytes), workload %s%n", generated, bytes, workload);

        double jackson = rawJacksonRate(perThread);
        System.out.printf("raw Jackson parse (readTree, 1 thread, best of 3 passes): %,.0f records/s%n", jackson);

        ServiceProcess service = null;
        Path tmp = null;
        Map<String, String> serviceEnv = new HashMap<>();
        if (url == null) {
            tmp = Files.createTempDirectory("vigie-bench");
            Map<String, String> env = new HashMap<>(Map.of("VIGIE_ADMIN_PASSWORD", password));
            // The production setting of docs/operations.md: a fixed heap, touched at start.
            String options = System.getenv().getOrDefault("VIGIE_BENCH_JAVA_OPTIONS",
                    "-Xms2g -Xmx2g -XX:+AlwaysPreTouch");
            if (System.getenv("VIGIE_BENCH_JFR") != null) {
                options += " -XX:StartFlightRecording=filename=" + System.getenv("VIGIE_BENCH_JFR");
            }
            if (!options.isBlank()) {
                env.put("JAVA_TOOL_OPTIONS", options.trim());
            }
            // the service's warm-up before ready (vigie.ingest.warm-up-records): as given, else the service's default
            String warmUp = System.getenv("VIGIE_INGEST_WARM_UP_RECORDS");
            if (warmUp != null) {
                env.put("VIGIE_INGEST_WARM_UP_RECORDS", warmUp);
            }
            serviceEnv.putAll(env);
            long launched = System.nanoTime();
            service = new ServiceProcess(tmp.resolve("data"), env).start();
            url = "http://localhost:" + service.port();
            System.out.printf("started the embedded service on %s (data in %s, JVM options '%s'): ready %.1f s "
                    + "after launch (JVM, embedded PostgreSQL, migrations, %s)%n", url, tmp, options.trim(),
                    (System.nanoTime() - launched) / 1e9, warmUp == null ? "the intake's warm-up of its default size"
                            : "an intake warm-up of " + warmUp + " records");
        }
        boolean ok = false;
        try {
            double cold = 0;
            if (!coldLines.isEmpty()) {
                cold = ingest(url, password, coldLines, batch);
                System.out.printf("cold: the fresh JVM's first %,d records at %,.0f records/s%n",
                        coldLines.stream().mapToLong(List::size).sum(), cold);
            }
            if (!warmupLines.isEmpty()) {
                long n = warmupLines.stream().mapToLong(List::size).sum();
                System.out.printf("warming the service up with %,d other records of the same workload%n", n);
                double warming = ingest(url, password, warmupLines, batch);
                System.out.printf("warm-up: %,.0f records/s (%s)%n", warming, coldLines.isEmpty()
                        ? "a fresh JVM compiles its code meanwhile" : "after the cold records");
            }
            double rate = ingest(url, password, perThread, batch);
            ok = true;
            System.out.printf("HTTP ingest: %,.0f records/s (%d client threads, batches of %d%s); "
                    + "ratio to raw Jackson parsing: %.2f%n", rate, threads, batch,
                    warmupLines.isEmpty() ? ", cold service" : ", after the warm-up", rate / jackson);
            if (cold > 0) {
                System.out.printf("cold start: the fresh JVM's first %,d records at %.0f %% of the warm rate "
                        + "(goal: 80 %%)%n", coldLines.stream().mapToLong(List::size).sum(), 100 * cold / rate);
            }
            if (cold > 0 && service != null) {
                // the same number of new records to a fresh JVM on the database the run has warmed: what of the cold
                // start is the JVM's (its code compiled), and what the database's (empty tables growing)
                service.stop();
                long launched = System.nanoTime();
                service = new ServiceProcess(tmp.resolve("data"), serviceEnv).start();
                url = "http://localhost:" + service.port();
                System.out.printf("restarted on the same data: ready %.1f s after launch%n",
                        (System.nanoTime() - launched) / 1e9);
                double again = ingest(url, password, workload(workload, coldLines.stream().mapToLong(List::size)
                        .sum(), threads, streamsPerThread, seed + 3_000_017), batch);
                System.out.printf("a fresh JVM on the warm database: its first %,d records at %,.0f records/s, %.0f %% "
                        + "of the warm rate%n", coldLines.stream().mapToLong(List::size).sum(), again,
                        100 * again / rate);
            }
            printStorage(url, password, (double) bytes / generated);
        } finally {
            if (service != null) {
                service.stop();
            }
            if (service != null && (!ok || System.getenv("VIGIE_BENCH_KEEP") != null)) {
                System.out.println("the service log is kept in " + tmp);
            } else if (service != null) {
                try (var files = Files.walk(tmp)) {
                    files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                }
            }
        }
    }

    /** The lines of a workload, split among client threads; streams and requests are new to the service. */
    static List<List<String>> workload(String workload, long records, int threads, int streamsPerThread,
            long seed) {
        List<List<String>> perThread = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            perThread.add(new ArrayList<>());
        }
        if ("pd-example".equals(workload)) {
            List<String> all = ScaledExample.lines(records);
            String tag = "r" + Long.toString(seed, 36) + "/";
            int copy = 0;
            for (int i = 0; i < all.size(); i += 242) {
                List<String> target = perThread.get(copy++ % threads);
                for (String line : all.subList(i, Math.min(all.size(), i + 242))) {
                    target.add(line.replace("\"stream\": \"", "\"stream\": \"" + tag)
                            .replace("\"request\": \"", "\"request\": \"" + tag));
                }
            }
        } else if (workload.startsWith("runtime-pd")) {
            // the reference runtime's prefill/decode deployments, with the incident's faults that end in reads (none
            // with "-clean"): spec v1.1 (the sender's XFER_SEND, received positions joined with it), or v1 with "-v1"
            boolean v11 = !workload.endsWith("-v1");
            Set<Fault> faults = workload.contains("-clean") ? Set.of() : Fault.endingInReads();
            for (int t = 0; t < threads; t++) {
                List<String> out = perThread.get(t);
                for (int k = 0; out.size() < records / threads; k++) {
                    String name = "bench-" + Long.toString(seed, 36) + "-t" + t + "-" + k;
                    Simulation.run(new Simulation.Options(Simulation.Scenario.INCIDENT_2026, 6, 400,
                            faults, Set.of(), seed + 7919L * t + k, name, 0.15).sendRecords(v11),
                            line -> out.add(line.replace("\"stream\":\"sim/", "\"stream\":\"" + name + "/")), null);
                }
            }
        } else if ("benign".equals(workload)) {
            for (int t = 0; t < threads; t++) {
                new BenignWorkload(streamsPerThread, seed + t).generate(records / threads, perThread.get(t)::add);
            }
        } else {
            throw new IllegalArgumentException("--workload is benign, pd-example or runtime-pd[-clean][-v1]");
        }
        return perThread;
    }

    /** Records/s of Jackson's readTree on one thread over the lines: the best of three passes (the first warms). */
    static double rawJacksonRate(List<List<String>> perThread) throws Exception {
        ObjectMapper mapper = new ObjectMapper();
        double best = 0;
        for (int pass = 0; pass < 3; pass++) {
            long n = 0;
            long sink = 0;
            long start = System.nanoTime();
            for (List<String> lines : perThread) {
                for (String l : lines) {
                    JsonNode node = mapper.readTree(l.getBytes(StandardCharsets.UTF_8));
                    sink += node.size();
                    n++;
                }
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            if (sink == 0) {
                throw new IllegalStateException("nothing parsed");
            }
            best = Math.max(best, n / seconds);
        }
        return best;
    }

    /**
     * Prints what the service stores on disk (GET /api/retention): bytes per stored record beside the NDJSON bytes per
     * record ({@code rawPerRecord}, 0 when unknown), and per exposure.
     */
    static void printStorage(String url, String password, double rawPerRecord) throws Exception {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url + "/api/retention"))
                .header("Authorization", "Basic " + Base64.getEncoder()
                        .encodeToString(("admin:" + password).getBytes(StandardCharsets.UTF_8)))
                .timeout(Duration.ofMinutes(2)).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            System.out.println("storage: GET /api/retention answered " + r.statusCode());
            return;
        }
        JsonNode s = new ObjectMapper().readTree(r.body()).get("storage");
        System.out.printf("storage: %,d records in %,d bytes on disk: %.1f bytes per stored record%s; %,d exposures"
                + " in %,d bytes: %.1f bytes per exposure; %,d findings in %,d bytes; %,d request facts in %,d bytes;"
                + " transfers (v1.1) %,d sends and %,d reads in %,d bytes; database %,d bytes%n", s.get("records").asLong(),
                s.get("record_bytes").asLong(),
                s.get("bytes_per_record").asDouble(),
                rawPerRecord > 0 ? String.format(" (reference: %.1f bytes of NDJSON per record)", rawPerRecord) : "",
                s.get("exposures").asLong(), s.get("exposure_bytes").asLong(), s.get("bytes_per_exposure").asDouble(),
                s.get("findings").asLong(), s.get("finding_bytes").asLong(), s.get("request_facts").asLong(),
                s.get("request_fact_bytes").asLong(), s.get("transfer_sends").asLong(), s.get("transfer_reads").asLong(),
                s.get("transfer_bytes").asLong(), s.get("database_bytes").asLong());
        JsonNode e = s.get("exposure_parts");
        long rows = Math.max(1, s.get("exposures").asLong());
        System.out.printf("storage of an exposure: %.1f bytes of rows, %.1f of indexes, %.1f of TOAST per exposure; "
                + "%,d live and %,d dead row versions (%,d inserted, %,d updated of which %,d in place)%n",
                e.get("heap_bytes").asDouble() / rows, e.get("index_bytes").asDouble() / rows,
                e.get("toast_bytes").asDouble() / rows, e.get("live_rows").asLong(), e.get("dead_rows").asLong(),
                e.get("inserted").asLong(), e.get("updated").asLong(), e.get("hot_updated").asLong());
    }

    private static double ingest(String url, String password, List<List<String>> perThread, int batch)
            throws Exception {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        String auth = "Basic " + Base64.getEncoder()
                .encodeToString(("admin:" + password).getBytes(StandardCharsets.UTF_8));
        AtomicLong accepted = new AtomicLong();
        AtomicLong posted = new AtomicLong();
        ObjectMapper mapper = new ObjectMapper();
        ExecutorService pool = Executors.newFixedThreadPool(perThread.size());
        List<Future<?>> done = new ArrayList<>();
        long total = perThread.stream().mapToLong(List::size).sum();
        List<List<byte[]>> bodies = new ArrayList<>();
        for (List<String> lines : perThread) {
            List<byte[]> mine = new ArrayList<>();
            for (int from = 0; from < lines.size(); from += batch) {
                mine.add((String.join("\n", lines.subList(from, Math.min(lines.size(), from + batch))) + "\n")
                        .getBytes(StandardCharsets.UTF_8));
            }
            bodies.add(mine);
        }
        long start = System.nanoTime();
        for (int t = 0; t < perThread.size(); t++) {
            List<String> lines = perThread.get(t);
            List<byte[]> mine = bodies.get(t);
            done.add(pool.submit(() -> {
                for (int b = 0; b < mine.size(); b++) {
                    int from = b * batch;
                    HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url + "/api/audit-log"))
                            .header("Authorization", auth).header("Content-Type", "application/x-ndjson")
                            .POST(HttpRequest.BodyPublishers.ofByteArray(mine.get(b))).build(),
                            HttpResponse.BodyHandlers.ofString());
                    if (r.statusCode() != 200) {
                        throw new IllegalStateException("answer " + r.statusCode() + ": " + r.body());
                    }
                    accepted.addAndGet(mapper.readTree(r.body()).get("accepted").asLong());
                    long before = posted.getAndAdd(Math.min(batch, lines.size() - from));
                    long after = before + Math.min(batch, lines.size() - from);
                    if (before / 100_000 != after / 100_000 || after == total) {
                        System.out.printf("  %,d of %,d records posted%n", after, total);
                    }
                }
                return null;
            }));
        }
        try {
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        if (accepted.get() != total) {
            throw new IllegalStateException("accepted " + accepted.get() + " of " + total);
        }
        System.out.printf("accepted %,d records in %.1f s%n", accepted.get(), seconds);
        return total / seconds;
    }
}
