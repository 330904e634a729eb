package app.vigie.auditlog.rest;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;

import app.vigie.runtime.log.AuditLogWriter;
import app.vigie.runtime.log.PageRun;
import app.vigie.testing.Api;
import app.vigie.testing.Logs;

/**
 * Issue 41: a runtime's log, however wrong, cannot take the service down or stall it. Each test posts what an
 * attacker would, over the real HTTP intake, and checks that the answer is the line's outcome (never a 500), that the
 * service kept what it was sent, and that it still judges a normal log right after.
 */
@QuarkusTest
class HostileInputTest {
    private static final Instant T = Instant.parse("2026-12-06T09:00:00Z");

    @Inject
    IntakeBuffers buffers;

    @Test
    void aConfigAskingForTwoBillionSlotsIsAcceptedNotJudgedAndTheNextLogIsJudged() {
        String prefix = Api.uniquePrefix();
        List<String> lines = new ArrayList<>();
        AuditLogWriter w = new AuditLogWriter(prefix + "/s", prefix + "/dep", "b1", lines::add);
        // the line of issue 41: 134,217,727 pages of 16 slots, an 8 GiB pool model
        w.config(T, 16, 134_217_727, 1_048_576, 1_000_000);
        w.alloc(T, prefix + "a", "acme", List.of(new PageRun(0, 4)), "PREFILL", null);
        w.attach(T, prefix + "a", "acme", 64);
        long heapBefore = usedHeap();

        JsonPath answer = Api.post(Logs.body(lines)).then().statusCode(200).extract().jsonPath();

        assertThat(answer.getInt("accepted")).isEqualTo(3);
        assertThat(answer.getList("rejected")).isEmpty();
        assertThat(usedHeap() - heapBefore).as("no pool model was allocated").isLessThan(1L << 30);
        String id = Api.admin().get("/api/incidents").then().statusCode(200).extract().jsonPath()
                .getString("find { it.deployment == '" + prefix + "/dep' }.id");
        assertThat(id).as("the boot's finding opens an incident").isNotNull();
        JsonPath findings = Api.admin().get("/api/incidents/" + id + "/findings").then().statusCode(200).extract()
                .jsonPath();
        assertThat(findings.getList("rule", String.class)).containsExactly("STREAM_UNSUPPORTED");
        assertThat(findings.getString("[0].detail")).contains("2147483632 slots",
                "vigie.detection.max-pool-slots");

        String next = Api.uniquePrefix();
        String leak = Api.leakingIncident(next, "acme", "globex");
        assertThat(Api.admin().get("/api/incidents/" + leak).then().statusCode(200).extract().jsonPath()
                .getString("classification")).isEqualTo("PERSONAL_DATA_BREACH");
    }

    @Test
    void slowBodiesHoldAWindowEachAndNoMoreThanTheIntakeMayHoldTogether() throws Exception {
        // the test profile: windows of 2 MiB, 8 MiB for every body together: four bodies of unknown length
        long window = 2L << 20;
        assertThat(buffers.held()).isZero();
        HttpClient client = HttpClient.newHttpClient();
        List<CountDownLatch> gates = new ArrayList<>();
        List<CompletableFuture<HttpResponse<String>>> slow = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            CountDownLatch gate = new CountDownLatch(1);
            gates.add(gate);
            slow.add(client.sendAsync(post(HttpRequest.BodyPublishers.ofInputStream(() -> new SlowBody(gate))),
                    HttpResponse.BodyHandlers.ofString()));
        }
        try {
            long until = System.nanoTime() + 20_000_000_000L;
            while (buffers.held() < 4 * window && System.nanoTime() < until) {
                Thread.sleep(20);
            }
            assertThat(buffers.held()).as("each slow body holds its window, not its length").isEqualTo(4 * window);

            HttpResponse<String> refused = client.send(post(HttpRequest.BodyPublishers.ofString("\n")),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(refused.statusCode()).isEqualTo(503);
            assertThat(refused.headers().firstValue("Retry-After")).contains("1");
            assertThat(refused.body()).contains("vigie.ingest.max-buffered-bytes");
        } finally {
            gates.forEach(CountDownLatch::countDown);
        }
        for (CompletableFuture<HttpResponse<String>> f : slow) {
            HttpResponse<String> r = f.get(60, TimeUnit.SECONDS);
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(JsonPath.from(r.body()).getInt("blank_lines")).isEqualTo(SlowBody.LINES);
        }
        assertThat(buffers.held()).isZero();
        Api.post("\n").then().statusCode(200);
    }

    @Test
    void anInvalidByteAfterTheFirstWindowSaysWhichLinesWereTakenAndTheyComeBackAsDuplicates() {
        String prefix = Api.uniquePrefix();
        List<String> lines = new ArrayList<>();
        AuditLogWriter w = new AuditLogWriter(prefix + "/s", prefix + "/dep", "b1", lines::add);
        w.config(T, 4, 16, 64, 60);
        String filler = "x".repeat(200);
        long length = 0;
        while (length < (5 << 19)) {  // 2.5 MiB: more than a window of the test profile
            w.admit(T, prefix + "r" + lines.size(), "acme", 10, true, filler);
            length += lines.get(lines.size() - 1).length() + 1;
        }
        byte[] good = Logs.body(lines).getBytes(StandardCharsets.UTF_8);
        byte[] body = Arrays.copyOf(good, good.length + 2);
        body[good.length] = (byte) 0xff;
        body[good.length + 1] = '\n';

        String detail = Api.admin().contentType(Api.NDJSON).body(body).post("/api/audit-log").then().statusCode(400)
                .extract().jsonPath().getString("detail");
        assertThat(detail).contains("malformed byte 0xff", "line " + (lines.size() + 1), "lines 1 to ",
                "were taken before", "send those again");
        long taken = Long.parseLong(detail.replaceAll(".*lines 1 to (\\d+) were taken.*", "$1"));
        assertThat(taken).isPositive().isLessThan(lines.size());

        JsonPath again = Api.post(Logs.body(lines)).then().statusCode(200).extract().jsonPath();
        assertThat(again.getLong("duplicates")).isEqualTo(taken);
        assertThat(again.getLong("accepted")).isEqualTo(lines.size() - taken);
    }

    private static HttpRequest post(HttpRequest.BodyPublisher body) {
        String basic = Base64.getEncoder().encodeToString(("admin:" + Api.ADMIN_PASSWORD)
                .getBytes(StandardCharsets.UTF_8));
        return HttpRequest.newBuilder(URI.create(RestAssured.baseURI + ":" + RestAssured.port + "/api/audit-log"))
                .header("Authorization", "Basic " + basic).header("Content-Type", Api.NDJSON)
                .header("X-Requested-With", "vigie-tests").POST(body).build();
    }

    /** Blank lines, the first 64 KiB at once, the rest once the gate opens: a body of unknown length, slow to come. */
    private static final class SlowBody extends InputStream {
        static final int LINES = 256 * 1024;
        private final CountDownLatch gate;
        private int sent;

        SlowBody(CountDownLatch gate) {
            this.gate = gate;
        }

        @Override
        public int read() {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0];
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (sent >= LINES) {
                return -1;
            }
            if (sent >= 64 * 1024) {
                try {
                    gate.await(60, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return -1;
                }
            }
            int n = Math.min(len, Math.min(LINES - sent, sent < 64 * 1024 ? 64 * 1024 - sent : LINES));
            Arrays.fill(b, off, off + n, (byte) '\n');
            sent += n;
            return n;
        }
    }

    private static long usedHeap() {
        Runtime rt = Runtime.getRuntime();
        return rt.totalMemory() - rt.freeMemory();
    }
}
