package app.vigie.bench;

import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import app.vigie.testing.ServiceProcess;

/**
 * A reminder storm (issue 45, goal 6): every running incident's reminders written again at one check, with the overview
 * asked for meanwhile. On the data set of {@code bench/dashboard --data DIR} (10,000 incidents loaded at once), the
 * harness forgets every reminder written and every plan saved ({@code delete from escalation}, {@code planned_with}
 * null), so that the next check plans every incident and writes each step reached so far, as a service down across
 * them would; it prints how many steps that check wrote, how long it took, and the overview's times during it beside
 * the same page's times measured just before, in the same run. Goal: 200,000 steps in 30 s, the overview's p99 within
 * 100 ms during it. Run it with {@code bench/reminder-storm --data DIR}.
 */
public final class ReminderStormBenchmark {
    private static final Pattern CHECK = Pattern.compile(
            "Escalation check: (\\d+) incidents planned, (\\d+) reminders written in ([0-9.]+) ms");

    public static void main(String[] args) throws Exception {
        Path data = null;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--data")) {
                data = Path.of(args[++i]).toAbsolutePath();
            } else {
                throw new IllegalArgumentException("unknown option " + args[i] + "; options: --data DIR (a data set "
                        + "loaded by bench/dashboard --data DIR)");
            }
        }
        if (data == null || !Files.exists(data.resolve("loaded"))) {
            throw new IllegalArgumentException("--data DIR must name a data set loaded by bench/dashboard --data DIR");
        }
        String password = "bench-admin-password";
        String options = System.getenv().getOrDefault("VIGIE_BENCH_JAVA_OPTIONS", "-Xms2g -Xmx2g -XX:+AlwaysPreTouch");
        ServiceProcess service = new ServiceProcess(data.resolve("data"), Map.of("VIGIE_ADMIN_PASSWORD", password,
                "JAVA_TOOL_OPTIONS", options, "VIGIE_COMPLIANCE_ESCALATION_CHECK_EVERY", "5s",
                "QUARKUS_LOG_CATEGORY__APP_VIGIE_COMPLIANCE_SERVICE__LEVEL", "DEBUG")).start();
        String base = "http://localhost:" + service.port();
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        try {
            // the first check plans every running incident: the storm comes after it
            int before = awaitChecks(service, 1, Duration.ofMinutes(5));
            String cookie = DashboardBenchmark.signIn(http, base, password);
            double[] quiet = overview(http, base, cookie, 200);
            String jdbc = jdbc(service, data);
            String owner = Files.readString(data.resolve("data").resolve("postgres-owner.password")).strip();
            try (Connection c = DriverManager.getConnection(jdbc, "postgres", owner); Statement s = c.createStatement()) {
                s.executeUpdate("delete from escalation");
                s.executeUpdate("update incident_deadline set planned_with = null");
            }
            int checksBefore = checks(service).size();
            AtomicBoolean stormOver = new AtomicBoolean();
            List<Double> during = new ArrayList<>();
            Thread asker = new Thread(() -> {
                try {
                    while (!stormOver.get()) {
                        during.add(once(http, base, cookie));
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            asker.start();
            double[] storm = null;
            long deadline = System.nanoTime() + Duration.ofMinutes(15).toNanos();
            while (storm == null && System.nanoTime() < deadline) {
                Thread.sleep(200);
                for (double[] check : checks(service).subList(checksBefore, checks(service).size())) {
                    if (check[1] > 0) {
                        storm = check;
                    }
                }
            }
            stormOver.set(true);
            asker.join();
            if (storm == null) {
                throw new IllegalStateException("no check wrote reminders within 15 minutes; the log is in " + data);
            }
            long rows;
            long skipped;
            long events;
            try (Connection c = DriverManager.getConnection(jdbc, "postgres", owner); Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("select count(*), count(*) filter (where skipped), (select count(*) "
                            + "from audit_event where action = 'obligation.escalations' and (after->>'at')::timestamptz >= "
                            + "(select min(fired_at) from escalation)) from escalation")) {
                rs.next();
                rows = rs.getLong(1);
                skipped = rs.getLong(2);
                events = rs.getLong(3);
            }
            double[] ms = during.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            System.out.printf("first check (plans all) before the storm: %d checks seen%n", before);
            System.out.printf("the storm's check: %,.0f incidents planned, %,d steps written (%,.0f reminders sent, %,d "
                    + "recorded as skipped), %,d audit events, in %,.1f s   (goal: 200,000 steps in 30 s; 289 s before "
                    + "issue 45)%n", storm[0], rows, storm[1], skipped, events, storm[2] / 1000);
            System.out.printf("overview / before the storm:  p50 %6.1f  p99 %6.1f  max %6.1f ms (%d requests)%n",
                    AlertLatencyBenchmark.pct(quiet, 50), AlertLatencyBenchmark.pct(quiet, 99),
                    quiet[quiet.length - 1], quiet.length);
            System.out.printf("overview / during the storm:  p50 %6.1f  p99 %6.1f  max %6.1f ms (%d requests; goal "
                    + "p99 100 ms)%n", AlertLatencyBenchmark.pct(ms, 50), AlertLatencyBenchmark.pct(ms, 99),
                    ms[ms.length - 1], ms.length);
        } finally {
            service.stop();
        }
    }

    private static String jdbc(ServiceProcess service, Path data) throws Exception {
        Matcher port = Pattern.compile("Embedded PostgreSQL started on 127.0.0.1:(\\d+)").matcher(service.log());
        String found = null;
        while (port.find()) {
            found = port.group(1);  // the log grows over runs: this run's is the last
        }
        if (found == null) {
            throw new IllegalStateException("the service log does not say where its PostgreSQL listens: " + data);
        }
        return "jdbc:postgresql://127.0.0.1:" + found + "/postgres";
    }

    /** The checks of this run so far: incidents planned, reminders written, milliseconds. */
    private static List<double[]> checks(ServiceProcess service) throws Exception {
        String log = service.log();
        Matcher m = CHECK.matcher(log.substring(log.lastIndexOf("Embedded PostgreSQL started")));
        List<double[]> out = new ArrayList<>();
        while (m.find()) {
            out.add(new double[] {Double.parseDouble(m.group(1)), Double.parseDouble(m.group(2)),
                Double.parseDouble(m.group(3))});
        }
        return out;
    }

    private static int awaitChecks(ServiceProcess service, int n, Duration within) throws Exception {
        long deadline = System.nanoTime() + within.toNanos();
        while (checks(service).size() < n) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no reminder check within " + within);
            }
            Thread.sleep(500);
        }
        return checks(service).size();
    }

    private static double[] overview(HttpClient http, String base, String cookie, int rounds)
            throws Exception {
        for (int i = 0; i < 20; i++) {
            once(http, base, cookie);
        }
        double[] ms = new double[rounds];
        for (int i = 0; i < rounds; i++) {
            ms[i] = once(http, base, cookie);
        }
        Arrays.sort(ms);
        return ms;
    }

    private static double once(HttpClient http, String base, String cookie) throws Exception {
        long t = System.nanoTime();
        HttpResponse<String> r = DashboardBenchmark.get(http, base + "/", cookie);
        if (r.statusCode() != 200) {
            throw new IllegalStateException("the overview answered " + r.statusCode());
        }
        return (System.nanoTime() - t) / 1e6;
    }
}
