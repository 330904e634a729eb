package app.vigie.bench;

import java.io.ByteArrayInputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.itextpdf.kernel.pdf.PdfArray;
import com.itextpdf.kernel.pdf.PdfDocument;
import com.itextpdf.kernel.pdf.PdfName;
import com.itextpdf.kernel.pdf.PdfReader;

import app.vigie.testing.Api;
import app.vigie.testing.PdfChecks;
import app.vigie.testing.ServiceProcess;

/**
 * Each kind of document, alone, one request at a time, for a controller with {@code --requests} requests exposed
 * (5,000 by default: its processor alert lists them in an annex and in an attached CSV) and for a controller with one;
 * beside the same alert's JSON (the data read and assembled, no template) and HTML (the template and the annex, no
 * PDF) as references. The large alert is checked with veraPDF (PDF/A-3u), its pages and its CSV lines counted.
 */
public final class DocumentBenchmark {
    private static final String PASSWORD = "bench-admin-password";
    private static final String ADMIN = "admin:" + PASSWORD;

    private DocumentBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int requests = 5000;
        int rounds = 30;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--requests" -> requests = Integer.parseInt(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("options: --requests N (5000) --rounds N (30)");
            }
        }
        Path tmp = Files.createTempDirectory("vigie-document-bench");
        String options = System.getenv().getOrDefault("VIGIE_BENCH_JAVA_OPTIONS", "-Xms1g -Xmx1g -XX:+AlwaysPreTouch");
        try (ServiceProcess service = new ServiceProcess(tmp.resolve("data"), Map.of("VIGIE_ADMIN_PASSWORD",
                PASSWORD, "JAVA_TOOL_OPTIONS", options)).start()) {
            for (String tenant : List.of("acme", "solo")) {
                check(service.send("PUT", "/api/tenants/" + tenant, "{\"legal_name\":\"" + tenant
                        + " SA\",\"country\":\"FR\",\"sectors\":[]}", ADMIN));
            }
            String large = load(service, "large", "acme", "intruder", requests);
            String small = load(service, "small", "solo", "intruder", 1);
            System.out.printf("incidents: acme with %,d requests exposed (%s), solo with 1 (%s)%n", requests, large,
                    small);
            String alert = "/api/incidents/" + large + "/tenants/acme/documents/processor-alert";
            Map<String, String> docs = new LinkedHashMap<>();
            docs.put("reference: " + requests + "-request alert as JSON", alert + ".json");
            docs.put("reference: " + requests + "-request alert as HTML", alert + ".html");
            docs.put(requests + "-request processor alert PDF", alert + ".pdf");
            String one = "/api/incidents/" + small + "/tenants/solo/documents/";
            docs.put("1-request processor alert PDF", one + "processor-alert.pdf");
            docs.put("1-request authority notification PDF", one + "authority-notification.pdf");
            docs.put("1-request data subject communication PDF", one + "data-subject-communication.pdf");
            docs.put("1-request incident report PDF", "/api/incidents/" + small + "/documents/incident-report.pdf");
            docs.put(requests + "-request authority notification PDF",
                    "/api/incidents/" + large + "/tenants/acme/documents/authority-notification.pdf");
            docs.put(requests + "-request incident report PDF",
                    "/api/incidents/" + large + "/documents/incident-report.pdf");
            System.out.printf("%-45s %8s %8s %8s %8s  (ms, %d requests each, one at a time, after 5 unmeasured)%n",
                    "document", "p50", "p90", "p99", "max", rounds);
            for (Map.Entry<String, String> d : docs.entrySet()) {
                double[] ms = new double[rounds];
                long bytes = 0;
                for (int i = -5; i < rounds; i++) {
                    long t = System.nanoTime();
                    HttpResponse<byte[]> r = service.getBytes(d.getValue(), ADMIN);
                    if (r.statusCode() != 200) {
                        throw new IllegalStateException(d.getKey() + " answered " + r.statusCode() + ": "
                                + new String(r.body(), StandardCharsets.UTF_8));
                    }
                    if (i >= 0) {
                        ms[i] = (System.nanoTime() - t) / 1e6;
                        bytes += r.body().length;
                    }
                }
                Arrays.sort(ms);
                System.out.printf("%-45s %8.1f %8.1f %8.1f %8.1f  (%,d bytes)%n", d.getKey(),
                        AlertLatencyBenchmark.pct(ms, 50), AlertLatencyBenchmark.pct(ms, 90),
                        AlertLatencyBenchmark.pct(ms, 99), ms[ms.length - 1], bytes / rounds);
            }
            byte[] pdf = service.getBytes(alert + ".pdf?lang=fr", ADMIN).body();
            List<String> failures = PdfChecks.pdfa3uFailures(pdf);
            try (PdfDocument doc = new PdfDocument(new PdfReader(new ByteArrayInputStream(pdf)))) {
                PdfArray af = doc.getCatalog().getPdfObject().getAsArray(PdfName.AF);
                long csvLines = af.size() < 2 ? 0 : new String(af.getAsDictionary(1).getAsDictionary(PdfName.EF)
                        .getAsStream(PdfName.F).getBytes(), StandardCharsets.UTF_8).lines().count() - 1;
                System.out.printf("%,d-request alert (French): %d pages, %,d bytes, %d attached files, %,d lines in "
                        + "its CSV; veraPDF PDF/A-3u: %s%n", requests, doc.getNumberOfPages(), pdf.length, af.size(),
                        csvLines, failures.isEmpty() ? "compliant" : failures);
            }
            Path kept = PdfChecks.RENDERS.resolve("bench-" + requests + "-request-alert.pdf");
            Files.createDirectories(kept.getParent());
            Files.write(kept, pdf);
            System.out.println("kept in " + kept);
        }
    }

    /** Posts the log of {@link Api#leakLines} in batches; returns the incident's id. */
    private static String load(ServiceProcess service, String prefix, String victim, String reader, int n)
            throws Exception {
        List<String> lines = Api.leakLines(prefix, victim, reader, n);
        for (int from = 0; from < lines.size(); from += 5000) {
            List<String> batch = lines.subList(from, Math.min(lines.size(), from + 5000));
            HttpResponse<String> r = service.postNdjson(String.join("\n", batch) + "\n", ADMIN);
            if (r.statusCode() != 200 || !r.body().contains("\"accepted\":" + batch.size())) {
                throw new IllegalStateException("answer " + r.statusCode() + ": " + r.body());
            }
        }
        Matcher m = Pattern.compile("\"id\"\\s*:\\s*\"([0-9a-f-]{36})\"[^}]*?\"deployment\"\\s*:\\s*\"" + prefix
                + "/dep\"").matcher(service.get("/api/incidents", ADMIN).body());
        if (!m.find()) {
            throw new IllegalStateException("no incident on " + prefix + "/dep");
        }
        return m.group(1);
    }

    private static void check(HttpResponse<String> r) {
        AlertLatencyBenchmark.check(r.statusCode());
    }
}
