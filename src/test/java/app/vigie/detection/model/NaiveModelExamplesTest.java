package app.vigie.detection.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import app.vigie.auditlog.intake.InvalidRecordException;
import app.vigie.auditlog.intake.RecordParser;
import app.vigie.auditlog.record.AuditRecord;
import app.vigie.auditlog.record.Body;
import app.vigie.auditlog.record.PageFingerprint;
import app.vigie.auditlog.record.PageRun;

/**
 * The naive model against the shared examples of the spec, and a few hand-written logs for the Clarifications.
 */
class NaiveModelExamplesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    // ================================================================== shared examples

    @ParameterizedTest
    @ValueSource(strings = {"01-benign-colocated", "02-partial-overwrite", "03-pd-rejected-prompt",
            "04-prefix-shared-same-tenant"})
    void sharedExample(String name) throws Exception {
        NaiveModel model = new NaiveModel();
        for (AuditRecord r : readExample(name)) {
            model.receive(r);
        }
        model.flush();
        ModelResult result = model.result();
        JsonNode incidents = readExpected(name).get("incidents");

        // Every record of the examples is applied and valid.
        assertThat(result.late()).isEmpty();
        assertThat(result.conflicts()).isEmpty();
        assertThat(result.invalid()).isEmpty();

        // Exposures: kind, tenants, requests, tokens, first_seen_at, delivered.
        Map<String, String> expectedExposures = new TreeMap<>();
        Map<String, Map<String, Integer>> expectedCounts = new TreeMap<>();
        for (Map.Entry<String, JsonNode> incident : incidents.properties()) {
            String deployment = incident.getKey();
            for (JsonNode e : incident.getValue().get("exposures")) {
                String reader = e.get("reader_request").asText();
                String victim = e.get("victim_request").asText();
                JsonNode delivered = e.get("delivered");
                expectedExposures.put(deployment + "|" + reader + "|" + victim, String.join(" ",
                        deployment, e.get("kind").asText(), reader, e.get("reader_tenant").asText(), victim,
                        e.get("victim_tenant").asText(), e.get("tokens").asText(),
                        Instant.parse(e.get("first_seen_at").asText()).toString(),
                        delivered == null || delivered.isNull() ? "null" : delivered.asText()));
            }
            Map<String, Integer> counts = new TreeMap<>();
            for (Map.Entry<String, JsonNode> f : incident.getValue().get("findings").properties()) {
                counts.put(f.getKey(), f.getValue().asInt());
            }
            expectedCounts.put(deployment, counts);
        }
        Map<String, String> actualExposures = new TreeMap<>();
        result.exposures().forEach((key, x) -> actualExposures.put(key, String.join(" ", x.deployment(), x.kind(),
                x.readerRequest(), x.readerTenant(), x.victimRequest(), x.victimTenant(),
                Integer.toString(x.tokens()), x.firstSeenAt().toString(), String.valueOf(x.delivered()))));
        assertThat(actualExposures).isEqualTo(expectedExposures);

        // Finding counts per rule, per deployment.
        Map<String, Map<String, Integer>> actualCounts = new TreeMap<>();
        for (ModelFinding f : result.findings().values()) {
            actualCounts.computeIfAbsent(f.deployment(), k -> new TreeMap<>()).merge(f.rule(), 1, Integer::sum);
        }
        assertThat(actualCounts).isEqualTo(expectedCounts);
    }

    @ParameterizedTest
    @ValueSource(strings = {"02-partial-overwrite", "03-pd-rejected-prompt"})
    void arrivalOrderDoesNotMatter(String name) throws Exception {
        List<AuditRecord> records = readExample(name);
        NaiveModel inOrder = new NaiveModel();
        records.forEach(inOrder::receive);
        inOrder.flush();
        List<AuditRecord> shuffled = new ArrayList<>(records);
        Collections.shuffle(shuffled, new Random(42));
        shuffled.addAll(records.subList(0, 20)); // and some duplicates
        NaiveModel outOfOrder = new NaiveModel();
        shuffled.forEach(outOfOrder::receive);
        outOfOrder.flush();
        assertThat(outOfOrder.result()).isEqualTo(inOrder.result());
    }

    // ================================================================== Clarifications

    /** "A table never shrinks": a WRITE and an ATTACH after FREE are applied and judged; an ALLOC appends. */
    @Test
    void useAfterFreeIsJudged() {
        NaiveModel m = new NaiveModel();
        Log s = new Log("s1");
        s.add(m, config(4, 4));
        s.add(m, alloc("a1", "acme", 0, 1));
        s.add(m, write("a1", "acme", 0, 4));
        s.add(m, free("a1", 0, 1));
        s.add(m, alloc("b1", "globex", 0, 1)); // page 0 is free again: no DOUBLE_ALLOC
        s.add(m, write("b1", "globex", 0, 2));
        s.add(m, write("a1", "acme", 3, 1)); // use after free: applied, not invalid
        AuditRecord attach = s.add(m, attach("a1", "acme", 4)); // 0,1 by b1; 2,3 by a1
        s.add(m, alloc("a1", "acme", 1, 1)); // appends to the same table: now 8 positions
        s.add(m, attach("a1", "acme", 8)); // 4..7 never written
        m.flush();
        ModelResult r = m.result();
        assertThat(r.invalid()).isEmpty();
        assertThat(r.findings().keySet()).containsExactly("d|CROSS_TENANT_READ|a1", "d|UNINITIALIZED_READ|a1");
        assertThat(r.findings().get("d|CROSS_TENANT_READ|a1").firstSeq()).isEqualTo(attach.seq());
        assertThat(r.exposures()).containsOnlyKeys("d|a1|b1");
        ModelExposure x = r.exposures().get("d|a1|b1");
        assertThat(x.kind()).isEqualTo("CROSS_TENANT");
        assertThat(x.tokens()).isEqualTo(2);
        assertThat(x.firstSeenAt()).isEqualTo(attach.ts());
        assertThat(x.delivered()).isNull();
    }

    /** "A position is counted once per (reader, victim) across streams." */
    @Test
    void unionAcrossTwoStreams() {
        List<AuditRecord> all = new ArrayList<>();
        Log s1 = new Log("s1");
        all.add(s1.next(config(4, 4)));
        all.add(s1.next(alloc("v", "acme", 0, 2)));
        all.add(s1.next(write("v", "acme", 0, 8)));
        all.add(s1.next(free("v", 0, 2)));
        all.add(s1.next(alloc("r", "globex", 0, 2)));
        AuditRecord first = s1.next(attach("r", "globex", 4)); // positions 0..3 from v
        all.add(first);
        all.add(s1.next(attach("r", "globex", 4))); // the same positions again
        Log s2 = new Log("s2");
        all.add(s2.next(config(4, 4)));
        all.add(s2.next(alloc("v", "acme", 0, 2)));
        all.add(s2.next(write("v", "acme", 0, 8)));
        all.add(s2.next(free("v", 0, 2)));
        all.add(s2.next(alloc("r", "globex", 0, 2)));
        all.add(s2.next(write("r", "globex", 0, 2)));
        all.add(s2.next(attach("r", "globex", 8))); // positions 2..7 from v
        for (List<AuditRecord> order : List.of(all, reversed(all))) {
            NaiveModel m = new NaiveModel();
            order.forEach(m::receive);
            ModelExposure x = m.result().exposures().get("d|r|v");
            assertThat(x.tokens()).isEqualTo(8); // {0..3} U {2..7}, not 4 + 4 + 6
            assertThat(x.firstSeenAt()).isEqualTo(first.ts());
            assertThat(m.result().findings()).containsOnlyKeys("d|CROSS_TENANT_READ|r");
        }
    }

    /** "Unknown delivery is null." Then false, then true once any FINISH says so. */
    @Test
    void deliveredIsNullWithoutFinish() {
        NaiveModel m = new NaiveModel();
        Log s1 = new Log("s1");
        s1.add(m, config(4, 4));
        s1.add(m, alloc("v", "acme", 0, 1));
        s1.add(m, write("v", "acme", 0, 4));
        s1.add(m, free("v", 0, 1));
        s1.add(m, alloc("r", "acme", 0, 1));
        s1.add(m, attach("r", "acme", 4));
        ModelExposure x = m.result().exposures().get("d|r|v");
        assertThat(x.kind()).isEqualTo("INTRA_TENANT");
        assertThat(x.delivered()).isNull();
        s1.add(m, finish("r", "acme", false, 3));
        assertThat(m.result().exposures().get("d|r|v").delivered()).isFalse();
        Log s2 = new Log("s2");
        s2.add(m, config(4, 4));
        s2.add(m, finish("r", "acme", true, 3));
        assertThat(m.result().exposures().get("d|r|v").delivered()).isTrue();
        assertThat(m.result().findings()).containsOnlyKeys("d|INTRA_TENANT_READ|r");
    }

    /** "Late records after a loss", duplicates, conflicts, and a missing tail that is not a gap. */
    @Test
    void lateRecordAfterFlush() {
        NaiveModel m = new NaiveModel();
        Log s = new Log("s1");
        AuditRecord c = s.next(config(4, 4));
        AuditRecord h2 = s.next(new Body.Heartbeat());
        AuditRecord h3 = s.next(new Body.Heartbeat());
        AuditRecord h4 = s.next(new Body.Heartbeat());
        AuditRecord h5 = s.next(new Body.Heartbeat());
        AuditRecord h6 = s.next(new Body.Heartbeat());
        AuditRecord h7 = s.next(new Body.Heartbeat());
        AuditRecord h8 = s.next(new Body.Heartbeat());
        m.receive(h4);
        m.receive(c);
        m.receive(h6);
        m.receive(h2);
        assertThat(m.result().findings()).isEmpty(); // nothing declared lost before a flush
        m.flush(); // 3 and 5 are lost
        ModelResult r = m.result();
        ModelFinding gap = r.findings().get("d|STREAM_GAP|s1@b1");
        assertThat(gap.firstSeq()).isEqualTo(3);
        assertThat(gap.lastSeq()).isEqualTo(3);
        assertThat(gap.at()).isEqualTo(h4.ts());
        m.receive(h3);
        m.receive(h5);
        m.receive(h4); // duplicate: silent
        m.receive(new AuditRecord("s1", "b1", 4, h4.ts().plusMillis(1), "d", new Body.Heartbeat()));
        m.receive(h8); // missing 7 is a tail until 7 arrives
        m.receive(h7);
        m.flush();
        r = m.result();
        assertThat(r.late()).containsExactly("s1|b1|3", "s1|b1|5");
        assertThat(r.conflicts()).containsExactly("s1|b1|4");
        assertThat(r.invalid()).isEmpty();
        assertThat(r.findings()).containsOnlyKeys("d|STREAM_GAP|s1@b1");
    }

    /** "REJECTED_REQUEST_SERVED with several rejections": the smallest (ts, stream, boot, seq) wins, in any order. */
    @Test
    void smallestRejectionWins() {
        Log p = new Log("p", "dp", 100);
        Log q = new Log("q", "dq", 0);
        Log a = new Log("a", "da", 0);
        List<AuditRecord> all = new ArrayList<>();
        all.add(p.next(config(4, 4)));
        all.add(p.next(admit("x", Body.Verdict.REJECT)));
        all.add(q.next(config(4, 4)));
        all.add(q.next(new Body.Heartbeat()));
        AuditRecord qAdmit = q.next(admit("x", Body.Verdict.REJECT));
        all.add(qAdmit);
        all.add(a.next(config(4, 4)));
        all.add(a.next(new Body.Heartbeat()));
        all.add(a.next(admit("x", Body.Verdict.REJECT))); // same ts as q's ADMIT
        all.add(p.next(alloc("x", "acme", 0, 1)));
        // a's ADMIT has the same ts as q's: stream "a" sorts first, so a wins.
        AuditRecord expected = all.get(all.size() - 2);
        assertThat(expected.ts()).isEqualTo(qAdmit.ts());
        ModelResult forward = run(all);
        ModelResult backward = run(reversed(all));
        assertThat(backward).isEqualTo(forward);
        assertThat(forward.findings()).containsOnlyKeys("da|REJECTED_REQUEST_SERVED|x");
        ModelFinding f = forward.findings().get("da|REJECTED_REQUEST_SERVED|x");
        assertThat(f.stream()).isEqualTo("a");
        assertThat(f.firstSeq()).isEqualTo(expected.seq());
        assertThat(f.at()).isEqualTo(expected.ts());
        // Without any service there is no finding.
        assertThat(run(all.subList(0, all.size() - 1)).findings()).isEmpty();
    }

    /** Rule 2: a matching fingerprint of another tenant's page is fine but counts toward CROSS_TENANT_SHARE. */
    @Test
    void sharedPageOfAnotherTenant() {
        NaiveModel m = new NaiveModel();
        Log s = new Log("s1");
        s.add(m, config(4, 4));
        s.add(m, alloc("w", "acme", 0, 1));
        s.add(m, new Body.Write("w", "acme", 0, 4, Body.WriteSource.COMPUTE,
                List.of(new PageFingerprint(0, "abcd"))));
        s.add(m, new Body.Share("r", "globex", List.of(new PageRun(0, 1)), List.of("ABCD")));
        s.add(m, new Body.Share("q", "globex", List.of(new PageRun(0, 1)), List.of("ffff")));
        s.add(m, attach("r", "globex", 4));
        s.add(m, attach("q", "globex", 4));
        ModelResult r = m.result();
        assertThat(r.findings()).containsOnlyKeys("d|CROSS_TENANT_SHARE|r", "d|CROSS_TENANT_READ|q",
                "d|SHARED_PAGE_FOREIGN|q");
        assertThat(r.exposures()).containsOnlyKeys("d|q|w");
        assertThat(r.exposures().get("d|q|w").tokens()).isEqualTo(4);
    }

    // ================================================================== helpers

    private static ModelResult run(List<AuditRecord> records) {
        NaiveModel m = new NaiveModel();
        records.forEach(m::receive);
        m.flush();
        return m.result();
    }

    private static List<AuditRecord> reversed(List<AuditRecord> records) {
        List<AuditRecord> copy = new ArrayList<>(records);
        Collections.reverse(copy);
        return copy;
    }

    /** Numbers the records of one stream (boot b1) from seq 1, 7 ms apart from {@code startMillis}. */
    private static final class Log {
        private static final Instant T0 = Instant.parse("2026-08-27T09:00:00Z");
        private final String stream;
        private final String deployment;
        private long seq;
        private long millis;

        Log(String stream) {
            this(stream, "d", 0);
        }

        Log(String stream, String deployment, long startMillis) {
            this.stream = stream;
            this.deployment = deployment;
            this.millis = startMillis;
        }

        AuditRecord next(Body body) {
            seq++;
            millis += 7;
            return new AuditRecord(stream, "b1", seq, T0.plusMillis(millis), deployment, body);
        }

        AuditRecord add(NaiveModel m, Body body) {
            AuditRecord r = next(body);
            m.receive(r);
            return r;
        }
    }

    private static Body config(int pageSize, int poolPages) {
        return new Body.Config(pageSize, poolPages, pageSize * poolPages, pageSize * poolPages);
    }

    private static Body admit(String request, Body.Verdict verdict) {
        return new Body.Admit(request, "acme", 10, verdict, null);
    }

    private static Body alloc(String request, String tenant, int first, int count) {
        return new Body.Alloc(request, tenant, List.of(new PageRun(first, count)), Body.AllocPurpose.PREFILL, null);
    }

    private static Body write(String request, String tenant, int from, int tokens) {
        return new Body.Write(request, tenant, from, tokens, Body.WriteSource.COMPUTE, null);
    }

    private static Body attach(String request, String tenant, int tokens) {
        return new Body.Attach(request, tenant, tokens);
    }

    private static Body free(String request, int first, int count) {
        return new Body.Free(request, List.of(new PageRun(first, count)), Body.FreeReason.FINISH);
    }

    private static Body finish(String request, String tenant, boolean delivered, int outputTokens) {
        return new Body.Finish(request, tenant, Body.FinishStatus.STOP, 200, outputTokens, delivered);
    }

    private static List<AuditRecord> readExample(String name) throws IOException, InvalidRecordException {
        RecordParser parser = new RecordParser();
        List<AuditRecord> records = new ArrayList<>();
        try (InputStream in = resource("/examples/" + name + ".ndjson");
                BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                if (!line.isBlank()) {
                    records.add(parser.parse(line));
                }
            }
        }
        return records;
    }

    private static JsonNode readExpected(String name) throws IOException {
        try (InputStream in = resource("/examples/" + name + ".expected.json")) {
            return JSON.readTree(in);
        }
    }

    private static InputStream resource(String path) {
        InputStream in = NaiveModelExamplesTest.class.getResourceAsStream(path);
        assertThat(in).as("classpath resource %s", path).isNotNull();
        return in;
    }
}
