package app.vigie.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.zip.GZIPOutputStream;

import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import app.vigie.security.AccountService;
import app.vigie.testing.Api;
import app.vigie.testing.Logs;
import app.vigie.testing.Projection;
import app.vigie.testing.ServiceProcess;

/**
 * The packaged jar in embedded mode: no external service, state under VIGIE_DATA_DIR, which survives a graceful
 * restart and a {@code kill -9}; the replay command; the generated admin password.
 */
class EmbeddedModeIT {
    private static final String PASSWORD = "it-admin-password";
    private static final String ADMIN = "admin:" + PASSWORD;
    private static final List<String> EXAMPLES = List.of("01-benign-colocated", "02-partial-overwrite",
            "03-pd-rejected-prompt", "04-prefix-shared-same-tenant");
    private final ObjectMapper json = new ObjectMapper();

    @Test
    void ingestsTheExamplesAndKeepsEverythingAcrossAHardKillAndARestart(@TempDir Path tmp) throws Exception {
        Path data = tmp.resolve("data");
        Map<String, String> env = Map.of("VIGIE_ADMIN_PASSWORD", PASSWORD);
        long total = 0;
        try (ServiceProcess service = new ServiceProcess(data, env).start()) {
            for (String name : EXAMPLES) {
                JsonNode expected = json.readTree(Api.example(name + ".expected.json")).get("batches").get(0);
                JsonNode answer = post(service, Api.example(name + ".ndjson"));
                assertThat(answer.get("accepted").asLong()).as(name).isEqualTo(expected.get("accepted").asLong());
                assertThat(answer.get("duplicates").asLong()).isEqualTo(expected.get("duplicates").asLong());
                assertThat(answer.get("pending").asLong()).isEqualTo(expected.get("pending").asLong());
                assertThat(answer.get("rejected")).hasSize(expected.get("rejected_lines").size());
                total += answer.get("accepted").asLong();
            }
            // the provider's identity is not configured here: documents say what to complete, in their language,
            // and no notification to an authority can be issued
            JsonNode incident = null;
            for (JsonNode i : json.readTree(service.get("/api/incidents", ADMIN).body())) {
                if (i.path("deployment").asText().equals("glm-5.3/prod-eu")) {
                    incident = i;
                }
            }
            String docs = "/api/incidents/" + incident.path("id").asText() + "/tenants/acme/documents/";
            assertThat(service.get(docs + "processor-alert.html?lang=fr", ADMIN).body())
                    .contains("à compléter (nom du sous-traitant non renseigné)").doesNotContain("VIGIE_PROVIDER");
            assertThat(service.get(docs + "authority-notification.html?lang=en", ADMIN).body())
                    .contains("to be completed (the processor&#39;s name is not configured)");
            HttpResponse<String> refused = service.send("POST", docs + "authority-notification/versions", "", ADMIN);
            assertThat(refused.statusCode()).as(refused.body()).isEqualTo(409);
            assertThat(refused.body()).contains("VIGIE_PROVIDER_NAME");

            String late = Logs.body(Logs.stream("it/after-kill", 25));
            assertThat(post(service, late).get("accepted").asLong()).isEqualTo(25);
            total += 25;
            service.kill();
            assertThat(Files.exists(data.resolve("postgres"))).isTrue();

            service.start();
            for (String name : EXAMPLES) {
                JsonNode again = post(service, Api.example(name + ".ndjson"));
                assertThat(again.get("accepted").asLong()).as(name).isZero();
                assertThat(again.get("duplicates").asLong()).isEqualTo(Api.lines(Api.example(name + ".ndjson")).size());
            }
            assertThat(post(service, late).get("duplicates").asLong()).isEqualTo(25);
            assertThat(acceptedInStreams(service)).isEqualTo(total);

            assertThat(service.stop()).as("exit code of a SIGTERM stop").isIn(0, 143);
            assertThat(data.resolve("postgres").resolve("postmaster.pid")).as("PostgreSQL stopped with the service")
                    .doesNotExist();
            service.start();
            assertThat(acceptedInStreams(service)).isEqualTo(total);
            String log = service.log();
            assertThat(log).contains("Embedded PostgreSQL started");
            assertThat(Pattern.compile("still holds").matcher(log).results().count()).as("orphans stopped")
                    .isEqualTo(1);
            assertThat(log.lines().filter(l -> l.contains("WARN") || l.contains("ERROR"))
                    .filter(l -> l.toLowerCase().contains("kafka"))).isEmpty();
        }
        assertThat(Files.exists(data.resolve("postgres").resolve("postmaster.pid")))
                .as("PostgreSQL stopped with the service").isFalse();
    }

    @Test
    void aScenarioSplitAroundAHardKillGivesTheUninterruptedIncident(@TempDir Path tmp) throws Exception {
        List<String> lines = Api.lines(Api.example("03-pd-rejected-prompt.ndjson"));
        try (ServiceProcess service = new ServiceProcess(tmp.resolve("data"), Map.of("VIGIE_ADMIN_PASSWORD",
                PASSWORD)).start()) {
            post(service, Logs.body(lines.subList(0, 150)));
            service.kill();
            service.start();
            post(service, Logs.body(lines.subList(150, lines.size())));

            JsonNode incidents = json.readTree(service.get("/api/incidents", ADMIN).body());
            assertThat(incidents).hasSize(1);
            ObjectNode got =
                    ((ObjectNode) incidents.get(0)).deepCopy();
            String id = got.get("id").asText();
            got.remove(List.of("id", "status", "detected_at", "status_reason"));
            got.set("exposures", json.readTree(service.get("/api/incidents/" + id + "/exposures", ADMIN).body()));
            got.set("tenants", json.readTree(service.get("/api/incidents/" + id + "/tenants", ADMIN).body()));
            JsonNode wanted = json.readTree(Api.example("03-pd-rejected-prompt.expected.json")).get("incidents")
                    .get("glm-5.3/prod-eu");
            assertThat(Projection.onto(got, wanted)).isEqualTo(wanted);
            assertThat(service.log()).contains("Rebuilt the detector of eu-par1/n21/decode/dp0");
        }
    }

    @Test
    void replaysArchivedFilesWithProgressAndASummary(@TempDir Path tmp) throws Exception {
        Path file = tmp.resolve("archive.ndjson.gz");
        List<String> lines = Logs.stream("it/replay", 120);
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file))) {
            for (int i = 0; i < lines.size(); i++) {
                out.write((lines.get(i) + "\n").getBytes(StandardCharsets.UTF_8));
                if (i == 49) {
                    out.write("{\"v\":1,\"type\":\"NOPE\"}\n".getBytes(StandardCharsets.UTF_8));
                }
            }
        }
        try (ServiceProcess service = new ServiceProcess(tmp.resolve("data"), Map.of("VIGIE_ADMIN_PASSWORD",
                PASSWORD)).start()) {
            Map.Entry<Integer, String> run = ServiceProcess.command(Map.of("VIGIE_PASSWORD", PASSWORD), "replay",
                    "--url", "http://localhost:" + service.port(), "--batch-lines", "40", "--flush",
                    file.toString());

            assertThat(run.getKey()).as(run.getValue()).isZero();
            assertThat(run.getValue()).contains("archive.ndjson.gz: 100%", "121 lines: 120 accepted",
                    "1 rejected", "flush: 0 gap(s)", ":51: field 'type' must be one of");
            JsonNode q = json.readTree(service.get("/api/quarantine?source=file", ADMIN).body());
            assertThat(q.get("items").get(0).get("position").asLong()).isEqualTo(51);
            assertThat(q.get("items").get(0).get("source_name").asText()).endsWith("archive.ndjson.gz");

            Map.Entry<Integer, String> bad = ServiceProcess.command(Map.of("VIGIE_PASSWORD", "wrong"), "replay",
                    "--url", "http://localhost:" + service.port(), file.toString());
            assertThat(bad.getKey()).isEqualTo(1);
            assertThat(bad.getValue()).contains("answered 401");
        }
    }

    @Test
    void withoutAPasswordTheAdminGetsAGeneratedOneShownOnce(@TempDir Path tmp) throws Exception {
        Path data = tmp.resolve("data");
        try (ServiceProcess service = new ServiceProcess(data, Map.of()).start()) {
            Path file = data.resolve(AccountService.ADMIN_PASSWORD_FILE);
            assertThat(PosixFilePermissions.toString(Files
                    .getPosixFilePermissions(file))).isEqualTo("rw-------");
            String generated = Files.readString(file).strip();
            assertThat(service.log()).as("the password never reaches the log").doesNotContain(generated)
                    .contains(file.toString());
            assertThat(service.get("/api/streams", "admin:" + generated).statusCode()).isEqualTo(200);
            assertThat(service.get("/api/streams", "admin:not-it").statusCode()).isEqualTo(401);
            service.stop();
            service.start();
            assertThat(Pattern.compile("generated password").matcher(service.log()).results().count()).isEqualTo(1);
            assertThat(service.log()).doesNotContain(generated);
            assertThat(service.get("/api/streams", "admin:" + generated).statusCode()).isEqualTo(200);
        }
    }

    @Test
    void whenItsDatabaseDiesTheServiceAnswers503AndRecoversOnRestart(@TempDir Path tmp) throws Exception {
        Path data = tmp.resolve("data");
        try (ServiceProcess service = new ServiceProcess(data, Map.of("VIGIE_ADMIN_PASSWORD", PASSWORD)).start()) {
            assertThat(post(service, Logs.body(Logs.stream("it/db", 10))).get("accepted").asLong()).isEqualTo(10);
            long pid = Long.parseLong(Files.readAllLines(data.resolve("postgres").resolve("postmaster.pid")).get(0));
            ProcessHandle.of(pid).orElseThrow().destroyForcibly();
            ProcessHandle.of(pid).ifPresent(h -> h.onExit().join());

            HttpResponse<String> r = service.postNdjson(Logs.body(Logs.stream("it/db2", 5)), ADMIN);
            assertThat(r.statusCode()).as(r.body()).isEqualTo(503);
            assertThat(r.headers().firstValue("Content-Type")).hasValue("application/problem+json");
            assertThat(r.headers().firstValue("Retry-After")).isPresent();
            assertThat(service.get("/q/health/ready", null).statusCode()).isEqualTo(503);

            service.kill();
            service.start();
            assertThat(post(service, Logs.body(Logs.stream("it/db", 10))).get("duplicates").asLong()).isEqualTo(10);
        }
    }

    @Test
    void anInvalidTenantsFileStopsTheStartNamingTheFileAndTheEntry(@TempDir Path tmp) throws Exception {
        Path tenants = tmp.resolve("tenants.yaml");
        Files.writeString(tenants, "tenants:\n  - id: acme\n    legal_name: ACME\n    country: France\n");
        ServiceProcess service = new ServiceProcess(tmp.resolve("data"), Map.of("VIGIE_ADMIN_PASSWORD", PASSWORD,
                "VIGIE_TENANTS_FILE", tenants.toString()));
        Assertions.assertThatThrownBy(service::start).hasMessageContaining("exited with")
                .hasMessageContaining(tenants.toString()).hasMessageContaining("entry 1 (id 'acme')")
                .hasMessageContaining("'country' must be an ISO 3166-1 alpha-2 code");
        assertThat(data(tmp).resolve("postgres").resolve("postmaster.pid")).doesNotExist();
    }

    private static Path data(Path tmp) {
        return tmp.resolve("data");
    }

    private JsonNode post(ServiceProcess service, String body) throws Exception {
        HttpResponse<String> r = service.postNdjson(body, ADMIN);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return json.readTree(r.body());
    }

    private long acceptedInStreams(ServiceProcess service) throws Exception {
        long sum = 0;
        for (JsonNode s : json.readTree(service.get("/api/streams", ADMIN).body())) {
            sum += s.get("accepted").asLong();
        }
        return sum;
    }
}
