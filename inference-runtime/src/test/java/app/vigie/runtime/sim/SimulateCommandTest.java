package app.vigie.runtime.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;

import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.sun.net.httpserver.HttpServer;

class SimulateCommandTest {
    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return SimulateCommand.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void writesAGzippedLogAndTheGroundTruthWithProgress() throws IOException {
        Path log = dir.resolve("log.ndjson.gz");
        Path truth = dir.resolve("truth.json");
        assertThat(run("--scenario", "incident-2026", "--tenants", "4", "--requests", "200", "--faults", "all",
                "--out", log.toString(), "--truth", truth.toString())).isZero();
        List<String> lines;
        try (InputStream in = new GZIPInputStream(Files.newInputStream(log))) {
            lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
        assertThat(lines).hasSizeGreaterThan(400).allSatisfy(l -> assertThat(l).startsWith("{\"v\":1,"));
        assertThat(err.toString()).contains("simulated 200 of 200 requests (100%)").contains("(50%)");
        assertThat(out.toString()).contains("200 requests").contains("carried other requests' tokens");
        assertThat(Files.readString(truth)).contains("\"readers\":[").containsPattern("\"victims\":\\[\\{\"request\":\"r[0-9a-z]+-[0-9]+\"");
    }

    /** Continuous batching from the command line: what batching did is printed after the summary. */
    @Test
    void batchedSchedulingIsAnOptionAndSaysWhatItDid() throws IOException {
        Path log = dir.resolve("batched.ndjson");
        assertThat(run("--scenario", "colocated", "--tenants", "4", "--requests", "300", "--scheduling", "batched",
                "--rate", "200", "--out", log.toString())).isZero();
        Matcher m = Pattern.compile("batched: ([\\d,]+) steps, ([\\d,]+) with prompt chunks and decodes together, at"
                + " most (\\d+) requests in a step and (\\d+) in flight").matcher(out.toString());
        assertThat(m.find()).as(out.toString()).isTrue();
        assertThat(Integer.parseInt(m.group(3))).isGreaterThan(1);
        assertThat(Integer.parseInt(m.group(4))).isGreaterThan(1);
        assertThat(Files.readAllLines(log)).isNotEmpty();
        assertThat(run("--scheduling", "parallel", "--out", dir.resolve("y").toString())).isEqualTo(2);
        assertThat(err.toString()).contains("one-at-a-time", "batched");
    }

    /**
     * The pull transport from the command line (spec 1.3, amendment 3): every transfer's XFER_DONE comes on its
     * sender's stream after all its XFER_SENDs, one per transfer; with the free during a transfer, some come after
     * the sender freed the pages (and another request wrote them). A colocated node transfers nothing: refused.
     */
    @Test
    void thePullTransportClosesEachTransferAfterItsSends() throws IOException {
        Path log = dir.resolve("pull.ndjson");
        assertThat(run("--scenario", "incident-2026", "--tenants", "4", "--requests", "200", "--faults",
                "free-during-transfer", "--transport", "pull", "--out", log.toString())).isZero();
        Map<String, Integer> sends = new HashMap<>();
        Map<String, Integer> done = new HashMap<>();
        Set<String> freedFirst = new HashSet<>();
        Set<String> freed = new HashSet<>();
        for (String line : Files.readAllLines(log)) {
            Matcher send = Pattern.compile("\"type\":\"XFER_SEND\",\"request\":\"([^\"]+)\".*\"transfer\":\"([^\"]+)\"")
                    .matcher(line);
            Matcher close = Pattern.compile("\"type\":\"XFER_DONE\",\"request\":\"([^\"]+)\".*\"transfer\":\"([^\"]+)\"")
                    .matcher(line);
            Matcher free = Pattern.compile("\"type\":\"FREE\",\"request\":\"([^\"]+)\"").matcher(line);
            if (send.find()) {
                assertThat(done).as("a send after its transfer's XFER_DONE").doesNotContainKey(send.group(2));
                sends.merge(send.group(2), 1, Integer::sum);
            } else if (close.find()) {
                assertThat(sends).as("XFER_DONE of a transfer never sent").containsKey(close.group(2));
                done.merge(close.group(2), 1, Integer::sum);
                if (freed.contains(close.group(1))) {
                    freedFirst.add(close.group(1));
                }
            } else if (free.find()) {
                freed.add(free.group(1));
            }
        }
        assertThat(done.keySet()).isEqualTo(sends.keySet()).isNotEmpty();
        assertThat(done.values()).containsOnly(1);
        assertThat(freedFirst).as("transfers whose sender freed the pages in flight").isNotEmpty();
        assertThat(run("--scenario", "colocated", "--transport", "pull", "--out", dir.resolve("c").toString()))
                .isEqualTo(2);
        assertThat(err.toString()).contains("a colocated node transfers nothing");
    }

    @Test
    void badArgumentsSayWhatIsWrongAndExitWithTwo() {
        assertThat(run("--faults", "pool-too-small", "--out", dir.resolve("x").toString())).isEqualTo(2);
        assertThat(err.toString()).contains("unknown fault 'pool-too-small'").contains("pool-smaller-than-window");
        assertThat(run("--requests", "10")).isEqualTo(2);
        assertThat(err.toString()).contains("give one of --out FILE, --vigie URL or --kafka BOOTSTRAP");
        assertThat(run("--scenario", "monolithic", "--out", dir.resolve("z").toString())).isEqualTo(2);
        assertThat(err.toString()).contains("unknown scenario 'monolithic'; one of incident-2026, incident-2026-full, colocated, disaggregated");
        assertThat(run("--tenants", "0", "--out", dir.resolve("y").toString())).isEqualTo(2);
        assertThat(err.toString()).contains("tenants must be 1 to 1000");
    }

    @Test
    void aLinesStreamIsItsKafkaKey() {
        assertThat(Sinks.streamOf("{\"v\":1,\"stream\":\"eu/n1/dp0\",\"boot\":\"b\"}")).isEqualTo("eu/n1/dp0");
        assertThat(Sinks.streamOf("{\"v\":1,\"stream\":\"a\\\"b\\u00e9\",\"boot\":\"b\"}")).isEqualTo("a\"bé");
        Assertions.assertThatThrownBy(() -> Sinks.streamOf("{\"stream\":1}"))
                .hasMessageContaining("not a line of AuditLogWriter");
    }

    @Test
    void theHttpSinkPostsBatchesWithCredentialsAndStopsWhenALineIsRejected() throws Exception {
        List<String> bodies = new ArrayList<>();
        List<String> auth = new ArrayList<>();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        boolean[] reject = {false};
        server.createContext("/api/audit-log", ex -> {
            bodies.add(new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            auth.add(ex.getRequestHeaders().getFirst("Authorization"));
            byte[] answer = (reject[0] ? "{\"accepted\":0,\"rejected\":[{\"line\":1,\"reason\":\"x\"}]}"
                    : "{\"accepted\":3,\"rejected\": []}").getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(200, answer.length);
            ex.getResponseBody().write(answer);
            ex.close();
        });
        server.start();
        try {
            URI base = URI.create("http://127.0.0.1:" + server.getAddress().getPort());
            try (Sinks.Sink sink = Sinks.http(base, "ingest", "secret", 2)) {
                sink.accept("a");
                sink.accept("b");
                sink.accept("c");
            }
            assertThat(bodies).containsExactly("a\nb\n", "c\n");
            assertThat(auth).allMatch(a -> a.equals("Basic " + Base64.getEncoder()
                    .encodeToString("ingest:secret".getBytes(StandardCharsets.UTF_8))));
            reject[0] = true;
            Sinks.Sink sink = Sinks.http(base, "ingest", "secret", 1);
            Assertions.assertThatThrownBy(() -> sink.accept("d"))
                    .hasMessageContaining("answered 200").hasMessageContaining("reason");
        } finally {
            server.stop(0);
        }
    }
}
