package app.vigie.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * {@code validate}: the shared examples conform and give the findings and exposures their expected files say (the
 * service's own answer, SharedExamplesTest); the conformance kit's passing logs pass (gzip and standard input
 * included) and each broken one fails with its expected problem, at its line.
 */
class ValidateCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    /** What a run printed and returned. */
    record Run(int exit, String out, String err) {
        JsonNode json() throws IOException {
            return JSON.readTree(out);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"01-benign-colocated", "02-partial-overwrite", "03-pd-rejected-prompt",
            "04-prefix-shared-same-tenant"})
    void theSharedExamplesConformWithTheServicesFindings(String name) throws Exception {
        JsonNode expected = JSON.readTree(resource("/examples/" + name + ".expected.json"));
        Run run = run(null, "--json", copy("/examples/" + name + ".ndjson"));
        JsonNode report = run.json();

        assertThat(report.get("conforms").asBoolean()).as(run.out).isTrue();
        Map<String, Integer> wanted = new TreeMap<>();
        int exposures = 0;
        for (JsonNode incident : expected.get("incidents")) {
            incident.get("findings").fields().forEachRemaining(e -> wanted.merge(e.getKey(), e.getValue().asInt(),
                    Integer::sum));
            exposures += incident.get("exposures").size();
        }
        Map<String, Integer> found = new TreeMap<>();
        report.get("finding_counts").fields().forEachRemaining(e -> found.put(e.getKey(), e.getValue().asInt()));
        assertThat(found).isEqualTo(wanted);
        assertThat(report.get("exposures")).hasSize(exposures);
        for (JsonNode incident : expected.get("incidents")) {
            for (JsonNode e : incident.get("exposures")) {
                assertThat(report.get("exposures")).anySatisfy(x -> {
                    assertThat(x.get("reader_request").asText()).isEqualTo(e.get("reader_request").asText());
                    assertThat(x.get("victim_request").asText()).isEqualTo(e.get("victim_request").asText());
                    assertThat(x.get("tokens").asInt()).isEqualTo(e.get("tokens").asInt());
                    assertThat(x.get("kind").asText()).isEqualTo(e.get("kind").asText());
                });
            }
        }
        assertThat(run.exit).isEqualTo(wanted.isEmpty() ? 0 : 1);
        assertThat(report.get("exit").asInt()).isEqualTo(run.exit);
    }

    @Test
    void thePassingLogsPassFromAFileAGzipFileAndTheStandardInput() throws Exception {
        Run one = run(null, copy("/conformance/pass/one-request.ndjson"));
        assertThat(one.exit).as(one.out).isZero();
        assertThat(one.out).contains("8 records (0 duplicates), 1 stream(s)").contains("conforms: yes")
                .contains("findings: none").contains("exit 0");

        Run gz = run(null, "--json", copy("/conformance/pass/benign-colocated.ndjson.gz"));
        assertThat(gz.exit).as(gz.out).isZero();
        assertThat(gz.json().get("records").asLong()).isEqualTo(321);

        Run stdin = run(resource("/examples/01-benign-colocated.ndjson"), "--json", "-");
        assertThat(stdin.exit).isZero();
        assertThat(stdin.json().get("records").asLong()).isEqualTo(321);

        // the same records twice: duplicates, as the service counts them, not a problem
        String log = copy("/conformance/pass/one-request.ndjson");
        Run twice = run(null, "--json", log, log);
        assertThat(twice.exit).isZero();
        assertThat(twice.json().get("duplicates").asLong()).isEqualTo(8);
    }

    @ParameterizedTest
    @ValueSource(strings = {"not-json", "conflicting-duplicate", "missing-seq", "write-before-alloc",
        "unsent-transfer", "extension-not-declared"})
    void eachBrokenLogFailsWithItsProblem(String name) throws Exception {
        // NAME.expected: kind, line, words the message must contain, separated by |
        String[] wanted = new String(resource("/conformance/broken/" + name + ".expected"), StandardCharsets.UTF_8)
                .strip().split("\\|");
        Run run = run(null, "--json", copy("/conformance/broken/" + name + ".ndjson"));
        assertThat(run.exit).as(run.out).isEqualTo(2);
        JsonNode report = run.json();
        assertThat(report.get("conforms").asBoolean()).isFalse();
        // the first problem, in line order, is the one the log was broken with (what follows from it may come after:
        // a line rejected leaves its seq missing)
        JsonNode problem = report.get("problems").get(0);
        assertThat(problem.get("kind").asText()).isEqualTo(wanted[0]);
        assertThat(problem.get("line").asLong()).isEqualTo(Long.parseLong(wanted[1]));
        assertThat(problem.get("message").asText()).contains(wanted[2]);

        Run text = run(null, copy("/conformance/broken/" + name + ".ndjson"));
        assertThat(text.out).contains("conforms: no, ").contains(":" + wanted[1] + " " + wanted[0])
                .contains(wanted[2]).contains("exit 2");
    }

    /**
     * Spec v1.2: a preempted request re-admitted starts a new table ({@code restart}); its recomputation writes there,
     * so the request that took its pages reads its own. Without {@code restart}, the recomputation would write the old
     * table, the other request's pages: a cross-tenant read (the same log without the field shows it).
     */
    @Test
    void aRestartedTableAfterAPreemptionIsQuiet() throws Exception {
        String log = copy("/conformance/pass/preemption-restart-v1.2.ndjson");
        Run quiet = run(null, "--json", log);
        assertThat(quiet.exit).as(quiet.out).isZero();
        Path without = dir.resolve("without-restart.ndjson");
        Files.writeString(without, Files.readString(Path.of(log)).replace(", \"restart\": true", ""));
        Run leak = run(null, "--json", without.toString());
        assertThat(leak.exit).as(leak.out).isEqualTo(1);
        assertThat(leak.json().get("exposures").get(0).get("reader_request").asText()).isEqualTo("req-b");
    }

    /**
     * Logs that conform and whose one finding is a fault of the log. Spec 1.3, amendment 6: a restart while the request
     * still owns pages is applied, not invalid (1.2 made it a problem, exit 2), and the missing FREE is a finding.
     * Amendment 1: a boot declaring an extension this Vigie does not know is not judged (STREAM_UNSUPPORTED, its read
     * of slots never written not reported), and the other stream is judged. Amendment 2: a retry (transfer t2) of
     * stale pages to another receiver is the sender's fault, not an exposure of the receiver here, which got t1.
     * Amendment 3: a write to a slot in flight is a possible exposure at the read, no certain one. NAME.expected: rule,
     * subject, seq of the record that raised it, separated by |.
     */
    @ParameterizedTest
    @ValueSource(strings = {"restart-while-owning-v1.3", "unknown-extension-v1.3", "retry-to-another-receiver-v1.3",
        "overwritten-in-flight-v1.3"})
    void eachFaultyLogConformsWithItsFinding(String name) throws Exception {
        String[] wanted = new String(resource("/conformance/faulty/" + name + ".expected"), StandardCharsets.UTF_8)
                .strip().split("\\|");
        Run run = run(null, "--json", copy("/conformance/faulty/" + name + ".ndjson"));
        assertThat(run.exit).as(run.out).isEqualTo(1);
        JsonNode report = run.json();
        assertThat(report.get("conforms").asBoolean()).isTrue();
        assertThat(report.get("problems")).isEmpty();
        // nothing exposed for certain (amendment 3: a write in flight exposes possibly, aWriteInFlightIsAPossibleExposure)
        assertThat(report.get("exposures")).allSatisfy(e -> assertThat(e.get("possible").asBoolean()).isTrue());
        JsonNode finding = report.get("findings").get(0);
        assertThat(report.get("findings")).hasSize(1);
        assertThat(finding.get("rule").asText()).isEqualTo(wanted[0]);
        assertThat(finding.get("subject").asText()).isEqualTo(wanted[1]);
        assertThat(finding.get("first_seq").asLong()).isEqualTo(Long.parseLong(wanted[2]));
    }

    /**
     * Spec 1.3, amendment 4 (chains): req-a's t1 carried req-x's stale content from the prefill node to a decode node,
     * which sent it on (t2) to a second one where req-a read it. The origin there is where it was first received:
     * req-x, a cross-tenant read. One hop (1.1) named req-a itself and found nothing but the sender's fault. The
     * forwarding send is not foreign (decided on its node: req-a's own received positions). In every order of the
     * three streams.
     */
    @Test
    void aPositionForwardedTwiceIsJudgedAtItsOrigin() throws Exception {
        List<String> lines = Files.readAllLines(Path.of(copy("/conformance/pass/forwarded-twice-v1.3.ndjson")));
        List<List<String>> orders = List.of(lines, reordered(lines, "n22", "n21", "n17"),
                reordered(lines, "n21", "n17", "n22"));
        for (List<String> order : orders) {
            Path log = Files.createTempFile("forwarded", ".ndjson");
            Files.write(log, order);
            Run run = run(null, "--json", log.toString());
            assertThat(run.exit).as(run.out).isEqualTo(1);
            JsonNode report = run.json();
            assertThat(report.get("conforms").asBoolean()).isTrue();
            assertThat(report.get("exposures")).singleElement().satisfies(e -> {
                assertThat(e.get("reader_request").asText()).isEqualTo("req-a");
                assertThat(e.get("victim_request").asText()).isEqualTo("req-x");
                assertThat(e.get("kind").asText()).isEqualTo("CROSS_TENANT");
                assertThat(e.get("tokens").asInt()).isEqualTo(8);
                assertThat(e.get("delivered").asBoolean()).isTrue();
            });
            Map<String, String> findings = new TreeMap<>();
            report.get("findings").forEach(f -> findings.put(f.get("rule").asText(), f.get("stream").asText() + "#"
                    + f.get("first_seq").asLong()));
            assertThat(findings).isEqualTo(Map.of("CROSS_TENANT_READ", "par1/n22/decode/dp0#4",
                    "TRANSFER_SENT_FOREIGN", "par1/n17/prefill/dp0#6"));
        }
    }

    /**
     * Amendments 4 and 5 in validate: without the prefill's stream, the read at the second decode node is held at the
     * first hop. The problem names that hop's transfer (t1), not the read's own (t2), whose send is there; the end of
     * the log judges it there as in version 1 (req-a, which received t1, is the reader itself: no exposure) with
     * TRANSFER_SEND_MISSING on req-a.
     */
    @Test
    void aChainHeldAtAHopNamesThatHop() throws Exception {
        List<String> lines = Files.readAllLines(Path.of(copy("/conformance/pass/forwarded-twice-v1.3.ndjson")));
        Path log = Files.createTempFile("forwarded", ".ndjson");
        Files.write(log, lines.stream().filter(l -> !l.contains("/n17/")).toList());
        Run run = run(null, "--json", log.toString());
        assertThat(run.exit).as(run.out).isEqualTo(2);
        JsonNode report = run.json();
        assertThat(report.get("problems")).singleElement().satisfies(p -> {
            assertThat(p.get("kind").asText()).isEqualTo("unsent");
            assertThat(p.get("message").asText()).contains("the XFER_SEND of req-a (transfer t2) sent on positions"
                    + " received by a transfer of req-a (transfer t1), and no XFER_SEND of that transfer covers");
        });
        assertThat(report.get("exposures")).isEmpty();
        assertThat(report.get("finding_counts").toString()).contains("\"TRANSFER_SEND_MISSING\":1");
    }

    /** The lines of {@code lines}, the streams whose name contains each of {@code nodes} in that order. */
    private static List<String> reordered(List<String> lines, String... nodes) {
        List<String> out = new ArrayList<>();
        for (String node : nodes) {
            lines.stream().filter(l -> l.contains("/" + node + "/")).forEach(out::add);
        }
        return out;
    }

    /**
     * Spec 1.3, amendment 3: req-a's pages were freed and written by another tenant's request between the send's
     * XFER_SEND and its XFER_DONE: what req-a read at the receiver may be globex's. A possible exposure, apart from the
     * certain ones, and TRANSFER_OVERWRITTEN_IN_FLIGHT at the read; not a cross-tenant read.
     */
    @Test
    void aWriteInFlightIsAPossibleExposure() throws Exception {
        Run run = run(null, "--json", copy("/conformance/faulty/overwritten-in-flight-v1.3.ndjson"));
        assertThat(run.exit).as(run.out).isEqualTo(1);
        JsonNode report = run.json();
        assertThat(report.get("conforms").asBoolean()).isTrue();
        assertThat(report.get("findings")).hasSize(1);
        JsonNode f = report.get("findings").get(0);
        assertThat(f.get("rule").asText()).isEqualTo("TRANSFER_OVERWRITTEN_IN_FLIGHT");
        assertThat(f.get("subject").asText()).isEqualTo("req-a");
        assertThat(f.get("stream").asText()).isEqualTo("par1/n21/decode/dp0");
        assertThat(f.get("first_seq").asLong()).isEqualTo(4);
        assertThat(report.get("exposures")).hasSize(1);
        JsonNode e = report.get("exposures").get(0);
        assertThat(e.get("victim_request").asText()).isEqualTo("req-x");
        assertThat(e.get("kind").asText()).isEqualTo("CROSS_TENANT");
        assertThat(e.get("tokens").asInt()).isEqualTo(4);
        assertThat(e.get("possible").asBoolean()).isTrue();
        assertThat(e.get("delivered").asBoolean()).isTrue();

        Run text = run(null, copy("/conformance/faulty/overwritten-in-flight-v1.3.ndjson"));
        assertThat(text.out).contains("exposures: 0 cross-tenant, 0 intra-tenant; 0 response(s) delivered with"
                + " another tenant's tokens; 1 possible").contains("read 4 token(s) of globex/req-x, delivered"
                + " (possible)");

        // without its XFER_DONE the send was an instant read, before the write: nothing to say
        Path log = Path.of(copy("/conformance/faulty/overwritten-in-flight-v1.3.ndjson"));
        Files.write(log, Files.readAllLines(log).stream().filter(l -> !l.contains("XFER_DONE")).toList());
        Run quiet = run(null, "--json", log.toString());
        assertThat(quiet.exit).as(quiet.out).isZero();
        assertThat(quiet.json().get("exposures")).isEmpty();
    }

    @Test
    void anUnsentReadIsJudgedAsVersion1AtTheEndOfTheLog() throws Exception {
        Run run = run(null, "--json", copy("/conformance/broken/unsent-transfer.ndjson"));
        assertThat(run.exit).as(run.out).isEqualTo(2);
        JsonNode findings = run.json().get("findings");
        assertThat(findings).hasSize(1);
        assertThat(findings.get(0).get("rule").asText()).isEqualTo("TRANSFER_SEND_MISSING");
        assertThat(findings.get(0).get("subject").asText()).isEqualTo("req-a");
        assertThat(run.json().get("exposures")).as("req-a read what it received itself: fine in version 1").isEmpty();
    }

    /**
     * Spec v1.1: a transfer whose sender writes XFER_SEND conforms and is quiet; when the sender's pages were freed
     * and another tenant's prefill wrote them before the second chunk was sent, the reader of that chunk read the
     * other tenant's tokens: an exposure of req-b (globex), not of req-a's own transfer.
     */
    @Test
    void aSentTransferIsJudgedByItsOrigins() throws Exception {
        Run quiet = run(null, "--json", copy("/conformance/pass/transfer-v1.1.ndjson"));
        assertThat(quiet.exit).as(quiet.out).isZero();
        Run leak = run(null, "--json", copy("/conformance/pass/free-during-transfer-v1.1.ndjson"));
        assertThat(leak.exit).as(leak.out).isEqualTo(1);
        JsonNode report = leak.json();
        assertThat(report.get("conforms").asBoolean()).isTrue();
        assertThat(report.get("exposures")).hasSize(1);
        JsonNode e = report.get("exposures").get(0);
        assertThat(e.get("kind").asText()).isEqualTo("CROSS_TENANT");
        assertThat(e.get("reader_request").asText()).isEqualTo("req-a");
        assertThat(e.get("victim_request").asText()).isEqualTo("req-b");
        assertThat(e.get("victim_tenant").asText()).isEqualTo("globex");
        assertThat(e.get("tokens").asInt()).isEqualTo(4);
        assertThat(report.get("finding_counts").toString()).contains("CROSS_TENANT_READ")
                .contains("\"TRANSFER_SENT_FOREIGN\":1");
        assertThat(report.get("findings").toString()).contains("positions 4-7 of req-a of tenant acme: 4 positions"
                + " (4-7) held another request's content");
        assertThat(report.get("findings").toString()).contains("received by a transfer of req-a")
                .contains("held another tenant's tokens on the sender");
    }

    @Test
    void aLeakIsReportedWithItsReaderAndVictim() throws Exception {
        Run run = run(null, copy("/examples/03-pd-rejected-prompt.ndjson"));
        assertThat(run.exit).isEqualTo(1);
        assertThat(run.out).contains("conforms: yes").contains("CROSS_TENANT_READ")
                .contains("REJECTED_REQUEST_SERVED").containsPattern("CROSS_TENANT \\S+ read \\d+ token\\(s\\) of ")
                .contains("exit 1");
    }

    @Test
    void badUsageAndMissingFilesCannotRun() throws Exception {
        assertThat(run(null).exit).isEqualTo(ValidateCommand.CANNOT_RUN);
        assertThat(run(null, "--limit").exit).isEqualTo(ValidateCommand.CANNOT_RUN);
        assertThat(run(null, "--frobnicate", "x").exit).isEqualTo(ValidateCommand.CANNOT_RUN);
        Run missing = run(null, dir.resolve("absent.ndjson").toString());
        assertThat(missing.exit).isEqualTo(ValidateCommand.CANNOT_RUN);
        assertThat(missing.err).contains("absent.ndjson: no such file");
        Run help = run(null, "--help");
        assertThat(help.exit).isZero();
        assertThat(help.out).contains("usage: validate");
    }

    /**
     * The known causes (root-causes/) the findings match, as the service shows them: an engine team sees in CI which
     * fault its log points to. The 2026 example: a window larger than the pool, rejected prompts served; its coverage
     * gaps and reads are the reject's, and nothing is left unaccounted for.
     */
    @Test
    void theReportNamesTheKnownCausesTheFindingsMatch() throws Exception {
        String log = copy("/examples/03-pd-rejected-prompt.ndjson");
        Run json = run(null, "--json", log);
        JsonNode causes = json.json().get("causes");
        assertThat(causes.get("catalogue_version").asText()).isEqualTo("2026-12-06");
        assertThat(causes.get("matched")).extracting(c -> c.get("hint").asText())
                .containsExactly("context-exceeds-pool", "rejected-request-served");
        JsonNode reject = causes.get("matched").get(1);
        assertThat(reject.get("findings").get("TRANSFER_COVERAGE_GAP").asInt())
                .isEqualTo(reject.get("findings").get("REJECTED_REQUEST_SERVED").asInt()).isPositive();
        assertThat(causes.get("unaccounted").size()).isZero();
        Run text = run(null, log);
        assertThat(text.out).contains("probable causes (root-causes/ version 2026-12-06: hints, not proof",
                "  rejected-request-served: A rejected request served all the same. ");

        // a log whose reads have nothing else on their request: no known cause, and the report says which findings
        Run plain = run(null, copy("/examples/02-partial-overwrite.ndjson"));
        assertThat(plain.out).contains("none of the known runtime faults matches these findings",
                "findings no known cause accounts for: ");

        // another catalogue, named; a broken one stops the command before it reads the log
        Path broken = dir.resolve("broken.yaml");
        Files.writeString(broken, Files.readString(Path.of("root-causes/root-causes.yaml"))
                .replace("matches: [REJECTED_REQUEST_SERVED]", "matches: [REJECTED]"));
        Run refused = run(null, "--root-causes", broken.toString(), log);
        assertThat(refused.exit).isEqualTo(3);
        assertThat(refused.err).contains("root-cause hints refused", "no finding rule 'REJECTED'");
    }

    private Run run(byte[] stdin, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        InputStream in = new ByteArrayInputStream(stdin == null ? new byte[0] : stdin);
        int exit = ValidateCommand.run(args, in,
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** The resource as a file of the temporary directory: its path. */
    private String copy(String resource) throws IOException {
        Path p = dir.resolve(resource.substring(resource.lastIndexOf('/') + 1));
        Files.write(p, resource(resource));
        return p.toString();
    }

    private static byte[] resource(String name) throws IOException {
        try (InputStream in = ValidateCommandTest.class.getResourceAsStream(name)) {
            assertThat(in).as(name).isNotNull();
            return in.readAllBytes();
        }
    }
}
