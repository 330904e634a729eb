package app.vigie.detection.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

import app.vigie.auditlog.intake.RecordParser;
import app.vigie.auditlog.record.AuditRecord;
import app.vigie.runtime.log.AuditLogWriter;
import app.vigie.runtime.log.PageRun;

/**
 * Spec 1.3, amendment 3, the send window: between a send's {@code XFER_SEND} and its {@code XFER_DONE} its slots are
 * in flight, and a write by another request to one makes a read of that position at the receiver a possible exposure
 * of the writer. Each case is judged with the sender's stream {@code p} read first and with the receiver's {@code d}
 * read first, which must agree.
 */
class SendWindowTest {
    private static final Instant T = Instant.parse("2026-12-07T09:00:00Z");
    private static final int PS = 4;

    private final List<String> lines = new ArrayList<>();
    private final AuditLogWriter p = new AuditLogWriter("p", "d/prod", "b1", lines::add);
    private final AuditLogWriter d = new AuditLogWriter("d", "d/prod", "b1", lines::add);

    SendWindowTest() {
        p.config(T, PS, 8, 32, 32);
        d.config(T, PS, 8, 32, 32);
    }

    private static List<PageRun> pages(int first, int count) {
        return List.of(new PageRun(first, count));
    }

    /** req-a of acme prefilled on pages 0-1 of p and sent whole by t1 (its XFER_SEND only). */
    private void sendA() {
        p.alloc(T, "req-a", "acme", pages(0, 2), "PREFILL", null);
        p.write(T, "req-a", "acme", 0, 8, "COMPUTE", null);
        p.xferSend(T, "req-a", "acme", "t1", 0, 8);
    }

    /** req-a freed on p, and its first page taken and written by {@code writer} of {@code tenant}. */
    private void overwrite(String writer, String tenant) {
        p.free(T, "req-a", pages(0, 2), "ABORT");
        p.alloc(T, writer, tenant, pages(0, 1), "PREFILL", null);
        p.write(T, writer, tenant, 0, 4, "COMPUTE", null);
    }

    /** req-a received whole on d by t1 and read. */
    private void readA() {
        d.alloc(T, "req-a", "acme", pages(0, 2), "PREALLOC", 8);
        d.write(T, "req-a", "acme", 0, 8, "TRANSFER", "t1", null);
        d.attach(T, "req-a", "acme", 8);
        d.finish(T, "req-a", "acme", "STOP", 200, 1, true);
    }

    private List<AuditRecord> records() throws Exception {
        RecordParser parser = new RecordParser();
        List<AuditRecord> out = new ArrayList<>();
        for (String l : lines) {
            out.add(parser.parse(l));
        }
        return out;
    }

    private Recorder judged(String first) throws Exception {
        Recorder rec = Recorder.applied(lines, first.equals("p") ? List.of("p", "d") : List.of("d", "p"));
        assertThat(rec.invalid).isEmpty();
        return rec;
    }

    /** reader<-victim -> "KIND tokens [possible]", and the rules raised; the same in both orders. */
    private Map<String, Object> outcome() throws Exception {
        Map<String, Object> a = outcome(judged("p"));
        assertThat(outcome(judged("d"))).as("receiver's stream read first").isEqualTo(a);
        return a;
    }

    private static Map<String, Object> outcome(Recorder r) {
        Map<String, Object> out = new TreeMap<>();
        r.exposures.values().forEach(e -> out.put(e.readerRequest() + "<-" + e.victimRequest(), e.kind() + " "
                + e.tokens() + (e.possible() ? " possible" : "")));
        out.put("rules", r.counts());
        return out;
    }

    @Test
    void aWriteToAnInFlightSlotIsAPossibleExposure() throws Exception {
        sendA();
        overwrite("req-x", "globex");
        p.xferDone(T, "req-a", "acme", "t1");
        readA();
        assertThat(outcome()).containsEntry("req-a<-req-x", "CROSS_TENANT 4 possible")
                .containsEntry("rules", Map.of("TRANSFER_OVERWRITTEN_IN_FLIGHT", 1)).hasSize(2);
        Finding f = judged("p").findings.values().iterator().next();
        assertThat(f.subject()).isEqualTo("req-a");
        assertThat(f.evidence().stream()).isEqualTo("d");
        assertThat(f.evidence().detail()).contains("positions 0-7", "between its XFER_SEND and its XFER_DONE");
    }

    @Test
    void anInFlightWriteOfTheSameTenantIsAPossibleIntraTenantExposure() throws Exception {
        sendA();
        overwrite("req-y", "acme");
        p.xferDone(T, "req-a", "acme", "t1");
        readA();
        assertThat(outcome()).containsEntry("req-a<-req-y", "INTRA_TENANT 4 possible")
                .containsEntry("rules", Map.of("TRANSFER_OVERWRITTEN_IN_FLIGHT", 1)).hasSize(2);
    }

    /** An XFER_SEND with no XFER_DONE is a read at that point of the stream, as in version 1.1. */
    @Test
    void withoutXferDoneTheSendIsAnInstantRead() throws Exception {
        sendA();
        overwrite("req-x", "globex");
        readA();
        assertThat(outcome()).containsOnlyKeys("rules").containsEntry("rules", Map.of());
    }

    /** A write after the XFER_DONE is after the read: nothing. */
    @Test
    void aWriteAfterTheXferDoneIsNoWriter() throws Exception {
        sendA();
        p.xferDone(T, "req-a", "acme", "t1");
        overwrite("req-x", "globex");
        readA();
        assertThat(outcome()).containsOnlyKeys("rules").containsEntry("rules", Map.of());
    }

    @Test
    void theSendersOwnWriteIsNoWriter() throws Exception {
        sendA();
        p.write(T, "req-a", "acme", 0, 8, "COMPUTE", null);
        p.xferDone(T, "req-a", "acme", "t1");
        readA();
        assertThat(outcome()).containsOnlyKeys("rules").containsEntry("rules", Map.of());
    }

    /**
     * A pair's exposure is certain as soon as one position of it is: req-x held page 1 when it was sent (a certain
     * read, TRANSFER_SENT_FOREIGN at the sender) and wrote page 0 in flight (possible): one exposure of 8, certain.
     */
    @Test
    void aPossibleExposureIsCertainOnceOnePositionIs() throws Exception {
        p.alloc(T, "req-a", "acme", pages(0, 2), "PREFILL", null);
        p.write(T, "req-a", "acme", 0, 8, "COMPUTE", null);
        p.free(T, "req-a", pages(1, 1), "EVICT");
        p.alloc(T, "req-x", "globex", pages(1, 1), "PREFILL", null);
        p.write(T, "req-x", "globex", 0, 4, "COMPUTE", null);
        p.xferSend(T, "req-a", "acme", "t1", 0, 8);
        p.free(T, "req-a", pages(0, 1), "ABORT");
        p.alloc(T, "req-x", "globex", pages(0, 1), "PREFILL", null);
        p.write(T, "req-x", "globex", 4, 4, "COMPUTE", null);
        p.xferDone(T, "req-a", "acme", "t1");
        readA();
        assertThat(outcome()).containsEntry("req-a<-req-x", "CROSS_TENANT 8").containsEntry("rules", Map.of(
                "CROSS_TENANT_READ", 1, "TRANSFER_SENT_FOREIGN", 1, "TRANSFER_OVERWRITTEN_IN_FLIGHT", 1)).hasSize(2);
    }

    /** Each in-flight writer is judged by the rules: the reader's own request writing there is no exposure. */
    @Test
    void onlyWritersTheRulesForbidArePossibleVictims() throws Exception {
        sendA();
        overwrite("req-x", "globex");
        p.free(T, "req-x", pages(0, 1), "FINISH");
        p.alloc(T, "req-z", "initech", pages(1, 1), "PREFILL", null);
        p.write(T, "req-z", "initech", 0, 2, "COMPUTE", null);
        p.xferDone(T, "req-a", "acme", "t1");
        readA();
        assertThat(outcome()).containsEntry("req-a<-req-x", "CROSS_TENANT 4 possible")
                .containsEntry("req-a<-req-z", "CROSS_TENANT 2 possible")
                .containsEntry("rules", Map.of("TRANSFER_OVERWRITTEN_IN_FLIGHT", 1)).hasSize(3);
    }

    @Test
    void xferDoneOfNoOpenTransferIsImpossible() throws Exception {
        sendA();
        p.xferDone(T, "req-a", "acme", "t9");
        p.xferDone(T, "req-a", "acme", "t1");
        p.xferDone(T, "req-a", "acme", "t1");
        Recorder rec = new Recorder();
        StreamDetector det = new StreamDetector("p", "b1");
        for (AuditRecord r : sender(records())) {
            det.apply(r, rec);
        }
        assertThat(rec.invalid).containsExactly(
                "5: XFER_DONE: no XFER_SEND of transfer 't9' of req-a is in flight on this stream; no effect",
                "7: XFER_DONE: no XFER_SEND of transfer 't1' of req-a is in flight on this stream; no effect");
    }

    /** A detector rebuilt from its snapshot while a send is in flight still sees the write and tells it at the DONE. */
    @Test
    void openWindowsSurviveASnapshot() throws Exception {
        sendA();
        p.free(T, "req-a", pages(0, 2), "ABORT");
        int cut = lines.size();
        p.alloc(T, "req-x", "globex", pages(0, 1), "PREFILL", null);
        p.write(T, "req-x", "globex", 0, 4, "COMPUTE", null);
        p.xferDone(T, "req-a", "acme", "t1");
        readA();
        Recorder rec = acrossASnapshot(new StreamDetector("p", "b1"), cut);
        assertThat(outcome(rec)).isEqualTo(Map.of("req-a<-req-x", "CROSS_TENANT 4 possible", "rules",
                Map.of("TRANSFER_OVERWRITTEN_IN_FLIGHT", 1)));
    }

    /**
     * The sender's records of the lines before {@code cut} applied to {@code det}, which is then snapshotted; the rest
     * applied to the detector restored from it; then the receiver's records: what they concluded.
     */
    private Recorder acrossASnapshot(StreamDetector det, int cut) throws Exception {
        Recorder rec = new Recorder();
        List<AuditRecord> records = records();
        for (AuditRecord r : sender(records.subList(0, cut))) {
            det.apply(r, rec);
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        det.snapshot(new DataOutputStream(bytes));
        StreamDetector back = StreamDetector.restore(new DataInputStream(new ByteArrayInputStream(
                bytes.toByteArray())));
        for (AuditRecord r : sender(records.subList(cut, records.size()))) {
            back.apply(r, rec);
        }
        StreamDetector receiver = new StreamDetector("d", "b1");
        records.stream().filter(r -> r.stream().equals("d")).forEach(r -> receiver.apply(r, rec));
        assertThat(rec.invalid).isEmpty();
        return rec;
    }

    /**
     * Writes to in-flight slots are logged on their page and matched when the window closes or is snapshotted: a write
     * before the snapshot and one after it both count, each once.
     */
    @Test
    void writesOnBothSidesOfASnapshotAreBothWriters() throws Exception {
        sendA();
        p.free(T, "req-a", pages(0, 2), "ABORT");
        p.alloc(T, "req-x", "globex", pages(0, 1), "PREFILL", null);
        p.write(T, "req-x", "globex", 0, 4, "COMPUTE", null);
        int cut = lines.size();
        p.alloc(T, "req-y", "initech", pages(1, 1), "PREFILL", null);
        p.write(T, "req-y", "initech", 0, 2, "COMPUTE", null);
        p.xferDone(T, "req-a", "acme", "t1");
        readA();
        StreamDetector det = new StreamDetector("p", "b1");
        Recorder rec = acrossASnapshot(det, cut);
        List<AuditRecord> records = records();
        assertThat(outcome(rec)).isEqualTo(Map.of("req-a<-req-x", "CROSS_TENANT 4 possible", "req-a<-req-y",
                "CROSS_TENANT 2 possible", "rules", Map.of("TRANSFER_OVERWRITTEN_IN_FLIGHT", 1)));
        // the detector that took the snapshot goes on the same way (its logged write is in the snapshot, format 9)
        Recorder same = new Recorder();
        for (AuditRecord r : sender(records.subList(cut, records.size()))) {
            det.apply(r, same);
        }
        records.stream().filter(r -> r.stream().equals("d")).forEach(r -> new StreamDetector("d", "b1").apply(r,
                same));
        List<TransferSend> done = rec.sends.stream().filter(TransferSend::possible).toList();
        assertThat(done).hasSize(1);
        assertThat(done.get(0).foreign()).extracting(TransferSend.Origin::request).containsExactly("req-x", "req-y");
        assertThat(same.sends).isEqualTo(done);
    }

    /** Once no window watches a page any more, what was written there is forgotten: memory follows open windows. */
    @Test
    void closedWindowsLeaveNothingLogged() throws Exception {
        sendA();
        for (int i = 0; i < 50; i++) {
            p.write(T, "req-a", "acme", 0, 8, "COMPUTE", null);
            p.alloc(T, "req-o" + i, "globex", pages(2 + i % 6, 1), "PREFILL", null);
            p.write(T, "req-o" + i, "globex", 0, 4, "COMPUTE", null);
            p.free(T, "req-o" + i, pages(2 + i % 6, 1), "FINISH");
        }
        p.xferDone(T, "req-a", "acme", "t1");
        StreamDetector det = new StreamDetector("p", "b1");
        Recorder rec = new Recorder();
        List<AuditRecord> records = sender(records());
        for (AuditRecord r : records.subList(0, records.size() - 1)) {
            det.apply(r, rec);
        }
        assertThat(det.windows.entries).as("two sent pieces, and the sender's own 50 writes on each of its two pages")
                .isEqualTo(2 + 2 * 50);
        det.apply(records.get(records.size() - 1), rec);
        assertThat(rec.invalid).isEmpty();
        assertThat(det.windows.open).isEmpty();
        assertThat(det.windows.entries).isZero();
        assertThat(det.windows.logs).containsOnlyNulls();
        assertThat(rec.sends).as("the sender's own writes are no writers: the XFER_DONE tells nothing")
                .noneMatch(TransferSend::possible);
    }

    /**
     * A snapshot changes nothing of what the bound drops: the detector restored from it holds the same logged writes
     * and entries as one that never took it, so both keep the same windows open.
     */
    @Test
    void theBoundDropsTheSameWindowsWhetherOrNotASnapshotWasTaken() throws Exception {
        p.alloc(T, "req-a", "acme", pages(0, 2), "PREFILL", null);
        p.write(T, "req-a", "acme", 0, 8, "COMPUTE", null);
        for (int i = 0; i < 300; i++) {
            p.xferSend(T, "req-a", "acme", "t" + i, 0, 8);
            p.write(T, "req-a", "acme", 0, 8, "COMPUTE", null);  // the sender's own: logged, never a writer
        }
        List<AuditRecord> records = sender(records());
        DetectorLimits limits = new DetectorLimits(1L << 20, 1024, 64, DetectorLimits.PoolBudget.HEAP);
        StreamDetector straight = new StreamDetector("p", "b1");
        straight.limits(limits);
        StreamDetector cut = new StreamDetector("p", "b1");
        cut.limits(limits);
        Recorder a = new Recorder();
        Recorder b = new Recorder();
        for (int i = 0; i < records.size(); i++) {
            straight.apply(records.get(i), a);
            cut.apply(records.get(i), b);
            if (i == records.size() / 2) {
                ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                cut.snapshot(new DataOutputStream(bytes));
                cut = StreamDetector.restore(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
                cut.limits(limits);
                assertThat(cut.windows.entries).as("restored").isEqualTo(straight.windows.entries);
            }
        }
        assertThat(straight.windows.open.size()).as("the bound dropped some").isLessThan(300);
        assertThat(cut.windows.entries).isEqualTo(straight.windows.entries);
        assertThat(cut.windows.open.keySet()).isEqualTo(straight.windows.open.keySet());
    }

    private static List<AuditRecord> sender(List<AuditRecord> records) {
        return records.stream().filter(r -> r.stream().equals("p")).toList();
    }

    /**
     * The windows are bounded: past the bound the oldest is dropped, and its XFER_DONE raises TABLE_EVICTED (what was
     * written in flight was not all watched) instead of being refused as a DONE of nothing.
     */
    @Test
    void aDroppedWindowsXferDoneSaysItWasNotWatched() throws Exception {
        p.alloc(T, "req-a", "acme", pages(0, 2), "PREFILL", null);
        p.write(T, "req-a", "acme", 0, 8, "COMPUTE", null);
        int sends = 1024 / 2 + 1;  // two pieces a send (two pages): one more than the bound holds
        for (int i = 0; i < sends; i++) {
            p.xferSend(T, "req-a", "acme", "t" + i, 0, 8);
        }
        p.xferDone(T, "req-a", "acme", "t0");
        p.xferDone(T, "req-a", "acme", "t1");
        Recorder rec = new Recorder();
        StreamDetector det = new StreamDetector("p", "b1");
        det.limits(new DetectorLimits(1L << 20, 1024, 64, DetectorLimits.PoolBudget.HEAP));
        for (AuditRecord r : sender(records())) {
            det.apply(r, rec);
        }
        assertThat(rec.invalid).isEmpty();
        assertThat(rec.counts()).isEqualTo(Map.of("TABLE_EVICTED", 1));
        assertThat(rec.findings.values().iterator().next().evidence().detail())
                .contains("XFER_DONE of transfer t0 of req-a", "may be missed");
        assertThat(det.windows.open).hasSize(sends - 2);
    }
}
