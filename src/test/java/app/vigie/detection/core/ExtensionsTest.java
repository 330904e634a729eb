package app.vigie.detection.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import app.vigie.auditlog.intake.RecordParser;
import app.vigie.auditlog.record.AuditRecord;
import app.vigie.runtime.log.AuditLogWriter;
import app.vigie.runtime.log.PageRun;

/**
 * Spec 1.3, amendment 1: a record that uses an extension its boot's CONFIG did not declare is impossible (no effect,
 * kept with the reason "extension not declared"); a CONFIG declaring an extension this reader does not know leaves
 * its boot unjudged (STREAM_UNSUPPORTED, records kept), and only that boot.
 */
class ExtensionsTest {
    private static final Instant T = Instant.parse("2026-12-06T09:00:00Z");
    private static final List<PageRun> TWO = List.of(new PageRun(0, 2));

    private final List<String> lines = new ArrayList<>();
    private final AuditLogWriter w = new AuditLogWriter("s", "d/prod", "b1", lines::add);

    private Recorder run() throws Exception {
        return run(new StreamDetector("s", "b1"), new Recorder(), 0);
    }

    private Recorder run(StreamDetector d, Recorder rec, int from) throws Exception {
        RecordParser parser = new RecordParser();
        for (String line : lines.subList(from, lines.size())) {
            d.apply(parser.parse(line), rec);
        }
        return rec;
    }

    /** A table of req-a with 8 tokens of its own on pages 0-1. */
    private void owner() {
        w.alloc(T, "req-a", "acme", TWO, "PREFILL", null);
        w.write(T, "req-a", "acme", 0, 8, "COMPUTE", null);
    }

    @Test
    void aRecordUsingAnUndeclaredExtensionIsImpossible() throws Exception {
        w.config(T, 4, 8, 32, 32, List.of());
        owner();
        w.xferSend(T, "req-a", "acme", "t1", 0, 8);                                    // seq 4: xfer-send
        w.alloc(T, "req-b", "globex", List.of(new PageRun(2, 2)), "PREALLOC", 8);
        w.write(T, "req-b", "globex", 0, 8, "TRANSFER", "t1", null);             // seq 6: xfer-send
        w.alloc(T, "req-a", "acme", TWO, "DECODE", null, true);                 // seq 7: restart
        w.share(T, "req-c", "acme", TWO, null, true);                           // seq 8: restart
        w.attach(T, "req-b", "globex", 8);
        Recorder rec = run();
        assertThat(rec.invalid).containsExactly(
                "4: XFER_SEND: extension not declared: 'xfer-send' (the CONFIG of boot 'b1' declares none); no effect",
                "6: WRITE: extension not declared: 'xfer-send' (the CONFIG of boot 'b1' declares none); no effect",
                "7: ALLOC: extension not declared: 'restart' (the CONFIG of boot 'b1' declares none); no effect",
                "8: SHARE: extension not declared: 'restart' (the CONFIG of boot 'b1' declares none); no effect");
        // no effect at all: req-b's write was not applied, so its read is of slots never written; req-a keeps its
        // pages (no restart), req-c has no table
        assertThat(rec.counts()).containsOnlyKeys("UNINITIALIZED_READ");
        assertThat(rec.exposures).isEmpty();
        assertThat(rec.facts).noneMatch(f -> "req-c".equals(f.request()));
    }

    @Test
    void aDeclaredExtensionIsUsedAndOneDeclarationCoversOnlyItself() throws Exception {
        w.config(T, 4, 8, 32, 32, List.of("restart"));
        owner();
        w.free(T, "req-a", TWO, "EVICT");
        w.alloc(T, "req-a", "acme", TWO, "DECODE", null, true);                 // seq 5: declared
        w.xferSend(T, "req-a", "acme", "t1", 0, 8);                                    // seq 6: not declared
        Recorder rec = run();
        assertThat(rec.invalid).containsExactly(
                "6: XFER_SEND: extension not declared: 'xfer-send' (the CONFIG of boot 'b1' declares 'restart'); "
                        + "no effect");
        assertThat(rec.findings).isEmpty();
    }

    /**
     * Amendment 2: under xfer-send, an XFER_SEND and a sent WRITE carry their transfer's id; without it the record is
     * impossible (a version 1.1 record in a 1.3 boot). XFER_DONE has its id by schema.
     */
    @Test
    void aTransferWithoutItsIdIsImpossibleUnderXferSend() throws Exception {
        List<String> raw = new ArrayList<>();
        AuditLogWriter v = new AuditLogWriter("s", "d/prod", "b1", raw::add);
        v.config(T, 4, 8, 32, 32, List.of("xfer-send"));
        v.alloc(T, "req-a", "acme", TWO, "PREFILL", null);
        v.write(T, "req-a", "acme", 0, 8, "COMPUTE", null);
        v.xferSend(T, "req-a", "acme", "t1", 0, 8);
        v.alloc(T, "req-b", "acme", List.of(new PageRun(2, 2)), "PREALLOC", 8);
        v.write(T, "req-b", "acme", 0, 8, "TRANSFER", "t9", null);
        for (String line : raw) {
            lines.add(line.replace(",\"transfer\":\"t1\"", "").replace(",\"transfer\":\"t9\"", ""));
        }
        Recorder rec = run();
        assertThat(rec.invalid).containsExactly(
                "4: XFER_SEND: field 'transfer' is required under extension 'xfer-send' (the transfer's id, one per "
                        + "attempt); no effect",
                "6: WRITE: field 'transfer' is required under extension 'xfer-send' (the transfer's id, one per "
                        + "attempt); no effect");
    }

    @Test
    void sentFalseAndRestartFalseUseNoExtension() throws Exception {
        w.config(T, 4, 8, 32, 32, List.of());
        owner();
        w.alloc(T, "req-a", "acme", List.of(new PageRun(2, 1)), "DECODE", null, false);
        w.alloc(T, "req-b", "acme", List.of(new PageRun(4, 2)), "PREALLOC", 8);
        w.write(T, "req-b", "acme", 0, 8, "TRANSFER", (String) null, null);
        w.share(T, "req-c", "acme", TWO, null, false);
        w.attach(T, "req-b", "acme", 8);
        Recorder rec = run();
        assertThat(rec.invalid).isEmpty();
        assertThat(rec.findings).isEmpty();
    }

    @Test
    void anUnknownExtensionLeavesOnlyItsBootUnjudged() throws Exception {
        w.config(T, 4, 8, 32, 32, List.of("restart", "kv-offload", "a-b"));
        owner();
        w.attach(T, "req-z", "globex", 8);  // a read that would be a finding if the boot were judged
        Recorder rec = run();
        assertThat(rec.invalid).isEmpty();
        assertThat(rec.counts()).containsOnlyKeys("STREAM_UNSUPPORTED");
        Finding f = rec.findings.values().iterator().next();
        assertThat(f.subject()).isEqualTo("s@b1");
        assertThat(f.evidence().detail()).contains("declares extensions 'a-b', 'kv-offload' that this Vigie does not "
                + "know (it knows restart, xfer-send)").contains("its records are kept");
        assertThat(rec.facts).isEmpty();

        // the next boot declares its own: judged again, with what it declares
        w.reboot("b2");
        int from = lines.size();
        w.config(T, 4, 8, 32, 32, List.of("xfer-send"));
        owner();
        w.alloc(T, "req-a", "acme", TWO, "DECODE", null, true);
        StreamDetector b2 = new StreamDetector("s", "b2");
        Recorder next = run(b2, new Recorder(), from);
        assertThat(b2.unsupported()).isNull();
        assertThat(next.invalid).singleElement().asString().contains("extension not declared: 'restart'")
                .contains("declares 'xfer-send'");
    }

    @Test
    void declaredExtensionsSurviveASnapshot() throws Exception {
        w.config(T, 4, 8, 32, 32, List.of("restart"));
        owner();
        w.free(T, "req-a", TWO, "EVICT");
        w.alloc(T, "req-a", "acme", TWO, "DECODE", null, true);
        w.xferSend(T, "req-a", "acme", "t1", 0, 8);
        RecordParser parser = new RecordParser();
        Recorder straight = run();
        for (int cut = 1; cut < lines.size(); cut++) {
            StreamDetector d = new StreamDetector("s", "b1");
            Recorder rec = new Recorder();
            for (int i = 0; i < lines.size(); i++) {
                if (i == cut) {
                    d = SnapshotTest.roundTrip(d);
                }
                AuditRecord r = parser.parse(lines.get(i));
                d.apply(r, rec);
            }
            assertThat(rec.invalid).as("restored after record %d", cut).isEqualTo(straight.invalid);
            assertThat(rec.findings.keySet()).isEqualTo(straight.findings.keySet());
        }
        assertThat(straight.invalid).singleElement().asString().contains("'xfer-send'");
    }
}
