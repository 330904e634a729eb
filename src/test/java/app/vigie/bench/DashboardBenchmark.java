package app.vigie.bench;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import app.vigie.runtime.log.AuditLogWriter;
import app.vigie.runtime.log.PageRun;
import app.vigie.testing.ServiceProcess;

/**
 * The dashboard's response times with 10,000 incidents and 1,000,000 exposures (by default), made through the real
 * intake: each incident is a deployment where 10 requests write pages that 10 requests of other tenants then read
 * (100 exposures each). The packaged service runs in embedded mode with the production JVM setting; a signed-in DPO
 * then asks for each page many times, one request at a time, and the harness prints p50, p90, p99 and max per page.
 * Run it with {@code bench/dashboard}.
 */
public final class DashboardBenchmark {
    private static final Pattern INCIDENT_LINK = Pattern.compile("href=\"/incidents/([0-9a-f-]{36})\"");

    public static void main(String[] args) throws Exception {
        int incidents = 10_000;
        int side = 10;
        int rounds = 200;
        Path data = null;
        boolean documents = true;
        Map<String, String> serviceEnv = new HashMap<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--incidents" -> incidents = Integer.parseInt(args[++i]);
                case "--side" -> side = Integer.parseInt(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--data" -> data = Path.of(args[++i]).toAbsolutePath();
                case "--no-documents" -> documents = false;
                case "--service-env" -> {
                    String kv = args[++i];
                    serviceEnv.put(kv.substring(0, kv.indexOf('=')), kv.substring(kv.indexOf('=') + 1));
                }
                default -> throw new IllegalArgumentException("unknown option " + args[i]
                        + "; options: --incidents N --side N (writers and readers per incident: side^2 exposures) "
                        + "--rounds N --data DIR (keeps the service's data there; loaded once, reused after) "
                        + "--no-documents (pages and API lists only: for one huge incident) "
                        + "--service-env NAME=VALUE (a setting of the service, e.g. VIGIE_COMPLIANCE_ESCALATION_CHECK_EVERY=off)");
            }
        }
        String password = "bench-admin-password";
        Path tmp = data != null ? data : Files.createTempDirectory("vigie-dashboard-bench");
        boolean loaded = data != null && Files.exists(tmp.resolve("loaded"));
        Files.createDirectories(tmp);
        String options = System.getenv().getOrDefault("VIGIE_BENCH_JAVA_OPTIONS", "-Xms2g -Xmx2g -XX:+AlwaysPreTouch");
        // the reminder check's own times are in the log at DEBUG (a category from the environment is lower case:
        // the package's), printed at the end, beside the pages it runs under
        serviceEnv.putAll(Map.of("VIGIE_ADMIN_PASSWORD", password, "JAVA_TOOL_OPTIONS", options,
                "QUARKUS_LOG_CATEGORY__APP_VIGIE_COMPLIANCE_SERVICE__LEVEL", "DEBUG"));
        ServiceProcess service = new ServiceProcess(tmp.resolve("data"), serviceEnv).start();
        String base = "http://localhost:" + service.port();
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        boolean ok = false;
        try {
            if (loaded) {
                System.out.println("reusing the data loaded before in " + tmp);
            } else {
                long started = System.nanoTime();
                long records = load(http, base, password, incidents, side);
                System.out.printf("loaded %,d records in %.0f s through HTTP%n", records,
                        (System.nanoTime() - started) / 1e9);
                Files.writeString(tmp.resolve("loaded"), "yes\n");
            }
            // the first reminder check plans every running incident (later ones only those that changed): the pages
            // are measured after it, as a service that has been up a minute is (its time is printed at the end)
            long waitUntil = System.nanoTime() + 120_000_000_000L;
            String run = service.log().substring(service.log().lastIndexOf("Embedded PostgreSQL started"));
            while (!run.contains("Escalation check:") && serviceEnv.getOrDefault(
                    "VIGIE_COMPLIANCE_ESCALATION_CHECK_EVERY", "").isEmpty() && System.nanoTime() < waitUntil) {
                Thread.sleep(500);
                run = service.log().substring(service.log().lastIndexOf("Embedded PostgreSQL started"));
            }
            List<String> ids = new ArrayList<>();
            Matcher port = Pattern.compile("Embedded PostgreSQL started on 127.0.0.1:(\\d+)").matcher(service.log());
            String pgPort = null;
            String owner;
            while (port.find()) {
                pgPort = port.group(1);  // the log grows over runs: this run's is the last
            }
            if (pgPort == null) {
                throw new IllegalStateException("the service log does not say where its PostgreSQL listens");
            }
            // the embedded database asks every connection for its role's password, kept in the data directory
            owner = Files.readString(tmp.resolve("data").resolve("postgres-owner.password")).strip();
            try (Connection c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + pgPort
                    + "/postgres", "postgres", owner); Statement s = c.createStatement()) {
                try (ResultSet rs = s.executeQuery("select (select count(*) from incident), "
                        + "(select count(*) from exposure), (select count(*) from finding)")) {
                    rs.next();
                    System.out.printf("database: %,d incidents, %,d exposures, %,d findings%n", rs.getLong(1),
                            rs.getLong(2), rs.getLong(3));
                }
                try (ResultSet rs = s.executeQuery("select id from incident")) {
                    while (rs.next()) {
                        ids.add(rs.getString(1));
                    }
                }
            }
            String cookie = signIn(http, base, password);
            String overview = get(http, base + "/", cookie).body();
            Matcher m = INCIDENT_LINK.matcher(overview);
            int linked = 0;
            while (m.find()) {
                linked++;
            }
            System.out.printf("the overview's first page links %,d incidents%n", linked);
            if (linked == 0) {
                throw new IllegalStateException("no incident on the overview");
            }
            Random random = new Random(1);
            Map<String, Supplier<String>> pages = new LinkedHashMap<>();
            pages.put("overview /", () -> "/");
            pages.put("overview, page 100 /?page=100", () -> "/?page=100");
            pages.put("incidents table /incidents (htmx refresh)", () -> "/incidents");
            pages.put("incident page /incidents/{id}", () -> "/incidents/" + ids.get(random.nextInt(ids.size())));
            pages.put("register /register", () -> "/register");
            pages.put("tenants /tenants", () -> "/tenants");
            pages.put("alerts /alerts", () -> "/alerts");
            pages.put("audit trail /audit", () -> "/audit");
            System.out.printf("%-45s %8s %8s %8s %8s  (ms, %d requests each, one at a time, after 20 unmeasured)%n",
                    "page", "p50", "p90", "p99", "max", rounds);
            for (Map.Entry<String, Supplier<String>> p : pages.entrySet()) {
                for (int i = 0; i < 20; i++) {
                    get(http, base + p.getValue().get(), cookie);
                }
                double[] ms = new double[rounds];
                for (int i = 0; i < rounds; i++) {
                    long t = System.nanoTime();
                    HttpResponse<String> r = get(http, base + p.getValue().get(), cookie);
                    ms[i] = (System.nanoTime() - t) / 1e6;
                    if (r.statusCode() != 200) {
                        throw new IllegalStateException(p.getKey() + " answered " + r.statusCode());
                    }
                }
                Arrays.sort(ms);
                System.out.printf("%-45s %8.1f %8.1f %8.1f %8.1f%n", p.getKey(), AlertLatencyBenchmark.pct(ms, 50), AlertLatencyBenchmark.pct(ms, 90),
                        AlertLatencyBenchmark.pct(ms, 99), ms[ms.length - 1]);
            }
            api(http, base, password, "jdbc:postgresql://127.0.0.1:" + pgPort + "/postgres", owner,
                    Math.max(20, rounds / 4));
            if (documents) {
                pdfs(http, base, password, ids, Math.max(20, rounds / 4));
            }
            escalationChecks(service.log(), ids.size());
            IngestHttpBenchmark.printStorage(base, password, 0);
            ok = true;
        } finally {
            service.stop();
            System.out.println(ok ? "done; data in " + tmp : "the service log is in " + tmp);
        }
    }

    /**
     * The API's lists (HTTP Basic, one request at a time), each beside its references measured in the same run: the
     * same rows read by a bare SQL query over JDBC, and an empty answer through the same authentication and filters.
     */
    private static void api(HttpClient http, String base, String password, String jdbc, String owner, int rounds)
            throws Exception {
        String auth = "Basic " + Base64.getEncoder().encodeToString(("admin:" + password)
                .getBytes(StandardCharsets.UTF_8));
        Map<String, Long> sizes = new LinkedHashMap<>();
        Function<String, Callable<Void>> call = path -> () -> {
            HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(URI.create(base + path))
                    .header("Authorization", auth).timeout(Duration.ofMinutes(2)).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            if (r.statusCode() != 200) {
                throw new IllegalStateException(path + " answered " + r.statusCode());
            }
            sizes.put(path, (long) r.body().length);
            return null;
        };
        String middle;
        String incident;
        try (Connection c = DriverManager.getConnection(jdbc, "postgres", owner); Statement st = c.createStatement()) {
            try (ResultSet rs = st.executeQuery("select id from incident order by detected_at desc, id"
                    + " offset least(4999, (select count(*) / 2 from incident)) limit 1")) {
                rs.next();
                middle = rs.getString(1);
            }
            try (ResultSet rs = st.executeQuery("select incident_id from exposure group by 1 order by count(*) desc limit 1")) {
                rs.next();
                incident = rs.getString(1);
            }
            timed("reference: SQL select * from incident (JDBC)", rounds, () -> {
                try (ResultSet rs = st.executeQuery("select * from incident order by detected_at desc, id")) {
                    while (rs.next()) {
                        rs.getString(1);
                    }
                }
                return null;
            }, "");
        }
        timed("reference: empty list GET /api/incidents?status=CLOSED", rounds,
                call.apply("/api/incidents?status=CLOSED"), "");
        Map<String, String> lists = new LinkedHashMap<>();
        lists.put("API incidents, whole (GET /api/incidents)", "/api/incidents");
        lists.put("API incidents ?limit=100&offset=5000", "/api/incidents?limit=100&offset=5000");
        lists.put("API incidents ?limit=100&after=(the 5000th)", "/api/incidents?limit=100&after=" + middle);
        lists.put("API exposures ?limit=100 (largest incident)", "/api/incidents/" + incident + "/exposures?limit=100");
        lists.put("API findings ?limit=100 (largest incident)", "/api/incidents/" + incident + "/findings?limit=100");
        lists.put("API audit trail ?limit=100", "/api/audit-trail?limit=100");
        for (Map.Entry<String, String> l : lists.entrySet()) {
            Callable<Void> work = call.apply(l.getValue());
            work.call();
            timed(l.getKey(), rounds, work, String.format("  (%,d bytes)", sizes.get(l.getValue())));
        }
    }

    /** Runs {@code work} 3 times unmeasured then {@code rounds} times, and prints its times in ms. */
    private static void timed(String label, int rounds, Callable<Void> work, String note) throws Exception {
        for (int i = 0; i < 3; i++) {
            work.call();
        }
        double[] ms = new double[rounds];
        for (int i = 0; i < rounds; i++) {
            long t = System.nanoTime();
            work.call();
            ms[i] = (System.nanoTime() - t) / 1e6;
        }
        Arrays.sort(ms);
        System.out.printf("%-45s %8.1f %8.1f %8.1f %8.1f%s%n", label, AlertLatencyBenchmark.pct(ms, 50),
                AlertLatencyBenchmark.pct(ms, 90), AlertLatencyBenchmark.pct(ms, 99), ms[ms.length - 1], note);
    }

    /**
     * The reminder checks that ran during this run: the first plans every running incident, the next ones only those
     * whose facts changed or whose next step came (V26).
     */
    private static void escalationChecks(String log, int incidents) {
        Matcher m = Pattern.compile("Escalation check: (\\d+) incidents planned, (\\d+) reminders written in "
                + "([0-9.]+) ms").matcher(log.substring(log.lastIndexOf("Embedded PostgreSQL started")));
        List<double[]> checks = new ArrayList<>();
        while (m.find()) {
            checks.add(new double[] {Double.parseDouble(m.group(1)), Double.parseDouble(m.group(3))});
        }
        if (checks.isEmpty()) {
            System.out.println("no reminder check ran during the run (vigie.compliance.escalation-check-every)");
            return;
        }
        double[] first = checks.get(0);
        System.out.printf("reminder check, first (plans all %,d running)  %8.1f ms, %,.0f incidents planned%n",
                incidents, first[1], first[0]);
        if (checks.size() > 1) {
            double[] ms = checks.stream().skip(1).mapToDouble(c -> c[1]).sorted().toArray();
            double planned = checks.stream().skip(1).mapToDouble(c -> c[0]).max().orElse(0);
            System.out.printf("reminder check, the next ones (every 30 s)    %8.1f %8s %8s %8.1f  (ms, %d checks, at "
                    + "most %,.0f incidents planned)%n", AlertLatencyBenchmark.pct(ms, 50), "", "", ms[ms.length - 1],
                    ms.length, planned);
        }
    }

    /**
     * Milliseconds per PDF notice (rendered from the incident's state on each request: nothing is cached), and per
     * regulator pack (every document of the incident rendered into one ZIP).
     */
    private static void pdfs(HttpClient http, String base, String password, List<String> ids, int rounds)
            throws Exception {
        String auth = "Basic " + Base64.getEncoder().encodeToString(("admin:" + password)
                .getBytes(StandardCharsets.UTF_8));
        String tenant = null;
        HttpResponse<String> tenants = http.send(HttpRequest.newBuilder(URI.create(base + "/api/incidents/"
                + ids.get(0) + "/tenants")).header("Authorization", auth).build(), HttpResponse.BodyHandlers.ofString());
        Matcher m = Pattern.compile("\"tenant\"\\s*:\\s*\"([^\"]+)\"").matcher(tenants.body());
        if (m.find()) {
            tenant = m.group(1);
        }
        Map<String, String> docs = new LinkedHashMap<>();
        docs.put("processor alert PDF", "/tenants/" + tenant + "/documents/processor-alert.pdf");
        docs.put("authority notification PDF", "/tenants/" + tenant + "/documents/authority-notification.pdf");
        docs.put("data subject communication PDF", "/tenants/" + tenant + "/documents/data-subject-communication.pdf");
        docs.put("incident report PDF", "/documents/incident-report.pdf");
        docs.put("regulator pack ZIP (whole incident)", "/regulator-pack.zip");
        docs.put("regulator pack ZIP (one controller)", "/tenants/" + tenant + "/regulator-pack.zip");
        for (Map.Entry<String, String> d : docs.entrySet()) {
            double[] ms = new double[rounds];
            long bytes = 0;
            for (int i = -5; i < rounds; i++) {
                String id = ids.get(0);  // a tenant of this incident's
                long t = System.nanoTime();
                HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(URI.create(base + "/api/incidents/" + id
                        + d.getValue())).header("Authorization", auth).timeout(Duration.ofMinutes(2)).build(),
                        HttpResponse.BodyHandlers.ofByteArray());
                if (r.statusCode() != 200 || r.body().length < 4 || r.body()[0] != (d.getKey().contains("ZIP")
                        ? 'P' : '%')) {
                    throw new IllegalStateException(d.getKey() + " answered " + r.statusCode());
                }
                if (i >= 0) {
                    ms[i] = (System.nanoTime() - t) / 1e6;
                    bytes += r.body().length;
                }
            }
            Arrays.sort(ms);
            System.out.printf("%-45s %8.1f %8.1f %8.1f %8.1f  (%,d bytes on average)%n", d.getKey(), AlertLatencyBenchmark.pct(ms, 50),
                    AlertLatencyBenchmark.pct(ms, 90), AlertLatencyBenchmark.pct(ms, 99), ms[ms.length - 1], bytes / rounds);
        }
    }

    /** Posts the incidents' logs in batches of about 5,000 lines; returns the records accepted. */
    private static long load(HttpClient http, String base, String password, int incidents, int side)
            throws Exception {
        String auth = "Basic " + Base64.getEncoder().encodeToString(("admin:" + password)
                .getBytes(StandardCharsets.UTF_8));
        Random random = new Random(2026);
        Instant t = Instant.parse("2026-10-25T00:30:00Z");
        List<String> batch = new ArrayList<>();
        long accepted = 0;
        for (int d = 0; d < incidents; d++) {
            String dep = "bench/d" + d;
            AuditLogWriter w = new AuditLogWriter("bench/n" + d + "/dp0", dep, "b1", batch::add);
            Instant at = t.plusSeconds(d * 7L);
            w.config(at, 16, 2 * side, 32 * side, 16 * side);
            for (int v = 0; v < side; v++) {
                String request = "bench-" + d + "-w" + v;
                String tenant = "tenant-" + random.nextInt(20);
                List<PageRun> page = List.of(new PageRun(v, 1));
                w.alloc(at, request, tenant, page, "PREFILL", null);
                w.write(at, request, tenant, 0, 16, "COMPUTE", null);
                w.free(at, request, page, "FINISH");
            }
            for (int r = 0; r < side; r++) {
                String request = "bench-" + d + "-r" + r;
                String tenant = "tenant-" + (20 + random.nextInt(20));
                List<PageRun> pages = List.of(new PageRun(0, side));
                w.alloc(at, request, tenant, pages, "PREFILL", null);
                w.attach(at, request, tenant, 16 * side);
                w.finish(at, request, tenant, "STOP", 200, 12, true);
                w.free(at, request, pages, "FINISH");
            }
            if (batch.size() >= 5000 || d == incidents - 1) {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/api/audit-log"))
                        .header("Authorization", auth).header("Content-Type", "application/x-ndjson")
                        .POST(HttpRequest.BodyPublishers.ofString(String.join("\n", batch) + "\n")).build(),
                        HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() != 200 || !r.body().contains("\"accepted\":" + batch.size())) {
                    throw new IllegalStateException("answer " + r.statusCode() + ": " + r.body().substring(0,
                            Math.min(500, r.body().length())));
                }
                accepted += batch.size();
                batch.clear();
                if ((d + 1) % 1000 == 0 || d == incidents - 1) {
                    System.out.printf("  %,d of %,d incidents posted%n", d + 1, incidents);
                }
            }
        }
        return accepted;
    }

    static String signIn(HttpClient http, String base, String password) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/j_security_check"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("j_username=admin&j_password="
                        + URLEncoder.encode(password, StandardCharsets.UTF_8))).build(),
                HttpResponse.BodyHandlers.ofString());
        List<String> cookies = new ArrayList<>();
        for (String c : r.headers().allValues("set-cookie")) {
            cookies.add(c.substring(0, c.indexOf(';') < 0 ? c.length() : c.indexOf(';')));
        }
        if (r.statusCode() != 302 || cookies.isEmpty()) {
            throw new IllegalStateException("sign-in answered " + r.statusCode());
        }
        return String.join("; ", cookies);
    }

    static HttpResponse<String> get(HttpClient http, String url, String cookie) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).header("Cookie", cookie)
                .timeout(Duration.ofMinutes(2)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
