package app.vigie.detection.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import app.vigie.auditlog.intake.RecordParser;
import app.vigie.auditlog.record.AuditRecord;

/**
 * A detector written to a snapshot and restored after any record goes on exactly as the uninterrupted one, and its
 * page summary stays true to its slots in both.
 */
class SnapshotTest {

    static StreamDetector roundTrip(StreamDetector d) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            d.snapshot(out);
        }
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            return StreamDetector.restore(in);
        }
    }

    /** Every page the summary calls uniform has that writer in every slot (a MIXED page may be anything). */
    static void summaryHolds(StreamDetector d) {
        if (!d.configured) {
            return;
        }
        for (int page = 0; page < d.poolPages; page++) {
            int w = d.pageWriter[page];
            if (w != StreamDetector.MIXED) {
                for (int i = page * d.pageSize; i < (page + 1) * d.pageSize; i++) {
                    assertThat(d.slots[i]).as("slot %d of page %d, summarized as writer %d", i, page, w).isEqualTo(w);
                }
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"01-benign-colocated", "02-partial-overwrite", "03-pd-rejected-prompt",
            "04-prefix-shared-same-tenant"})
    void restoringAfterEveryRecordChangesNothing(String name) throws Exception {
        restoringChangesNothing(SharedExamplesCoreTest.records(name));
    }

    /**
     * The same for logs of spec 1.1 to 1.3 (sent writers per transfer, declared extensions, restarts): the conformance
     * logs that use them.
     */
    @ParameterizedTest
    @ValueSource(strings = {"pass/transfer-v1.1", "pass/free-during-transfer-v1.1", "pass/preemption-restart-v1.2",
            "faulty/restart-while-owning-v1.3", "faulty/retry-to-another-receiver-v1.3"})
    void restoringAfterEveryRecordOfA13LogChangesNothing(String name) throws Exception {
        RecordParser parser = new RecordParser();
        List<AuditRecord> records = new ArrayList<>();
        try (InputStream in = SnapshotTest.class.getResourceAsStream("/conformance/" + name + ".ndjson")) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank()) {
                    records.add(parser.parse(line));
                }
            }
        }
        Recorder straight = restoringChangesNothing(records);
        assertThat(straight.invalid).isEmpty();
    }

    private static Recorder restoringChangesNothing(List<AuditRecord> unordered) throws Exception {
        List<AuditRecord> records = unordered.stream()
                .sorted(Comparator.comparing((AuditRecord r) -> r.stream()).thenComparingLong(AuditRecord::seq))
                .toList();
        Recorder straight = SharedExamplesCoreTest.detect(records);

        Recorder restored = new Recorder();
        Map<String, StreamDetector> detectors = new LinkedHashMap<>();
        for (AuditRecord r : records) {
            StreamDetector d = detectors.computeIfAbsent(r.stream(), s -> new StreamDetector(s, r.boot()));
            d.apply(r, restored);
            summaryHolds(d);
            StreamDetector copy = roundTrip(d);
            summaryHolds(copy);
            assertThat(copy.nextSeq()).isEqualTo(d.nextSeq());
            assertThat(copy.liveRequests()).isEqualTo(d.liveRequests());
            detectors.put(r.stream(), copy);
        }

        assertThat(restored.findings.keySet()).isEqualTo(straight.findings.keySet());
        assertThat(restored.exposures).isEqualTo(straight.exposures);
        assertThat(restored.facts).isEqualTo(straight.facts);
        assertThat(restored.invalid).isEqualTo(straight.invalid);
        assertThat(restored.provenance.unresolved()).isEqualTo(straight.provenance.unresolved());
        return straight;
    }
}
