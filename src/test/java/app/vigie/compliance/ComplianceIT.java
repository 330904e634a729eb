package app.vigie.compliance;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.itextpdf.kernel.pdf.PdfDocument;
import com.itextpdf.kernel.pdf.PdfReader;
import com.itextpdf.signatures.SignatureUtil;

import app.vigie.runtime.log.AuditLogWriter;
import app.vigie.runtime.log.PageRun;
import app.vigie.testing.Logs;
import app.vigie.testing.PdfChecks;
import app.vigie.testing.ServiceProcess;

/**
 * The packaged jar and its rules: a broken rule file stops start-up naming its file and line; run away from the
 * checkout, it uses the copy of the rules it carries; escalations written before a hard kill are not repeated
 * after the restart, and the one that fell due while it was down is written then, once.
 */
class ComplianceIT {
    private static final String PASSWORD = "it-admin-password";
    private static final String ADMIN = "admin:" + PASSWORD;
    private final ObjectMapper json = new ObjectMapper();

    @Test
    void aBrokenRuleFileStopsStartUpNamingItsFileAndLine(@TempDir Path tmp) throws Exception {
        Path rules = tmp.resolve("rules");
        Files.createDirectories(rules);
        try (Stream<Path> s = Files.list(Path.of("compliance-rules"))) {
            for (Path p : s.toList()) {
                Files.copy(p, rules.resolve(p.getFileName()));
            }
        }
        List<String> gdpr = Files.readAllLines(rules.resolve("gdpr.yaml"));
        int line = gdpr.indexOf("    due: PT72H") + 1;
        assertThat(line).isPositive();
        gdpr.set(line - 1, "    due: 72 hours");
        Files.write(rules.resolve("gdpr.yaml"), gdpr);

        ServiceProcess service = new ServiceProcess(tmp.resolve("data"), Map.of("VIGIE_ADMIN_PASSWORD", PASSWORD,
                "VIGIE_COMPLIANCE_RULES_DIR", rules.toString()));
        int exit = service.startExpectingExit();
        assertThat(exit).isNotZero();
        assertThat(service.log()).contains(rules + "/gdpr.yaml line " + line).contains("'72 hours'")
                .doesNotContain("Listening on");
    }

    @Test
    void escalationsSurviveAHardKillWithoutRepeatsOrLossesUsingTheRulesTheJarCarries(@TempDir Path tmp)
            throws Exception {
        Path elsewhere = Files.createDirectories(tmp.resolve("cwd"));
        Path keystore = PdfChecks.keystore(tmp, "vigie");
        ServiceProcess service = new ServiceProcess(tmp.resolve("data"), Map.of("VIGIE_ADMIN_PASSWORD", PASSWORD,
                "VIGIE_COMPLIANCE_ESCALATIONS", "PT30S,PT15S,PT0S",
                "VIGIE_COMPLIANCE_ESCALATION_CHECK_EVERY", "1s", "VIGIE_SIGNING_KEYSTORE", keystore.toString(),
                "VIGIE_SIGNING_PASSWORD", "test-pass")).in(elsewhere);
        try (service) {
            service.start();
            assertThat(service.log()).contains("from the copy inside the application");
            assertThat(service.send("PUT", "/api/tenants/acme", "{\"legal_name\":\"Acme SAS\",\"country\":\"FR\","
                    + "\"alert_delay\":\"PT40S\"}", ADMIN).statusCode()).isEqualTo(200);
            Instant t = Instant.now();
            List<String> lines = new ArrayList<>();
            AuditLogWriter w = new AuditLogWriter("it/s", "it/dep", "b1", lines::add);
            w.config(t, 4, 16, 64, 60);
            w.alloc(t, "a", "acme", List.of(new PageRun(0, 2)), "PREFILL", null);
            w.write(t, "a", "acme", 0, 8, "COMPUTE", null);
            w.free(t, "a", List.of(new PageRun(0, 2)), "FINISH");
            w.alloc(t, "b", "globex", List.of(new PageRun(0, 2)), "PREFILL", null);
            w.attach(t, "b", "globex", 8);
            w.finish(t, "b", "globex", "STOP", 200, 3, true);
            assertThat(service.postNdjson(Logs.body(lines), ADMIN).statusCode()).isEqualTo(200);
            JsonNode incident = json.readTree(service.get("/api/incidents", ADMIN).body()).get(0);
            String id = incident.get("id").asText();
            Instant detected = Instant.parse(incident.get("detected_at").asText());
            Instant due = detected.plusSeconds(40);

            awaitSteps(service, id, List.of("T-30S"), detected.plusSeconds(25));
            service.kill();  // no shutdown hook: T-15S falls due while the service is down
            sleepUntil(due.minusSeconds(12));
            Instant restarted = Instant.now();
            service.start();
            awaitSteps(service, id, List.of("T-30S", "T-15S", "OVERDUE"), due.plusSeconds(20));

            List<JsonNode> steps = steps(service, id);
            JsonNode missed = steps.get(1);
            assertThat(Instant.parse(missed.get("fire_at").asText())).isEqualTo(due.minusSeconds(15));
            assertThat(Instant.parse(missed.get("fired_at").asText()))
                    .as("written after the restart, not lost").isAfter(restarted);
            assertThat(steps.get(2).get("status").asText()).isEqualTo("LATE");
            JsonNode obligations = json.readTree(service.get("/api/incidents/" + id + "/tenants/acme/obligations",
                    ADMIN).body());
            assertThat(obligations.get(0).get("due_basis").asText()).isEqualTo("CONTRACT");
            assertThat(Instant.parse(obligations.get(0).get("due_at").asText())).isEqualTo(due);

            // the packaged service carries its templates and fonts, and signs its PDFs with the configured key
            HttpResponse<byte[]> pdf = service.getBytes("/api/incidents/" + id
                    + "/tenants/acme/documents/processor-alert.pdf", ADMIN);
            assertThat(pdf.statusCode()).isEqualTo(200);
            assertThat(PdfChecks.pdfa3uFailures(pdf.body())).isEmpty();
            try (PdfDocument doc = new PdfDocument(
                    new PdfReader(new ByteArrayInputStream(pdf.body())))) {
                SignatureUtil util = new SignatureUtil(doc);
                assertThat(util.getSignatureNames()).containsExactly("vigie-signature");
                assertThat(util.readSignatureData("vigie-signature").verifySignatureIntegrityAndAuthenticity())
                        .isTrue();
            }
        }
    }

    private List<JsonNode> steps(ServiceProcess service, String id) throws Exception {
        HttpResponse<String> r = service.get("/api/incidents/" + id + "/escalations", ADMIN);
        assertThat(r.statusCode()).isEqualTo(200);
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode e : json.readTree(r.body())) {
            if ("acme".equals(e.get("tenant").asText()) && "gdpr-33-2".equals(e.get("rule").asText())) {
                out.add(e);
            }
        }
        return out;
    }

    /** Waits until the alert's escalations are exactly {@code expected}; fails if they are not by {@code until}. */
    private void awaitSteps(ServiceProcess service, String id, List<String> expected, Instant until)
            throws Exception {
        List<String> got = List.of();
        while (Instant.now().isBefore(until.plus(Duration.ofSeconds(5)))) {
            got = steps(service, id).stream().map(e -> e.get("step").asText()).toList();
            if (got.equals(expected)) {
                return;
            }
            assertThat(got.size() <= expected.size() && expected.subList(0, got.size()).equals(got))
                    .as("no step beyond those expected, none twice: " + got).isTrue();
            Thread.sleep(200);
        }
        assertThat(got).as("escalations by " + until).isEqualTo(expected);
    }

    private static void sleepUntil(Instant t) throws InterruptedException {
        long ms = Duration.between(Instant.now(), t).toMillis();
        if (ms > 0) {
            Thread.sleep(ms);
        }
    }
}
