package app.vigie.detection.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

import app.vigie.auditlog.intake.RecordParser;
import app.vigie.auditlog.record.AuditRecord;
import app.vigie.detection.core.TransferSend.Origin;
import app.vigie.runtime.log.AuditLogWriter;
import app.vigie.runtime.log.PageRun;

/**
 * Spec 1.3, amendment 4 (chains): "A position received and sent on again has, as origin, the origin it had where it
 * was received, through any number of hops." A prefill node {@code p}, a decode node {@code d} that forwards what it
 * received to a second decode node {@code d2}; each log judged in all six orders of the three streams, which must agree.
 */
class ChainTest {
    private static final Instant T = Instant.parse("2026-12-07T09:00:00Z");
    private static final int PS = 4;

    private final List<String> lines = new ArrayList<>();
    private final AuditLogWriter p = new AuditLogWriter("p", "d/prod", "b1", lines::add);
    private final AuditLogWriter d = new AuditLogWriter("d", "d/prod", "b1", lines::add);
    private final AuditLogWriter d2 = new AuditLogWriter("d2", "d/prod", "b1", lines::add);

    ChainTest() {
        for (AuditLogWriter w : List.of(p, d, d2)) {
            w.config(T, PS, 16, 64, 64);
        }
    }

    private static List<PageRun> pages(int first, int count) {
        return List.of(new PageRun(first, count));
    }

    /**
     * On {@code p}: globex's request x wrote pages 0-1 and freed them; acme's request a took them and sent positions
     * 0-7 by transfer t1 without writing them (the 2026 fault: a request marked rejected, not aborted). What t1 carried
     * is x's.
     */
    private void staleSendOnP() {
        p.alloc(T, "x", "globex", pages(0, 2), "PREFILL", null);
        p.write(T, "x", "globex", 0, 8, "COMPUTE", null);
        p.free(T, "x", pages(0, 2), "FINISH");
        p.alloc(T, "a", "acme", pages(0, 2), "PREFILL", null);
        p.xferSend(T, "a", "acme", "t1", 0, 8);
    }

    /** On {@code d}: {@code a} receives t1 and sends the same positions on by t2. */
    private void forwardOnD() {
        d.alloc(T, "a", "acme", pages(0, 2), "PREALLOC", 8);
        d.write(T, "a", "acme", 0, 8, "TRANSFER", "t1", null);
        d.xferSend(T, "a", "acme", "t2", 0, 8);
    }

    /** On {@code d2}: {@code a} receives t2 and reads it. */
    private void readOnD2() {
        d2.alloc(T, "a", "acme", pages(0, 2), "PREALLOC", 8);
        d2.write(T, "a", "acme", 0, 8, "TRANSFER", "t2", null);
        d2.attach(T, "a", "acme", 8);
    }

    /** The log judged with the streams in {@code order}; then, if asked, flushed. */
    private Recorder judged(List<String> order, boolean flush) throws Exception {
        Recorder rec = Recorder.applied(lines, order);
        assertThat(rec.invalid).isEmpty();
        if (flush) {
            rec.provenance.flush(rec);
        }
        return rec;
    }

    private static Map<String, Object> outcome(Recorder rec) {
        Map<String, Object> out = new TreeMap<>();
        rec.exposures.values().forEach(e -> out.put(e.readerRequest() + "<-" + e.victimRequest(), e.kind() + " "
                + e.tokens()));
        out.put("rules", rec.counts());
        return out;
    }

    private static final List<List<String>> ORDERS = List.of(List.of("p", "d", "d2"), List.of("p", "d2", "d"),
            List.of("d", "p", "d2"), List.of("d", "d2", "p"), List.of("d2", "p", "d"), List.of("d2", "d", "p"));

    /** The same outcome in every order of the streams; returns it, with the first order's evidence. */
    private Map<String, Object> inEveryOrder(boolean flush) throws Exception {
        Recorder first = judged(ORDERS.get(0), flush);
        Map<String, Object> expected = outcome(first);
        for (List<String> order : ORDERS.subList(1, ORDERS.size())) {
            Recorder rec = judged(order, flush);
            assertThat(outcome(rec)).as("streams read in the order " + order).isEqualTo(expected);
            first.findings.forEach((k, f) -> assertThat(rec.findings.get(k).evidence()).as(order + " " + k)
                    .isEqualTo(f.evidence()));
        }
        return expected;
    }

    /**
     * The example of docs/notes/spec-1.3-plan.md: at d2, positions 0-7 were received by t2, whose sender (d) had
     * received them by t1, whose sender (p) read x's content. The origin at d2 is x: a cross-tenant read. One hop
     * (version 1.1) named a itself there, and found nothing.
     */
    @Test
    void aPositionForwardedTwiceHasTheOriginWhereItWasFirstReceived() throws Exception {
        staleSendOnP();
        forwardOnD();
        readOnD2();
        Map<String, Object> out = inEveryOrder(false);
        assertThat(out).containsEntry("a<-x", "CROSS_TENANT 8")
                .containsEntry("rules", Map.of("CROSS_TENANT_READ", 1, "TRANSFER_SENT_FOREIGN", 1));
        // the forwarding send is not foreign: a sent on what it had received (decided on d, which cannot know more)
        Recorder rec = judged(ORDERS.get(0), false);
        assertThat(rec.findings.values()).filteredOn(f -> f.rule() == Rule.TRANSFER_SENT_FOREIGN)
                .singleElement().satisfies(f -> assertThat(f.evidence().stream()).isEqualTo("p"));
        assertThat(rec.provenance.unresolved()).isEmpty();
    }

    /**
     * Amendments 3 and 4 together: p's transport was still reading t1 when a's pages were freed and globex's x wrote
     * them (p's XFER_DONE comes after); d forwarded what it received. At d2 the content may be x's: a possible exposure,
     * TRANSFER_OVERWRITTEN_IN_FLIGHT on a, in every order. (The first version followed only certain sends down a
     * chain and found nothing.)
     */
    @Test
    void aWriteInFlightOnTheFirstHopIsPossibleAtTheLastReceiver() throws Exception {
        p.alloc(T, "a", "acme", pages(0, 2), "PREFILL", null);
        p.write(T, "a", "acme", 0, 8, "COMPUTE", null);
        p.xferSend(T, "a", "acme", "t1", 0, 8);
        p.free(T, "a", pages(0, 2), "FINISH");
        p.alloc(T, "x", "globex", pages(0, 2), "PREFILL", null);
        p.write(T, "x", "globex", 0, 8, "COMPUTE", null);
        p.xferDone(T, "a", "acme", "t1");
        forwardOnD();
        readOnD2();
        Map<String, Object> out = inEveryOrder(false);
        assertThat(out).containsEntry("a<-x", "CROSS_TENANT 8")
                .containsEntry("rules", Map.of("TRANSFER_OVERWRITTEN_IN_FLIGHT", 1));
        assertThat(judged(ORDERS.get(5), false).exposures.get("a|x").possible()).isTrue();
    }

    /** A chain whose every hop carried the request's own content names no victim. */
    @Test
    void aChainOfOwnContentIsFine() throws Exception {
        p.alloc(T, "a", "acme", pages(0, 2), "PREFILL", null);
        p.write(T, "a", "acme", 0, 8, "COMPUTE", null);
        p.xferSend(T, "a", "acme", "t1", 0, 8);
        forwardOnD();
        readOnD2();
        assertThat(inEveryOrder(false)).containsOnlyKeys("rules").containsEntry("rules", Map.of());
    }

    /**
     * The first hop's sender (p) is absent: the read is held at that hop, whatever came of the others; a flush judges it
     * there as in version 1 (a, which received t1, as the last writer: its own request here, so fine) with
     * TRANSFER_SEND_MISSING on a; the send that comes later adds its judgement.
     */
    @Test
    void aChainThroughAMissingSendFallsBackAtItsHop() throws Exception {
        forwardOnD();
        readOnD2();
        Recorder held = judged(List.of("d", "d2"), false);
        assertThat(held.exposures).isEmpty();
        assertThat(held.findings).isEmpty();
        assertThat(held.provenance.unresolved()).as("held at the hop t1").hasSize(1);
        assertThat(inEveryOrder(true)).containsOnlyKeys("rules")
                .containsEntry("rules", Map.of("TRANSFER_SEND_MISSING", 1));
        Recorder rec = judged(List.of("d", "d2"), true);
        assertThat(rec.findings.values()).singleElement().satisfies(f -> {
            assertThat(f.subject()).isEqualTo("a");
            assertThat(f.evidence().detail()).contains("through a chain of transfers that passes by a transfer of a"
                    + " (transfer t1)");
        });
        // the sender's record comes after the flush: exposures only grow
        staleSendOnP();
        Recorder late = judged(List.of("d", "d2"), true);
        StreamDetectorHolder holder = new StreamDetectorHolder();
        for (AuditRecord r : parsed("p")) {
            holder.apply(r, late);
        }
        assertThat(late.invalid).isEmpty();
        assertThat(outcome(late)).containsEntry("a<-x", "CROSS_TENANT 8");
        assertThat(late.counts()).containsEntry("TRANSFER_SEND_MISSING", 1).containsEntry("CROSS_TENANT_READ", 1);
    }

    /**
     * Another request reads what was forwarded: on d, globex's b got a's received pages by a SHARE without fingerprint
     * (another tenant: not fine), sent them by its own transfer to d2 and read them there. Its origin is where a
     * received them: x's content at p. Without p, a flush judges the hop as in version 1: a's content, read by b.
     */
    @Test
    @SuppressWarnings("unchecked")
    void aForwardedReadOfAnotherRequestIsJudgedAtTheOrigin() throws Exception {
        d.alloc(T, "a", "acme", pages(0, 2), "PREALLOC", 8);
        d.write(T, "a", "acme", 0, 8, "TRANSFER", "t1", null);
        d.share(T, "b", "initech", pages(0, 2), null);
        d.xferSend(T, "b", "initech", "t9", 0, 8);
        d2.alloc(T, "b", "initech", pages(0, 2), "PREALLOC", 8);
        d2.write(T, "b", "initech", 0, 8, "TRANSFER", "t9", null);
        d2.attach(T, "b", "initech", 8);
        Map<String, Object> withoutP = outcome(judged(List.of("d", "d2"), true));
        assertThat(withoutP).containsEntry("b<-a", "CROSS_TENANT 8").doesNotContainKey("b<-x");
        assertThat((Map<String, Integer>) withoutP.get("rules")).containsEntry("TRANSFER_SEND_MISSING", 1);
        staleSendOnP();
        Map<String, Object> out = inEveryOrder(false);
        assertThat(out).containsEntry("b<-x", "CROSS_TENANT 8").doesNotContainKey("b<-a");
        assertThat((Map<String, Integer>) out.get("rules")).containsEntry("CROSS_TENANT_READ", 1)
                .doesNotContainKey("TRANSFER_SEND_MISSING");
    }

    private List<AuditRecord> parsed(String stream) throws Exception {
        RecordParser parser = new RecordParser();
        List<AuditRecord> out = new ArrayList<>();
        for (String l : lines) {
            AuditRecord r = parser.parse(l);
            if (r.stream().equals(stream)) {
                out.add(r);
            }
        }
        return out;
    }

    /** One detector of stream p, boot b1. */
    private static final class StreamDetectorHolder {
        private StreamDetector detector;

        void apply(AuditRecord r, Recorder rec) {
            if (detector == null) {
                detector = new StreamDetector(r.stream(), "b1");
            }
            detector.apply(r, rec);
        }
    }

    private static TransferRead read(String reader, String via, String transfer) {
        return new TransferRead("d/prod", reader, "acme", 0, via, transfer, "acme", 0, 4, false, 4, T, "r", "b1", 1);
    }

    private static TransferSend send(String request, String transfer, Origin... origins) {
        return new TransferSend("d/prod", request, transfer, "acme", 0, 4, List.of(origins), T, "s-" + request,
                "b1", 1);
    }

    /**
     * Sends whose received positions refer to each other (a hostile or broken log): the walk ends, and the hop that
     * closes the cycle takes the version 1 meaning (the request that received the positions wrote them).
     */
    @Test
    void aCycleOfSendsEnds() {
        Recorder rec = new Recorder();
        rec.provenance.send(send("m", "t1", new Origin(0, 4, "n", "acme", "t2", 0)), rec);
        rec.provenance.send(send("n", "t2", new Origin(0, 4, "m", "acme", "t1", 0)), rec);
        rec.provenance.read(read("r", "m", "t1"), rec);
        assertThat(outcome(rec)).containsEntry("r<-m", "INTRA_TENANT 4").hasSize(2);
        assertThat(rec.provenance.unresolved()).isEmpty();
    }

    /** A chain longer than {@link Provenance#MAX_HOPS} stops there, with the version 1 meaning at that hop. */
    @Test
    void aChainPastTheCapStopsAtIt() {
        Recorder rec = new Recorder();
        int n = Provenance.MAX_HOPS + 8;
        for (int i = 0; i < n; i++) {
            rec.provenance.send(send("q" + i, "t", new Origin(0, 4, "q" + (i + 1), "acme", "t", 0)), rec);
        }
        rec.provenance.read(read("r", "q0", "t"), rec);
        assertThat(outcome(rec)).containsEntry("r<-q" + Provenance.MAX_HOPS, "INTRA_TENANT 4").hasSize(2);
        // and the last sends arriving first, or last, give the same
        Recorder reversed = new Recorder();
        reversed.provenance.read(read("r", "q0", "t"), reversed);
        for (int i = n - 1; i >= 0; i--) {
            reversed.provenance.send(send("q" + i, "t", new Origin(0, 4, "q" + (i + 1), "acme", "t", 0)), reversed);
        }
        assertThat(outcome(reversed)).isEqualTo(outcome(rec));
    }
}
