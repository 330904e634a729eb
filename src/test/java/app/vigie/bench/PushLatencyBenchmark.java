package app.vigie.bench;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Page;

import app.vigie.testing.Chromium;
import app.vigie.testing.Logs;
import app.vigie.testing.ServiceProcess;

/**
 * From leak to screen (issue 22, goal 4): over N leaking logs, each on its own deployment, posted one at a time to the
 * packaged service in embedded mode, the time from the POST's start to (a) the incident in {@code GET /api/incidents}
 * (newest first) and (b) its row on the overview open in a real Chromium, which reloads its table on the server's
 * {@code incidents} event. Beside them, in the same run: the POST alone, and the overview's table fetched alone (what
 * the browser does once told). {@code --listen false} measures the fallback (the check every 2 s) instead of
 * PostgreSQL's notifications. Run it with {@code bench/push-latency [--incidents N] [--listen false]}.
 */
public final class PushLatencyBenchmark {

    public static void main(String[] args) throws Exception {
        int incidents = 100;
        boolean listen = true;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--incidents" -> incidents = Integer.parseInt(args[++i]);
                case "--listen" -> listen = Boolean.parseBoolean(args[++i]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]
                        + " (--incidents N, --listen true|false)");
            }
        }
        String password = "bench-" + Long.toHexString(System.nanoTime());
        String admin = "admin:" + password;
        Path tmp = Files.createTempDirectory("vigie-bench-push");
        Map<String, String> env = new HashMap<>(Map.of("VIGIE_ADMIN_PASSWORD", password,
                "VIGIE_DASHBOARD_LISTEN", Boolean.toString(listen)));
        String options = System.getenv().getOrDefault("VIGIE_BENCH_JAVA_OPTIONS", "-Xms1g -Xmx1g");
        if (!options.isBlank()) {
            env.put("JAVA_TOOL_OPTIONS", options.trim());
        }
        try (ServiceProcess service = new ServiceProcess(tmp.resolve("data"), env).start();
                Chromium chromium = Chromium.launch();
                BrowserContext context = chromium.browser().newContext(new Browser.NewContextOptions()
                        .setLocale("en-GB").setViewportSize(1280, 900))) {
            String base = "http://localhost:" + service.port();
            Page page = context.newPage();
            page.navigate(base + "/");
            page.fill("#j_username", "admin");
            page.fill("#j_password", password);
            page.waitForNavigation(() -> page.click("button[type=submit]"));
            if (!page.url().equals(base + "/")) {
                throw new IllegalStateException("not signed in: " + page.url());
            }
            int warm = 10;
            double[] post = new double[incidents];
            double[] api = new double[incidents];
            double[] screen = new double[incidents];
            double[] table = new double[incidents];
            for (int i = -warm; i < incidents; i++) {
                String deployment = "push/" + (i < 0 ? "warm" + -i : "d" + i);
                String body = Logs.body(AlertLatencyBenchmark.leak(deployment));
                long t0 = System.nanoTime();
                AlertLatencyBenchmark.check(service.postNdjson(body, admin).statusCode());
                long posted = System.nanoTime();
                while (!new String(service.getBytes("/api/incidents?limit=1", admin).body(), StandardCharsets.UTF_8)
                        .contains("\"" + deployment + "\"")) {
                    Thread.onSpinWait();
                }
                long inApi = System.nanoTime();
                page.waitForFunction("d => document.body.innerText.includes(d)", deployment,
                        new Page.WaitForFunctionOptions().setPollingInterval(5).setTimeout(30_000));
                long onScreen = System.nanoTime();
                long t = System.nanoTime();
                AlertLatencyBenchmark.check(service.getBytes("/api/incidents?limit=50", admin).statusCode());
                long fetched = System.nanoTime() - t;
                if (i >= 0) {
                    post[i] = (posted - t0) / 1e6;
                    api[i] = (inApi - t0) / 1e6;
                    screen[i] = (onScreen - t0) / 1e6;
                    table[i] = fetched / 1e6;
                }
                Thread.sleep(300);  // the next leak comes after this one's reload settled
            }
            System.out.printf("%-62s %8s %8s %8s %8s  (ms, %d incidents, %s)%n", "", "p50", "p90", "p99", "max",
                    incidents, listen ? "notifications (LISTEN/NOTIFY)" : "the fallback check every 2 s");
            print("reference: the POST alone", post);
            print("reference: a page of the API's incident list alone", table);
            print("(a) POST start -> incident in GET /api/incidents", api);
            print("(b) POST start -> its row on the open overview (Chromium)", screen);
        }
    }

    private static void print(String label, double[] ms) {
        double[] sorted = ms.clone();
        Arrays.sort(sorted);
        System.out.printf("%-62s %8.1f %8.1f %8.1f %8.1f%n", label, AlertLatencyBenchmark.pct(sorted, 50),
                AlertLatencyBenchmark.pct(sorted, 90), AlertLatencyBenchmark.pct(sorted, 99),
                sorted[sorted.length - 1]);
    }
}
