package app.vigie.detection.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

import app.vigie.auditlog.intake.RecordParser;
import app.vigie.runtime.log.AuditLogWriter;
import app.vigie.runtime.log.PageRun;

/**
 * Spec v1.1, "Provenance through transfers", rule by rule: a sender stream {@code p} and a receiver stream {@code d},
 * each case judged with the receiver's stream read first and with the sender's read first, which must agree.
 */
class ProvenanceTest {
    private static final Instant T = Instant.parse("2026-08-27T09:00:00Z");
    private static final int PS = 4;

    private final List<String> lines = new ArrayList<>();
    private final AuditLogWriter p = new AuditLogWriter("p", "d/prod", "b1", lines::add);
    private final AuditLogWriter d = new AuditLogWriter("d", "d/prod", "b1", lines::add);

    ProvenanceTest() {
        p.config(T, PS, 8, 32, 32);
        d.config(T, PS, 8, 32, 32);
    }

    private static List<PageRun> pages(int first, int count) {
        return List.of(new PageRun(first, count));
    }

    /** Request {@code r} prefilled on {@code p} (pages from {@code page}) and received whole on {@code d}. */
    private void prefill(String r, String tenant, int page, int tokens) {
        p.alloc(T, r, tenant, pages(page, (tokens + PS - 1) / PS), "PREFILL", null);
        p.write(T, r, tenant, 0, tokens, "COMPUTE", null);
    }

    private void receive(String r, String tenant, int page, int tokens) {
        receive(r, tenant, page, tokens, "t1");
    }

    private void receive(String r, String tenant, int page, int tokens, String transfer) {
        d.alloc(T, r, tenant, pages(page, (tokens + PS - 1) / PS), "PREALLOC", tokens);
        d.write(T, r, tenant, 0, tokens, "TRANSFER", transfer, null);
        d.xferCommit(T, r, tenant, tokens, tokens, null);
    }

    /** The log judged with one stream's records first, then the other's. */
    private Recorder judged(String first) throws Exception {
        Recorder rec = Recorder.applied(lines, first.equals("p") ? List.of("p", "d") : List.of("d", "p"));
        assertThat(rec.invalid).isEmpty();
        return rec;
    }

    /** reader -> victim -> tokens, and the rules raised, the same in both orders. */
    private Map<String, Object> outcome() throws Exception {
        Recorder a = judged("p");
        Recorder b = judged("d");
        Map<String, Object> out = new TreeMap<>();
        a.exposures.values().forEach(e -> out.put(e.readerRequest() + "<-" + e.victimRequest(), e.kind() + " "
                + e.tokens()));
        out.put("rules", a.counts());
        Map<String, Object> other = new TreeMap<>();
        b.exposures.values().forEach(e -> other.put(e.readerRequest() + "<-" + e.victimRequest(), e.kind() + " "
                + e.tokens()));
        other.put("rules", b.counts());
        assertThat(other).as("receiver's stream read first").isEqualTo(out);
        assertThat(a.findings.keySet()).isEqualTo(b.findings.keySet());
        a.findings.forEach((k, f) -> assertThat(b.findings.get(k).evidence()).as(k).isEqualTo(f.evidence()));
        return out;
    }

    /**
     * Spec 1.3, amendment 2: the origins of a received position are those of the sends of the same request and
     * transfer. The sender's first attempt (t1) reached this receiver with its own content; its pages were then freed
     * and taken by another tenant, and a retry (t2) sent them to another receiver, absent from this log: that send
     * names no victim of this read. Version 1.1, joining by request, made it a cross-tenant read.
     */
    @Test
    void aRetryToAnotherReceiverNamesNoVictimHere() throws Exception {
        prefill("r", "acme", 0, 8);
        p.xferSend(T, "r", "acme", "t1", 0, 8);
        p.free(T, "r", pages(0, 2), "FINISH");
        prefill("x", "globex", 0, 8);
        p.free(T, "x", pages(0, 2), "FINISH");
        p.alloc(T, "r", "acme", pages(0, 2), "PREFILL", null, true);  // re-admitted, its table anew on x's pages
        p.xferSend(T, "r", "acme", "t2", 0, 8);  // a fault of the sender (stale pages), not a read here
        receive("r", "acme", 0, 8, "t1");
        d.attach(T, "r", "acme", 8);
        assertThat(outcome()).containsOnlyKeys("rules").containsEntry("rules", Map.of("TRANSFER_SENT_FOREIGN", 1));
    }

    /**
     * Two transfers of one request to one receiver are judged apart: the positions received by t2 have t2's origins,
     * whichever stream is read first. t1 brought positions 0-3 (its own content), t2 positions 4-7 read after another
     * tenant's request wrote the sender's page: only those four are an exposure.
     */
    @Test
    void twoTransfersOfOneRequestAreJudgedApart() throws Exception {
        p.alloc(T, "r", "acme", pages(0, 2), "PREFILL", null);
        p.write(T, "r", "acme", 0, 8, "COMPUTE", null);
        p.xferSend(T, "r", "acme", "t1", 0, 4);
        p.free(T, "r", pages(1, 1), "EVICT");
        p.alloc(T, "x", "globex", pages(1, 1), "PREFILL", null);
        p.write(T, "x", "globex", 0, 4, "COMPUTE", null);
        p.xferSend(T, "r", "acme", "t2", 4, 4);
        d.alloc(T, "r", "acme", pages(0, 2), "PREALLOC", 8);
        d.write(T, "r", "acme", 0, 4, "TRANSFER", "t1", null);
        d.write(T, "r", "acme", 4, 4, "TRANSFER", "t2", null);
        d.attach(T, "r", "acme", 8);
        assertThat(outcome()).containsEntry("r<-x", "CROSS_TENANT 4")
                .containsEntry("rules", Map.of("CROSS_TENANT_READ", 1, "TRANSFER_SENT_FOREIGN", 1));

        // had t2's positions come by t1, no send of t1 would cover them: t2's origins are not borrowed
        lines.clear();
        p.reboot("b1");
        d.reboot("b1");
        p.config(T, PS, 8, 32, 32);
        d.config(T, PS, 8, 32, 32);
        p.alloc(T, "r", "acme", pages(0, 2), "PREFILL", null);
        p.write(T, "r", "acme", 0, 8, "COMPUTE", null);
        p.xferSend(T, "r", "acme", "t1", 0, 4);
        p.xferSend(T, "r", "acme", "t2", 4, 4);
        d.alloc(T, "r", "acme", pages(0, 2), "PREALLOC", 8);
        d.write(T, "r", "acme", 0, 8, "TRANSFER", "t1", null);
        d.attach(T, "r", "acme", 8);
        Recorder rec = judged("p");
        assertThat(rec.provenance.unresolved()).singleElement().satisfies(r -> {
            assertThat(r.viaTransfer()).isEqualTo("t1");
            assertThat(Provenance.uncovered(r, List.of())).isEqualTo(8);
        });
    }

    /**
     * Spec 1.3, amendment 5: a read no send covers is held until a flush, then judged as in version 1 (the receiving
     * request as the last writer) with TRANSFER_SEND_MISSING on it; a flush again changes nothing; the send that comes
     * after adds its own judgement, and the exposure only grows. Here req-b took req-a's freed pages on the receiver
     * and read what req-a had received; the sender had written only half of it.
     */
    @Test
    void aHeldReadIsJudgedAsVersion1AtAFlushAndALaterSendAddsItsOwn() throws Exception {
        d.alloc(T, "a", "acme", pages(0, 2), "PREALLOC", 8);
        d.write(T, "a", "acme", 0, 8, "TRANSFER", "t1", null);
        d.free(T, "a", pages(0, 2), "FINISH");
        d.alloc(T, "b", "globex", pages(0, 2), "PREALLOC", 8);
        d.attach(T, "b", "globex", 8);
        RecordParser parser = new RecordParser();
        Recorder rec = new Recorder();
        StreamDetector dd = new StreamDetector("d", "b1");
        for (String l : lines.subList(1, lines.size())) {
            dd.apply(parser.parse(l), rec);
        }
        assertThat(rec.findings).as("held: nothing judged before a flush").isEmpty();
        assertThat(rec.provenance.flush(rec)).isEqualTo(1);
        assertThat(rec.counts()).isEqualTo(Map.of("CROSS_TENANT_READ", 1, "TRANSFER_SEND_MISSING", 1));
        assertThat(rec.exposures.get("b|a").tokens()).isEqualTo(8);
        assertThat(rec.findings.get("TRANSFER_SEND_MISSING|d/prod|a").evidence().firstSeq()).as("at b's ATTACH")
                .isEqualTo(6);
        assertThat(rec.provenance.flush(rec)).as("resolved once").isZero();

        int sender = lines.size();
        p.alloc(T, "a", "acme", pages(0, 2), "PREFILL", null);
        p.write(T, "a", "acme", 0, 4, "COMPUTE", null);
        p.xferSend(T, "a", "acme", "t1", 0, 8);
        StreamDetector pd = new StreamDetector("p", "b1");
        pd.apply(parser.parse(lines.get(0)), rec);
        for (String l : lines.subList(sender, lines.size())) {
            pd.apply(parser.parse(l), rec);
        }
        assertThat(rec.counts()).containsEntry("UNINITIALIZED_READ", 1).containsEntry("TRANSFER_SENT_FOREIGN", 1);
        assertThat(rec.exposures.get("b|a").tokens()).as("exposures only grow").isEqualTo(8);
    }

    @Test
    void aTransferOfItsOwnContentIsSilent() throws Exception {
        prefill("r", "acme", 0, 8);
        p.xferSend(T, "r", "acme", "t1", 0, 8);
        receive("r", "acme", 0, 8);
        d.attach(T, "r", "acme", 8);
        assertThat(outcome()).containsOnlyKeys("rules").containsEntry("rules", Map.of());
    }

    /**
     * Spec 1.3, amendment 7: every ATTACH that judges an exposure counts, reads of received positions too. The
     * receiver reads the same received positions at two ATTACHes: the exposure spans both (first sight the first,
     * last the second), whichever stream is read first. The code before kept the first ATTACH only.
     */
    @Test
    void aLaterAttachOfTheSameReceivedPositionsIsTheLastExposure() throws Exception {
        Instant first = T.plusSeconds(10);
        Instant last = T.plusSeconds(20);
        prefill("r", "acme", 0, 8);
        p.free(T, "r", pages(0, 2), "ABORT");
        prefill("x", "globex", 0, 8);  // the intruder takes the freed pages and writes them
        p.xferSend(T, "r", "acme", "t1", 0, 8);
        receive("r", "acme", 0, 8);
        d.attach(first, "r", "acme", 8);
        d.alloc(first, "r", "acme", pages(2, 1), "DECODE", null);
        d.write(first, "r", "acme", 8, 1, "COMPUTE", null);
        d.attach(last, "r", "acme", 9);
        for (String order : List.of("p", "d")) {
            ExposureRead e = judged(order).exposures.get("r|x");
            assertThat(e).as("read with stream " + order + " first").isNotNull();
            assertThat(e.tokens()).isEqualTo(8);
            assertThat(e.firstSeenAt()).as("first sight, " + order + " first").isEqualTo(first);
            assertThat(e.attachAt()).as("the latest ATTACH that read them, " + order + " first").isEqualTo(last);
        }
    }

    @Test
    void whatASenderReadAfterAFreeIsTheIntrudersContent() throws Exception {
        prefill("r", "acme", 0, 8);
        p.xferSend(T, "r", "acme", "t1", 0, 4);
        p.free(T, "r", pages(0, 2), "FINISH");
        prefill("x", "globex", 0, 8);  // the intruder takes the freed pages and writes them
        p.xferSend(T, "r", "acme", "t1", 4, 4);
        receive("r", "acme", 0, 8);
        d.attach(T, "r", "acme", 8);
        assertThat(outcome()).containsEntry("r<-x", "CROSS_TENANT 4")
                .containsEntry("rules", Map.of("CROSS_TENANT_READ", 1, "TRANSFER_SENT_FOREIGN", 1)).hasSize(2);
    }

    @Test
    void aLaterReaderOfTheReceivedSlotsReadsTheirOriginNotTheReceiver() throws Exception {
        prefill("r", "acme", 0, 8);
        p.free(T, "r", pages(0, 2), "FINISH");
        prefill("x", "globex", 0, 8);
        p.xferSend(T, "r", "acme", "t1", 0, 8);
        receive("r", "acme", 0, 8);
        d.free(T, "r", pages(0, 2), "FINISH");
        // the 2026 shape on the decode node: a request of acme given r's stale pages
        d.alloc(T, "s", "acme", pages(0, 2), "PREALLOC", 8);
        d.write(T, "s", "acme", 0, 1, "TRANSFER", null);
        d.attach(T, "s", "acme", 8);
        assertThat(outcome()).containsEntry("s<-x", "CROSS_TENANT 7").doesNotContainKey("s<-r")
                .doesNotContainKey("r<-x");  // r never attended: its own reads are not exposures yet
    }

    @Test
    void anOwnOriginLeavesTheReceiverTheLastWriterForOtherReaders() throws Exception {
        prefill("r", "acme", 0, 8);
        p.xferSend(T, "r", "acme", "t1", 0, 8);
        receive("r", "acme", 0, 8);
        d.free(T, "r", pages(0, 2), "FINISH");
        d.alloc(T, "s", "globex", pages(0, 2), "PREALLOC", 8);
        d.attach(T, "s", "globex", 8);
        assertThat(outcome()).containsEntry("s<-r", "CROSS_TENANT 8")
                .containsEntry("rules", Map.of("CROSS_TENANT_READ", 1));
    }

    @Test
    void aSlotTheSenderNeverWroteIsAnUninitializedRead() throws Exception {
        prefill("r", "acme", 0, 6);  // positions 6 and 7 never computed
        p.xferSend(T, "r", "acme", "t1", 0, 8);
        receive("r", "acme", 0, 8);
        d.attach(T, "r", "acme", 8);
        assertThat(outcome()).containsEntry("rules", Map.of("UNINITIALIZED_READ", 1, "TRANSFER_SENT_FOREIGN", 1)).hasSize(1);
    }

    @Test
    void everySendOfAPositionGivesItsOriginAndAReadWithoutSendIsHeld() throws Exception {
        prefill("r", "acme", 0, 8);
        p.xferSend(T, "r", "acme", "t1", 0, 8);  // handed over: its own
        p.free(T, "r", pages(0, 2), "FINISH");
        prefill("x", "globex", 0, 4);
        p.xferSend(T, "r", "acme", "t1", 0, 8);  // the read known to be over, after the intruder's write
        receive("r", "acme", 0, 8);
        d.attach(T, "r", "acme", 8);
        // a second request received by a sent transfer whose sender never wrote its record
        prefill("u", "acme", 2, 4);
        receive("u", "acme", 2, 4);
        d.attach(T, "u", "acme", 4);
        assertThat(outcome()).containsEntry("r<-x", "CROSS_TENANT 4").hasSize(2);
        Recorder rec = judged("d");
        assertThat(rec.provenance.unresolved()).singleElement()
                .satisfies(read -> assertThat(read.via()).isEqualTo("u"));
    }

    /** A page the receiver holds twice in its table: each slot keeps the position it was received at. */
    @Test
    void aPageReceivedAtTwoLogicalPagesKeepsEachSlotsOwnPosition() throws Exception {
        prefill("r", "acme", 0, 8);
        p.xferSend(T, "r", "acme", "t1", 0, 4);
        p.free(T, "r", pages(0, 2), "FINISH");
        prefill("x", "globex", 1, 4);  // x takes r's second page: r's positions 4-7 there are x's now
        p.xferSend(T, "r", "acme", "t1", 4, 4);
        d.alloc(T, "r", "acme", pages(5, 1), "PREALLOC", 8);
        d.write(T, "r", "acme", 0, 4, "TRANSFER", "t1", null);
        d.free(T, "r", pages(5, 1), "ABORT");
        d.alloc(T, "r", "acme", pages(5, 1), "PREALLOC", 8);  // the same page again: the table is [5, 5]
        d.write(T, "r", "acme", 4, 2, "TRANSFER", "t1", null);  // slots 0-1 now hold positions 4-5, slots 2-3 keep 2-3
        d.attach(T, "r", "acme", 8);
        // positions 0-1 and 4-5 read slots 0-1 (received at 4-5: x's); 2-3 and 6-7 read slots 2-3 (received at 2-3)
        assertThat(outcome()).containsEntry("r<-x", "CROSS_TENANT 4")
                .containsEntry("rules", Map.of("CROSS_TENANT_READ", 1, "TRANSFER_SENT_FOREIGN", 1)).hasSize(2);
        assertThat(judged("p").provenance.unresolved()).isEmpty();
    }

    @Test
    void aCacheSharedWithinATenantIsFineByOriginAndProvenanceGoesOneHop() throws Exception {
        prefill("a", "acme", 0, 4);
        // b of acme shares a's page without fingerprint (a prefix cache within acme), sends it and its own page
        p.xferSend(T, "a", "acme", "t1", 0, 4);
        d.alloc(T, "a", "acme", pages(0, 1), "PREALLOC", 4);
        d.write(T, "a", "acme", 0, 4, "TRANSFER", "t1", null);
        d.attach(T, "a", "acme", 4);
        // on the decode node, b (acme) shares a's received page without fingerprint: its origin a is of acme: fine
        d.share(T, "b", "acme", pages(0, 1), null);
        d.attach(T, "b", "acme", 4);
        // c (globex) shares it too: the origin a is another tenant's: an exposure of a, not of a's transfer; and a
        // shared page of another tenant's content without fingerprint is SHARED_PAGE_FOREIGN (b's is not)
        d.share(T, "c", "globex", pages(0, 1), null);
        d.attach(T, "c", "globex", 4);
        assertThat(outcome()).containsEntry("c<-a", "CROSS_TENANT 4").doesNotContainKey("b<-a")
                .containsEntry("rules", Map.of("CROSS_TENANT_READ", 1, "SHARED_PAGE_FOREIGN", 1));
    }
}
