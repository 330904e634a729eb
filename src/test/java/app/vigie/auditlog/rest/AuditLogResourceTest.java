package app.vigie.auditlog.rest;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static app.vigie.testing.Logs.body;
import static app.vigie.testing.Logs.pick;
import static app.vigie.testing.Logs.range;
import static app.vigie.testing.Logs.stream;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;

import app.vigie.testing.Api;
import app.vigie.testing.RecordingListener;
import app.vigie.web.DashboardActionsTest;

/** Intake over HTTP: idempotency, ordering, gaps, flush, bad lines, limits. */
@QuarkusTest
class AuditLogResourceTest {
    @Inject
    RecordingListener recorder;

    @Inject
    AgroalDataSource dataSource;

    @Test
    void aRepeatedBatchIsCountedAsDuplicatesAndAppliedOnce() {
        String prefix = Api.uniquePrefix();
        String log = Api.renamed(Api.example("02-partial-overwrite.ndjson"), prefix);

        Api.post(log).then().statusCode(200).body("accepted", equalTo(97)).body("duplicates", equalTo(0));
        Api.post(log).then().statusCode(200).body("accepted", equalTo(0)).body("duplicates", equalTo(97))
                .body("rejected.size()", equalTo(0));

        long applied = recorder.all().stream().filter(r -> r.stream().startsWith(prefix)).count();
        assertThat(applied).isEqualTo(97);
    }

    @Test
    void aDuplicateWithOtherContentIsRejectedAsAConflictAndKept() {
        String s = Api.uniquePrefix() + "/s";
        List<String> lines = stream(s, 5);
        Api.post(body(lines)).then().statusCode(200).body("accepted", equalTo(5));

        String changed = lines.get(3).replace("\"tokens\":16", "\"tokens\":15");
        assertThat(changed).isNotEqualTo(lines.get(3));
        String reformatted = lines.get(2).replace(",\"type\"", ", \"extra\": 1, \"type\"");
        JsonPath a = Api.post(changed + "\n" + reformatted + "\n").then().statusCode(200).extract().jsonPath();

        assertThat(a.getInt("accepted")).isZero();
        assertThat(a.getInt("duplicates")).isEqualTo(1);
        assertThat(a.getList("rejected.line", Integer.class)).containsExactly(1);
        assertThat(a.getString("rejected[0].reason")).contains("conflicting duplicate", s, "4");
        String batch = a.getString("batch_id");
        JsonPath q = Api.admin().get("/api/quarantine?size=500").then().statusCode(200).extract().jsonPath();
        Map<String, Object> kept = q.getList("items", Map.class).stream()
                .filter(m -> batch.equals(m.get("source_name"))).findFirst().orElseThrow();
        assertThat(kept.get("preview")).isEqualTo(changed);
        assertThat(kept.get("raw_length")).isEqualTo(changed.getBytes(StandardCharsets.UTF_8).length);
        JsonPath one = Api.admin().get("/api/quarantine/" + kept.get("id")).then().statusCode(200).extract()
                .jsonPath();
        assertThat(one.getString("raw")).isEqualTo(changed);
        assertThat(one.getBoolean("raw_truncated")).isFalse();
        assertThat(one.getString("raw_sha256")).isEqualTo(sha256(changed.getBytes(StandardCharsets.UTF_8)));
        assertThat(kept.get("source")).isEqualTo("http");
        assertThat(kept.get("position")).isEqualTo(1);
        assertThat(kept.get("stream")).isEqualTo(s);
        assertThat(kept.get("seq")).isEqualTo(4);
    }

    @Test
    void linesAreStoredExactlyAsReceivedTabsAndBackslashesIncluded() {
        String s = Api.uniquePrefix() + "/tab\\s";
        List<String> lines = stream(s, 3).stream().map(l -> l.replace(",\"", ",\t\"").replace("\":", "\"\t:\t"))
                .toList();
        Api.post(body(lines)).then().statusCode(200).body("accepted", equalTo(3));
        Api.post(body(lines)).then().statusCode(200).body("duplicates", equalTo(3)).body("accepted", equalTo(0));
        Api.post(body(stream(s, 3))).then().statusCode(200).body("duplicates", equalTo(3))
                .body("rejected.size()", equalTo(0));
        assertThat(recorder.appliedSeqs(s)).containsExactly(1L, 2L, 3L);
    }

    @Test
    void duplicatesInsideOneBatchCountOnceAndConflictsNameTheEarlierLine() {
        String s = Api.uniquePrefix() + "/s";
        List<String> lines = stream(s, 3);
        String conflicting = lines.get(2).replace("\"acme\"", "\"globex\"");
        JsonPath a = Api.post(body(List.of(lines.get(0), lines.get(1), lines.get(1), lines.get(2), conflicting)))
                .then().statusCode(200).extract().jsonPath();

        assertThat(a.getInt("accepted")).isEqualTo(3);
        assertThat(a.getInt("duplicates")).isEqualTo(1);
        assertThat(a.getList("rejected.line", Integer.class)).containsExactly(5);
        assertThat(a.getString("rejected[0].reason")).contains("line 4");
    }

    @Test
    void recordsArrivingInAnyOrderAreAppliedInSeqOrder() {
        String prefix = Api.uniquePrefix();
        List<String> lines = new ArrayList<>(Api.lines(Api.renamed(Api.example("03-pd-rejected-prompt.ndjson"),
                prefix)));
        Collections.shuffle(lines, new Random(42));

        Api.post(body(lines)).then().statusCode(200).body("accepted", equalTo(242)).body("pending", equalTo(0));

        Map<String, List<Long>> byStream = recorder.all().stream().filter(r -> r.stream().startsWith(prefix))
                .collect(Collectors.groupingBy(r -> r.stream(), Collectors.mapping(r -> r.seq(), Collectors.toList())));
        assertThat(byStream).hasSize(2);
        byStream.values().forEach(seqs -> assertThat(seqs).isEqualTo(range(1, seqs.size())));
    }

    @Test
    void recordsBehindAGapWaitUntilItArrives() {
        String s = Api.uniquePrefix() + "/s";
        List<String> lines = stream(s, 10);

        Api.post(body(pick(lines, 1, 2, 3, 5, 6, 7, 8, 9, 10))).then().statusCode(200)
                .body("accepted", equalTo(9)).body("pending", equalTo(6));
        assertThat(recorder.appliedSeqs(s)).isEqualTo(range(1, 3));
        Api.admin().get("/api/streams").then().statusCode(200)
                .body("find { it.stream == '" + s + "' }.held_back", equalTo(6))
                .body("find { it.stream == '" + s + "' }.next_seq", equalTo(4));

        Api.post(body(pick(lines, 4))).then().statusCode(200).body("accepted", equalTo(1)).body("pending", equalTo(0));
        assertThat(recorder.appliedSeqs(s)).isEqualTo(range(1, 10));
    }

    @Test
    void aBatchLargerThanAChunkSettlesWhatLaterChunksReleased() {
        String s = Api.uniquePrefix() + "/s";
        List<String> lines = new ArrayList<>(stream(s, 300));
        Collections.reverse(lines);

        Api.post(body(lines)).then().statusCode(200).body("accepted", equalTo(300)).body("pending", equalTo(0));
        assertThat(recorder.appliedSeqs(s)).isEqualTo(range(1, 300));
    }

    @Test
    void flushDeclaresGapsLostAppliesWhatTheyHeldAndRejectsLateRecords() throws Exception {
        String prefix = Api.uniquePrefix();
        String a = prefix + "/a";
        String b = prefix + "/b";
        List<String> la = stream(a, 8);
        List<String> lb = stream(b, 3);
        List<String> batch = new ArrayList<>(pick(la, 1, 2, 3, 6, 7, 8));
        batch.addAll(pick(lb, 1, 3));
        Api.post(body(batch)).then().statusCode(200).body("accepted", equalTo(8)).body("pending", equalTo(4));

        long audited = flushEvents();
        JsonPath f = Api.admin().post("/api/audit-log/flush").then().statusCode(200).extract().jsonPath();
        assertThat(flushEvents()).as("the flush is in the audit trail").isEqualTo(audited + 1);

        assertThat(f.getInt("gaps")).isGreaterThanOrEqualTo(2);
        assertThat(f.getLong("applied")).isGreaterThanOrEqualTo(4);
        assertThat(recorder.gaps(prefix)).containsExactlyInAnyOrder(a + "/b1:4-5", b + "/b1:2-2");
        assertThat(recorder.appliedSeqs(a)).containsExactly(1L, 2L, 3L, 6L, 7L, 8L);
        assertThat(recorder.appliedSeqs(b)).containsExactly(1L, 3L);

        JsonPath late = Api.post(body(pick(la, 4))).then().statusCode(200).extract().jsonPath();
        assertThat(late.getInt("accepted")).isZero();
        assertThat(late.getString("rejected[0].reason")).contains("late", "declared lost");
        Api.admin().get("/api/streams").then()
                .body("find { it.stream == '" + a + "' }.lost_gaps", equalTo(1))
                .body("find { it.stream == '" + a + "' }.lost_records", equalTo(2))
                .body("find { it.stream == '" + a + "' }.held_back", equalTo(0));
    }

    private long flushEvents() throws SQLException {
        try (var c = dataSource.getConnection(); var st = c.createStatement();
                var rs = st.executeQuery("select count(*) from audit_event where action = 'audit-log.flush'"
                        + " and actor = 'admin'")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void badLinesAreRejectedOneByOneAndNeverStopTheirNeighbours() {
        String s = Api.uniquePrefix() + "/s";
        List<String> good = stream(s, 4);
        String body = good.get(0) + "\n" + "{\"v\":1,\"type\":\"ALLOC\"}\n\r\n" + good.get(1) + "\r\n"
                + "garbage\n" + good.get(2) + "\n" + good.get(3).replace("\"tokens\":16", "\"tokens\":-2") + "\n";
        JsonPath a = Api.post(body).then().statusCode(200).extract().jsonPath();

        assertThat(a.getInt("accepted")).isEqualTo(3);
        assertThat(a.getInt("blank_lines")).isEqualTo(1);
        assertThat(a.getList("rejected.line", Integer.class)).containsExactly(2, 5, 7);
        assertThat(a.getString("rejected[0].reason")).isEqualTo("ALLOC: field 'stream' is required");
        assertThat(a.getString("rejected[2].reason")).isEqualTo("WRITE: field 'tokens' must be >= 1, got -2");
    }

    @Test
    void aLineOverOneMebibyteIsRejectedAndItsNeighboursAccepted() {
        String s = Api.uniquePrefix() + "/s";
        List<String> good = stream(s, 2);
        String huge = good.get(1).replace("\"type\"", "\"pad\":\"" + "x".repeat(1 << 20) + "\",\"type\"");
        JsonPath a = Api.post(good.get(0) + "\n" + huge + "\n" + good.get(1) + "\n").then().statusCode(200)
                .extract().jsonPath();
        assertThat(a.getInt("accepted")).isEqualTo(2);
        assertThat(a.getString("rejected[0].reason")).startsWith("line is 1048").contains("the limit is 1 MiB");
    }

    @Test
    void aBodyOverTheLimitGets413AsAProblem() {
        byte[] big = new byte[3 * 1024 * 1024 + 1];
        Arrays.fill(big, (byte) ' ');
        Api.admin().contentType(Api.NDJSON).body(big).post("/api/audit-log").then().statusCode(413)
                .contentType("application/problem+json").body("status", equalTo(413))
                .body("detail", containsString("larger than the limit"));
    }

    @Test
    void aChunkedBodyOverTheLimitGets413Too() throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        byte[] chunk = new byte[1 << 20];
        Arrays.fill(chunk, (byte) ' ');
        var request = HttpRequest.newBuilder(URI.create(
                RestAssured.baseURI + ":" + RestAssured.port + "/api/audit-log"))
                .header("Content-Type", Api.NDJSON)
                .header("Authorization", "Basic " + Base64.getEncoder()
                        .encodeToString(("admin:" + Api.ADMIN_PASSWORD).getBytes(StandardCharsets.UTF_8)))
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new SequenceInputStream(
                        Collections.enumeration(Stream.generate(
                                () -> (InputStream) new ByteArrayInputStream(chunk)).limit(5).toList()))))
                .build();
        var response = client.send(request, HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(413);
        assertThat(response.body()).contains("larger than the limit");
    }

    @Test
    void aBodyThatIsNotUtf8Gets400AndNothingIsAccepted() {
        String s = Api.uniquePrefix() + "/s";
        byte[] good = body(stream(s, 2)).getBytes(StandardCharsets.UTF_8);
        byte[] bad = Arrays.copyOf(good, good.length + 3);
        bad[good.length] = (byte) 0xc3;
        bad[good.length + 1] = '(';
        bad[good.length + 2] = '\n';
        Api.admin().contentType(Api.NDJSON).body(bad).post("/api/audit-log").then().statusCode(400)
                .contentType("application/problem+json").body("detail", containsString("not valid UTF-8"))
                .body("detail", containsString("line 3"));
        assertThat(recorder.appliedSeqs(s)).isEmpty();
    }

    @Test
    void aFileBatchRejectsOnlyItsLinesThatAreNotUtf8() {
        String s = Api.uniquePrefix() + "/s";
        List<String> lines = stream(s, 2);
        byte[] good = body(lines).getBytes(StandardCharsets.UTF_8);
        byte[] bad = Arrays.copyOf(good, good.length + 2);
        bad[good.length] = (byte) 0xff;
        bad[good.length + 1] = '\n';
        JsonPath a = Api.admin().contentType(Api.NDJSON).header("Vigie-Source", "file")
                .header("Vigie-Source-Name", "/archive/" + s + ".ndjson.gz").header("Vigie-Source-Line", 1001)
                .body(bad).post("/api/audit-log").then().statusCode(200).extract().jsonPath();
        assertThat(a.getInt("accepted")).isEqualTo(2);
        assertThat(a.getList("rejected.line", Integer.class)).containsExactly(1003);
        JsonPath q = Api.admin().get("/api/quarantine?source=file&size=500").then().statusCode(200).extract()
                .jsonPath();
        Map<String, Object> kept = q.getList("items", Map.class).stream()
                .filter(m -> m.get("source_name").equals("/archive/" + s + ".ndjson.gz")).findFirst().orElseThrow();
        assertThat(kept.get("position")).isEqualTo(1003);
        assertThat(kept.get("preview")).isEqualTo("\uFFFD");
        JsonPath one = Api.admin().get("/api/quarantine/" + kept.get("id")).then().statusCode(200).extract()
                .jsonPath();
        assertThat(one.getString("raw")).isNull();
        assertThat(one.getString("raw_base64")).isEqualTo("/w==");
    }

    @Test
    void aWrongContentTypeGets415AsAProblem() {
        Api.admin().contentType("text/csv").body("a,b").post("/api/audit-log").then().statusCode(415)
                .contentType("application/problem+json").body("detail", containsString("application/x-ndjson"));
    }

    @Test
    void authenticationAndRolesAreEnforced() {
        given().contentType(Api.NDJSON).body(new byte[0]).post("/api/audit-log").then().statusCode(401)
                .contentType("application/problem+json").header("WWW-Authenticate", containsString("Basic"));
        Api.as("admin", "wrong-password").contentType(Api.NDJSON).body(new byte[0]).post("/api/audit-log").then()
                .statusCode(401).contentType("application/problem+json");

        Api.account("feeder", "ingest", null);
        Api.account("reader", "auditor", null);
        Api.as("feeder", "feeder-password").contentType(Api.NDJSON).body(new byte[0]).post("/api/audit-log").then()
                .statusCode(200);
        Api.as("feeder", "feeder-password").get("/api/quarantine").then().statusCode(403)
                .contentType("application/problem+json");
        Api.as("reader", "reader-password").contentType(Api.NDJSON).body(new byte[0]).post("/api/audit-log").then()
                .statusCode(403);
        Api.as("reader", "reader-password").get("/api/quarantine").then().statusCode(200);
        Api.as("reader", "reader-password").get("/api/accounts").then().statusCode(403);
    }

    @Test
    void theQuarantineIsPagedNewestFirst() {
        String marker = Api.uniquePrefix();
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < 7; i++) {
            body.append("not json ").append(marker).append(' ').append(i).append('\n');
        }
        Api.post(body.toString()).then().statusCode(200).body("rejected.size()", equalTo(7));

        JsonPath p1 = Api.admin().get("/api/quarantine?size=3&page=1").then().statusCode(200).extract().jsonPath();
        JsonPath p2 = Api.admin().get("/api/quarantine?size=3&page=2").then().statusCode(200).extract().jsonPath();
        assertThat(p1.getList("items")).hasSize(3);
        assertThat(p1.getLong("total")).isGreaterThanOrEqualTo(7);
        assertThat(p1.getList("items.preview", String.class)).containsExactly("not json " + marker + " 6",
                "not json " + marker + " 5", "not json " + marker + " 4");
        assertThat(p2.getList("items.preview", String.class)).startsWith("not json " + marker + " 3");
        assertThat(p1.getList("items.received_at", String.class)).allMatch(t -> t.endsWith("Z"));

        Api.admin().get("/api/quarantine?size=0").then().statusCode(400).contentType("application/problem+json");
        Api.admin().get("/api/quarantine?page=x").then().statusCode(400);
        Api.admin().get("/api/quarantine?source=ftp").then().statusCode(400);
        Api.admin().get("/api/quarantine?source=apply").then().statusCode(200);
    }

    @Test
    void unknownPathsAndMethodsAnswerProblems() {
        Api.admin().get("/api/nothing-here").then().statusCode(404).contentType("application/problem+json");
        Api.admin().get("/api/audit-log").then().statusCode(405).contentType("application/problem+json");
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aHugeRejectedLineIsKeptAsAPrefixWithItsLengthAndDigestAndListsStaySmall() throws Exception {
        String marker = Api.uniquePrefix();
        byte[] line = new byte[3 * 1024 * 1024 - 1024];  // the test profile takes bodies up to 3 MiB (64 MiB in service)
        Arrays.fill(line, (byte) 'x');
        byte[] head = ("not json " + marker + " ").getBytes(StandardCharsets.UTF_8);
        System.arraycopy(head, 0, line, 0, head.length);
        line[line.length - 1] = '\n';
        JsonPath a = Api.admin().contentType(Api.NDJSON).body(line).post("/api/audit-log").then().statusCode(200)
                .extract().jsonPath();
        assertThat(a.getList("rejected.line", Integer.class)).containsExactly(1);
        String list = Api.admin().get("/api/quarantine?size=500").then().statusCode(200).extract().asString();
        assertThat(list.length()).as("a list page of 500 holds previews, not lines").isLessThan(500 * 1024);
        Map<String, Object> kept = JsonPath.from(list).getList("items", Map.class).stream()
                .filter(m -> m.get("source_name").equals(a.getString("batch_id"))).findFirst().orElseThrow();
        assertThat(((String) kept.get("preview"))).startsWith("not json " + marker).hasSizeLessThan(300);
        assertThat(((Number) kept.get("raw_length")).longValue()).isEqualTo(line.length - 1);
        assertThat(kept.get("raw_sha256")).isEqualTo(sha256(Arrays.copyOf(line, line.length - 1)));
        JsonPath one = Api.admin().get("/api/quarantine/" + kept.get("id")).then().statusCode(200).extract()
                .jsonPath();
        assertThat(one.getBoolean("raw_truncated")).isTrue();
        assertThat(one.getString("raw")).hasSize(64 * 1024).startsWith("not json " + marker);
        assertThat(Api.admin().get("/api/quarantine/999999999999").then().extract().statusCode()).isEqualTo(404);
        assertThat(Api.admin().get("/api/quarantine/x").then().extract().statusCode()).isEqualTo(400);
        DashboardActionsTest.Browser page = DashboardActionsTest.signIn("admin",
                Api.ADMIN_PASSWORD, "/quarantine");
        assertThat(page.page("/quarantine").length()).isLessThan(1024 * 1024);
    }
}
