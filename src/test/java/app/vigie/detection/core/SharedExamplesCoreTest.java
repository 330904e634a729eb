package app.vigie.detection.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import app.vigie.auditlog.intake.RecordParser;
import app.vigie.auditlog.record.AuditRecord;

/** The detector core alone reproduces the exposures and finding counts of the shared examples. */
class SharedExamplesCoreTest {

    static List<AuditRecord> records(String name) throws Exception {
        RecordParser parser = new RecordParser();
        List<AuditRecord> out = new ArrayList<>();
        try (InputStream in = SharedExamplesCoreTest.class.getResourceAsStream("/examples/" + name + ".ndjson")) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank()) {
                    out.add(parser.parse(line));
                }
            }
        }
        return out;
    }

    /** Applies the records per (stream, boot) in seq order, streams one after the other. */
    static Recorder detect(List<AuditRecord> records) {
        Recorder rec = new Recorder();
        Map<String, StreamDetector> detectors = new LinkedHashMap<>();
        records.stream().sorted(Comparator.comparing((AuditRecord r) -> r.stream() + "\u0000" + r.boot())
                .thenComparingLong(AuditRecord::seq)).forEach(r -> detectors
                .computeIfAbsent(r.stream() + "@" + r.boot(), k -> new StreamDetector(r.stream(), r.boot()))
                .apply(r, rec));
        return rec;
    }

    @ParameterizedTest
    @ValueSource(strings = {"01-benign-colocated", "02-partial-overwrite", "03-pd-rejected-prompt",
            "04-prefix-shared-same-tenant"})
    void exposuresAndFindingsMatchTheExpectedFile(String name) throws Exception {
        JsonNode expected;
        try (InputStream in = getClass().getResourceAsStream("/examples/" + name + ".expected.json")) {
            expected = new ObjectMapper().readTree(in).get("incidents");
        }
        Recorder rec = detect(records(name));
        assertThat(rec.invalid).isEmpty();

        Map<String, Integer> counts = new TreeMap<>(rec.counts());
        Map<String, RequestFacts> facts = new HashMap<>();
        rec.facts.forEach(f -> facts.compute(f.request(),
                (r, known) -> (known == null ? RequestFacts.of(r) : known).with(f)));
        long rejectedServed = facts.values().stream().filter(RequestFacts::rejectedButServed).count();
        if (rejectedServed > 0) {
            counts.put("REJECTED_REQUEST_SERVED", (int) rejectedServed);
        }

        if (expected.isEmpty()) {
            assertThat(rec.exposures).isEmpty();
            assertThat(counts).isEmpty();
            return;
        }
        JsonNode incident = expected.elements().next();
        Map<String, Integer> expectedCounts = new TreeMap<>();
        incident.get("findings").fields().forEachRemaining(e -> expectedCounts.put(e.getKey(), e.getValue().asInt()));
        assertThat(counts).isEqualTo(expectedCounts);

        List<String> actual = rec.exposures.values().stream().sorted(Comparator
                .comparing(ExposureRead::readerRequest).thenComparing(ExposureRead::victimRequest))
                .map(e -> e.kind() + " " + e.victimTenant() + "/" + e.victimRequest() + " -> " + e.readerTenant() + "/"
                        + e.readerRequest() + " " + e.tokens() + " first " + e.firstSeenAt() + " delivered "
                        + rec.delivered.get(e.readerRequest()))
                .toList();
        List<String> wanted = new ArrayList<>();
        for (JsonNode e : incident.get("exposures")) {
            wanted.add(e.get("kind").asText() + " " + e.get("victim_tenant").asText() + "/"
                    + e.get("victim_request").asText() + " -> " + e.get("reader_tenant").asText() + "/"
                    + e.get("reader_request").asText() + " " + e.get("tokens").asInt() + " first "
                    + e.get("first_seen_at").asText() + " delivered " + (e.get("delivered").isNull() ? null
                            : e.get("delivered").asBoolean()));
        }
        assertThat(actual).containsExactlyElementsOf(wanted);
    }
}
