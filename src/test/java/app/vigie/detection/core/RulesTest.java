package app.vigie.detection.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;

import app.vigie.auditlog.intake.RecordParser;
import app.vigie.auditlog.record.AuditRecord;
import app.vigie.auditlog.record.Body;
import app.vigie.runtime.log.AuditLogWriter;
import app.vigie.runtime.log.AuditLogWriter.Fingerprint;
import app.vigie.runtime.log.PageRun;

/** Every rule of the spec, with cases that fire and cases that must stay silent. */
class RulesTest {
    private static final Instant T = Instant.parse("2026-08-27T09:00:00Z");
    private static final int PS = 4;

    private final List<String> lines = new ArrayList<>();
    private final AuditLogWriter w = new AuditLogWriter("s", "d/prod", "b1", lines::add);
    private final Recorder rec = new Recorder();
    private StreamDetector detector = new StreamDetector("s", "b1");
    private int applied;

    RulesTest() {
        w.config(T, PS, 16, 64, 60);
    }

    /** Applies the lines written so far. */
    private Recorder run() throws Exception {
        RecordParser parser = new RecordParser();
        for (; applied < lines.size(); applied++) {
            var r = parser.parse(lines.get(applied));
            if (!r.boot().equals(detector.boot())) {
                detector = new StreamDetector(r.stream(), r.boot());
            }
            detector.apply(r, rec);
        }
        return rec;
    }

    private static List<PageRun> pages(int first, int count) {
        return List.of(new PageRun(first, count));
    }

    /** A request that allocates pages, writes {@code tokens} of its own, and optionally frees them. */
    private void writer(String request, String tenant, int firstPage, int tokens, List<Fingerprint> fp, boolean free) {
        int pageCount = (tokens + PS - 1) / PS;
        w.alloc(T, request, tenant, pages(firstPage, pageCount), "PREFILL", null);
        w.write(T, request, tenant, 0, tokens, "COMPUTE", fp);
        w.attach(T, request, tenant, tokens);
        w.finish(T, request, tenant, "STOP", 200, 1, true);
        if (free) {
            w.free(T, request, pages(firstPage, pageCount), "FINISH");
        }
    }

    @Test
    void readingOnlyOwnWritesIsSilent() throws Exception {
        writer("a", "acme", 0, 8, null, true);
        writer("b", "globex", 0, 8, null, true);
        assertThat(run().findings).isEmpty();
        assertThat(rec.exposures).isEmpty();
    }

    @Test
    void attendingStaleSlotsOfAnotherTenantIsACrossTenantExposure() throws Exception {
        writer("a", "acme", 0, 8, null, true);
        w.alloc(T, "b", "globex", pages(0, 2), "PREFILL", null);
        w.write(T, "b", "globex", 0, 3, "COMPUTE", null);
        w.attach(T, "b", "globex", 8);
        w.finish(T, "b", "globex", "STOP", 200, 4, true);
        run();
        assertThat(rec.rules()).containsExactly(Rule.CROSS_TENANT_READ);
        ExposureRead e = rec.exposures.get("b|a");
        assertThat(e.kind()).isEqualTo(ExposureKind.CROSS_TENANT);
        assertThat(e.tokens()).isEqualTo(5);
        assertThat(e.victimTenant()).isEqualTo("acme");
        assertThat(rec.findings.values().iterator().next().evidence().detail())
                .contains("5 positions (3-7) last written by a of tenant acme on pages 0-1");
    }

    /**
     * A read of many writers' content: every writer gets its exposure, the finding names the first
     * {@link StreamDetector#EVIDENCE_WRITERS} in the order the read met them and counts the others exactly (issue 45:
     * uncapped, a read of 1,000 victims made a finding of 88 KB).
     */
    @Test
    void aReadOfManyWritersNamesTheFirstAndCountsTheOthers() throws Exception {
        int writers = StreamDetector.EVIDENCE_WRITERS + 3;
        for (int i = 0; i < writers; i++) {
            writer("w" + i, "tenant" + i, i, PS, null, true);
        }
        w.alloc(T, "r", "reader", pages(0, writers), "PREFILL", null);
        w.attach(T, "r", "reader", writers * PS);
        run();
        assertThat(rec.rules()).containsExactly(Rule.CROSS_TENANT_READ);
        assertThat(rec.exposures).hasSize(writers);
        String detail = rec.findings.values().iterator().next().evidence().detail();
        for (int i = 0; i < StreamDetector.EVIDENCE_WRITERS; i++) {
            assertThat(detail).contains(PS + " positions (" + (i * PS) + "-" + (i * PS + PS - 1) + ") last written by w"
                    + i + " of tenant tenant" + i + " on pages " + i);
        }
        assertThat(detail).doesNotContain("by w" + StreamDetector.EVIDENCE_WRITERS + " ")
                .endsWith("; and " + 3 * PS + " positions last written by 3 other requests, each in its own exposure"
                        + " of this read");
    }

    @Test
    void staleSlotsOfTheSameTenantAreAnIntraTenantExposure() throws Exception {
        writer("a", "acme", 0, 8, null, true);
        w.alloc(T, "b", "acme", pages(0, 2), "PREFILL", null);
        w.attach(T, "b", "acme", 6);
        run();
        assertThat(rec.rules()).containsExactly(Rule.INTRA_TENANT_READ);
        assertThat(rec.exposures.get("b|a").kind()).isEqualTo(ExposureKind.INTRA_TENANT);
        assertThat(rec.exposures.get("b|a").tokens()).isEqualTo(6);
    }

    @Test
    void eachPositionCountsOnceOverEveryAttachOfTheReader() throws Exception {
        writer("a", "acme", 0, 8, null, true);
        w.alloc(T, "b", "globex", pages(0, 2), "PREFILL", null);
        w.attach(T, "b", "globex", 4);
        w.attach(T, "b", "globex", 6);
        w.attach(T.plusSeconds(1), "b", "globex", 6);
        run();
        assertThat(rec.exposures.get("b|a").tokens()).isEqualTo(6);
        assertThat(rec.exposures.get("b|a").firstSeenAt()).isEqualTo(T);
        assertThat(rec.exposures.get("b|a").attachAt()).isEqualTo(T.plusSeconds(1));
    }

    @Test
    void neverWrittenSlotsAreUninitializedReads() throws Exception {
        w.alloc(T, "a", "acme", pages(3, 1), "PREFILL", null);
        w.write(T, "a", "acme", 0, 2, "COMPUTE", null);
        w.attach(T, "a", "acme", 4);
        run();
        assertThat(rec.rules()).containsExactly(Rule.UNINITIALIZED_READ);
        assertThat(rec.exposures).isEmpty();
    }

    @Test
    void aRebootForgetsEveryWrite() throws Exception {
        writer("a", "acme", 0, 8, null, false);
        w.reboot("b2");
        w.config(T, PS, 16, 64, 60);
        w.alloc(T, "b", "globex", pages(0, 2), "PREFILL", null);
        w.attach(T, "b", "globex", 8);
        run();
        assertThat(rec.rules()).containsExactly(Rule.UNINITIALIZED_READ);
        assertThat(rec.exposures).isEmpty();
    }

    @Test
    void aSharedPageWithAMatchingFingerprintOfTheSameTenantIsSilent() throws Exception {
        writer("a", "acme", 0, 4, List.of(new Fingerprint(0, "f0")), false);
        w.share(T, "b", "acme", pages(0, 1), List.of("F0"));
        w.attach(T, "b", "acme", 4);
        run();
        assertThat(rec.findings).isEmpty();
    }

    @Test
    void aSharedPageWithAMatchingFingerprintOfAnotherTenantIsACrossTenantShare() throws Exception {
        writer("a", "acme", 0, 4, List.of(new Fingerprint(0, "f0")), false);
        w.share(T, "b", "globex", pages(0, 1), List.of("f0"));
        w.attach(T, "b", "globex", 4);
        run();
        assertThat(rec.rules()).containsExactly(Rule.CROSS_TENANT_SHARE);
        assertThat(rec.exposures).isEmpty();
    }

    @Test
    void aSharedPageWhoseFingerprintDiffersIsAnExposureEvenInsideTheTenant() throws Exception {
        writer("a", "acme", 0, 4, List.of(new Fingerprint(0, "f0")), false);
        w.share(T, "b", "acme", pages(0, 1), List.of("ff"));
        w.attach(T, "b", "acme", 4);
        run();
        assertThat(rec.rules()).containsExactlyInAnyOrder(Rule.INTRA_TENANT_READ, Rule.SHARED_PAGE_FOREIGN);
        assertThat(rec.exposures.get("b|a").tokens()).isEqualTo(4);
    }

    @Test
    void aSharedPageWhoseFingerprintIsUnknownIsJudgedLikeAnyOther() throws Exception {
        writer("a", "acme", 0, 4, null, false);
        w.share(T, "b", "globex", pages(0, 1), List.of("f0"));
        w.attach(T, "b", "globex", 4);
        run();
        assertThat(rec.rules()).containsExactlyInAnyOrder(Rule.CROSS_TENANT_READ, Rule.SHARED_PAGE_FOREIGN);
    }

    @Test
    void aLaterWriteWithoutFingerprintMakesThePageUnknown() throws Exception {
        writer("a", "acme", 0, 4, List.of(new Fingerprint(0, "f0")), false);
        w.write(T, "a", "acme", 2, 1, "COMPUTE", null);
        w.share(T, "b", "acme", pages(0, 1), List.of("f0"));
        w.attach(T, "b", "acme", 4);
        run();
        assertThat(rec.rules()).containsExactlyInAnyOrder(Rule.INTRA_TENANT_READ, Rule.SHARED_PAGE_FOREIGN);
    }

    @Test
    void sharesWithoutFingerprintsAreFineInsideATenantAndExposuresAcrossTenants() throws Exception {
        writer("a", "acme", 0, 4, null, false);
        w.share(T, "b", "acme", pages(0, 1), null);
        w.attach(T, "b", "acme", 4);
        w.share(T, "c", "globex", pages(0, 1), null);
        w.attach(T, "c", "globex", 4);
        run();
        assertThat(rec.rules()).containsExactlyInAnyOrder(Rule.CROSS_TENANT_READ, Rule.SHARED_PAGE_FOREIGN);
        assertThat(rec.exposures).containsOnlyKeys("c|a");
        assertThat(rec.findings.values()).filteredOn(f -> f.rule() == Rule.SHARED_PAGE_FOREIGN).singleElement()
                .satisfies(f -> assertThat(f.subject()).isEqualTo("c"));
    }

    /**
     * Spec v1.2, preemption: a request whose pages were all freed starts a new table with {@code restart}; its
     * recomputation writes there and its reads are judged there. Spec 1.3, amendment 6: a restart while it still owns
     * pages is applied: those pages are given up first (as by FREE EVICT) and RESTART_WHILE_OWNING says the log
     * missed a FREE (1.2 refused the record).
     */
    @Test
    void aRestartedTableIsTheOneLaterRecordsAddressAndARestartWhileOwningGivesUpItsPagesFirst() throws Exception {
        w.alloc(T, "a", "acme", pages(0, 2), "PREFILL", null);
        w.write(T, "a", "acme", 0, 8, "COMPUTE", null);
        w.free(T, "a", pages(0, 2), "EVICT");
        w.alloc(T, "b", "globex", pages(0, 2), "PREFILL", null);
        w.write(T, "b", "globex", 0, 8, "COMPUTE", null);
        w.alloc(T, "a", "acme", pages(4, 2), "PREFILL", null, true);  // a new table: pages 4-5
        w.write(T, "a", "acme", 0, 8, "COMPUTE", null);
        w.attach(T, "a", "acme", 8);
        w.attach(T, "b", "globex", 8);
        run();
        assertThat(rec.findings).as("a reads its recomputation, b its own pages").isEmpty();
        assertThat(rec.invalid).isEmpty();
        // a's table is 4-5: a restart now, while it owns them, gives them up and starts a table at 8-9
        w.alloc(T, "a", "acme", pages(8, 2), "DECODE", null, true);
        w.write(T, "a", "acme", 0, 8, "COMPUTE", null);
        w.attach(T, "a", "acme", 8);
        // pages 4-5 are free: another request takes them without DOUBLE_ALLOC
        w.alloc(T, "c", "acme", pages(4, 2), "PREFILL", null);
        run();
        assertThat(rec.invalid).isEmpty();
        assertThat(rec.rules()).containsExactly(Rule.RESTART_WHILE_OWNING);
        assertThat(rec.findings.values().iterator().next().subject()).isEqualTo("a");
        assertThat(rec.findings.values().iterator().next().evidence().detail())
                .contains("still owned 2 page(s) on this stream (4-5)");
        // the same log without restart: the recomputation writes the old table, b's pages, and b reads a's tokens
        Recorder old = new Recorder();
        StreamDetector d = new StreamDetector("s", "b1");
        RecordParser parser = new RecordParser();
        for (String line : lines) {
            d.apply(parser.parse(line.replace(",\"restart\":true", "")), old);
        }
        assertThat(old.exposures).containsKey("b|a");
    }

    /**
     * Amendment 6 through a SHARE: the restart gives up the pages the request still owned, so another tenant that
     * allocates them is no DOUBLE_ALLOC; what the request wrote stays in the slots, so that tenant reading them
     * without writing reads the request's tokens: a cross-tenant read of it.
     */
    @Test
    void aRestartWhileOwningThroughAShareGivesUpThePagesButNotTheirContent() throws Exception {
        w.alloc(T, "a", "acme", pages(0, 2), "PREFILL", null);
        w.write(T, "a", "acme", 0, 8, "COMPUTE", null);
        w.alloc(T, "cache", "acme", pages(4, 2), "PREFILL", null);
        w.write(T, "cache", "acme", 0, 8, "COMPUTE", null);
        w.share(T, "a", "acme", pages(4, 2), null, true);  // a's table is the cached 4-5 now; it gives up 0-1
        w.attach(T, "a", "acme", 8);
        w.alloc(T, "c", "globex", pages(0, 2), "PREFILL", null);
        w.attach(T, "c", "globex", 8);
        run();
        assertThat(rec.invalid).isEmpty();
        assertThat(rec.counts()).isEqualTo(Map.of("RESTART_WHILE_OWNING", 1, "CROSS_TENANT_READ", 1));
        assertThat(rec.findings.values()).filteredOn(f -> f.rule() == Rule.RESTART_WHILE_OWNING)
                .singleElement().satisfies(f -> {
                    assertThat(f.subject()).isEqualTo("a");
                    assertThat(f.evidence().detail()).startsWith("SHARE with restart of a")
                            .contains("2 page(s) on this stream (0-1)");
                });
        assertThat(rec.exposures.get("c|a").tokens()).isEqualTo(8);
        assertThat(rec.exposures).doesNotContainKey("a|cache");  // shared within acme without fingerprint: rule 2
    }

    /**
     * A stale prefix-cache index: the page a's prefix was cached on was freed and written by another request; a later
     * hit shares it. The read is an exposure of the page's new writer, and SHARED_PAGE_FOREIGN says the cache handed
     * it over; reads of stale content on the reader's own pages, or of a page never written, are told apart.
     */
    @Test
    void aSharedPageWrittenByAnotherRequestSinceItWasCachedIsASharedPageForeign() throws Exception {
        writer("a", "acme", 0, 8, List.of(new Fingerprint(0, "f0"), new Fingerprint(1, "f1")), true);
        w.alloc(T, "x", "globex", pages(1, 1), "PREFILL", null);
        w.write(T, "x", "globex", 0, 4, "COMPUTE", List.of(new Fingerprint(0, "99")));
        w.share(T, "b", "acme", pages(0, 2), List.of("f0", "f1"));  // page 0 is still a's prefix; page 1 is x's now
        w.alloc(T, "b", "acme", pages(5, 1), "PREFILL", null);
        w.attach(T, "b", "acme", 8);
        w.share(T, "u", "acme", pages(9, 1), List.of("f0"));  // a page never written
        w.attach(T, "u", "acme", 4);
        run();
        assertThat(rec.rules()).containsExactlyInAnyOrder(Rule.CROSS_TENANT_READ, Rule.SHARED_PAGE_FOREIGN,
                Rule.UNINITIALIZED_READ);
        assertThat(rec.exposures).containsOnlyKeys("b|x");
        assertThat(rec.findings.values()).filteredOn(f -> f.rule() == Rule.SHARED_PAGE_FOREIGN)
                .extracting(Finding::subject).containsExactlyInAnyOrder("b", "u");
        assertThat(rec.findings.values()).filteredOn(f -> f.rule() == Rule.SHARED_PAGE_FOREIGN
                && f.subject().equals("b")).singleElement().satisfies(f -> assertThat(f.evidence().detail())
                        .contains("4 positions (4-7) on pages 1 it got by SHARE"));
    }

    @Test
    void allocatingAPageStillOwnedByAnotherRequestIsADoubleAllocation() throws Exception {
        w.alloc(T, "a", "acme", pages(2, 2), "PREFILL", null);
        w.alloc(T, "b", "globex", pages(3, 2), "PREFILL", null);
        w.free(T, "a", pages(2, 1), "FINISH");
        w.alloc(T, "c", "globex", pages(2, 1), "PREFILL", null);
        run();
        assertThat(rec.findings).containsOnlyKeys("DOUBLE_ALLOC|d/prod|b");
        assertThat(rec.findings.values().iterator().next().evidence().detail()).contains("pages 3 allocated to b");
    }

    @Test
    void transferFindingsFireOnlyOnAGapOrABadChecksum() throws Exception {
        w.xferCommit(T, "a", "acme", 100, 1, null);
        w.xferCommit(T, "b", "acme", 100, 100, false);
        w.xferCommit(T, "c", "acme", 100, 100, true);
        w.xferCommit(T, "d", "acme", 0, 0, null);
        run();
        assertThat(rec.findings).containsOnlyKeys("TRANSFER_COVERAGE_GAP|d/prod|a",
                "TRANSFER_CHECKSUM_MISMATCH|d/prod|b");
    }

    @Test
    void aContextWindowLargerThanThePoolIsFoundAtConfig() throws Exception {
        run();
        assertThat(rec.findings).isEmpty();
        w.reboot("b2");
        w.config(T, PS, 16, 65, 60);
        run();
        assertThat(rec.findings).containsOnlyKeys("CONTEXT_EXCEEDS_POOL|d/prod|s@b2");
    }

    @Test
    void aLostGapIsAFindingWithTheStreamsDeployment() throws Exception {
        run();
        detector.gapLost(2, 4, T, rec);
        assertThat(rec.findings).as("raised with the record that resumes application").isEmpty();
        detector.apply(new AuditRecord("s", "b1", 5, T.plusSeconds(7), "d/prod",
                new Body.Heartbeat()), rec);
        assertThat(rec.findings).containsOnlyKeys("STREAM_GAP|d/prod|s@b1");
        assertThat(rec.findings.get("STREAM_GAP|d/prod|s@b1").at()).isEqualTo(T.plusSeconds(7));
        assertThat(rec.findings.get("STREAM_GAP|d/prod|s@b1").evidence().firstSeq()).isEqualTo(2);
        assertThat(rec.findings.get("STREAM_GAP|d/prod|s@b1").evidence().lastSeq()).isEqualTo(4);
    }

    @Test
    void impossibleRecordsHaveNoEffectAndAreReported() throws Exception {
        w.alloc(T, "a", "acme", pages(15, 2), "PREFILL", null);
        w.alloc(T, "b", "acme", pages(0, 1), "PREFILL", null);
        w.write(T, "b", "acme", 2, 3, "COMPUTE", null);
        w.attach(T, "b", "acme", 5);
        w.free(T, "b", pages(1, 1), "FINISH");
        w.share(T, "c", "acme", pages(16, 1), null);
        run();
        assertThat(rec.invalid).hasSize(5);
        assertThat(rec.invalid.get(0)).contains("ALLOC: pages 15-16 lie outside the pool of 16 pages");
        assertThat(rec.invalid.get(1)).contains("WRITE: positions 2-4 go beyond the request's page table of 4");
        assertThat(rec.invalid.get(2)).contains("ATTACH: 5 positions go beyond");
        assertThat(rec.invalid.get(3)).contains("FREE: page 1 is not owned by b");
        assertThat(rec.invalid.get(4)).contains("SHARE: pages 16-16 lie outside");
        assertThat(rec.findings).isEmpty();
    }

    @Test
    void recordsAfterALostConfigHaveNoEffect() throws Exception {
        RecordParser parser = new RecordParser();
        w.heartbeat(T);
        StreamDetector d = new StreamDetector("s", "b1");
        d.gapLost(1, 1, T, rec);
        d.apply(parser.parse(lines.get(1)), rec);
        assertThat(rec.invalid).singleElement().asString().contains("no CONFIG before it");
        assertThat(rec.findings).containsOnlyKeys("STREAM_GAP|d/prod|s@b1");
    }

    @Test
    void rejectedRequestsServedAreFoundFromFactsInAnyOrder() {
        RequestFact reject = new RequestFact(RequestFact.Kind.ADMIT_REJECTED, "r", "t", "d", T, "p", "b", 2, false, 0);
        RequestFact served = new RequestFact(RequestFact.Kind.SERVED, "r", "t", "d", T, "q", "b", 9, false, 0);
        RequestFact finishedEmpty = new RequestFact(RequestFact.Kind.FINISHED, "r", "t", "d", T, "q", "b", 9, true, 0);
        RequestFact finishedOutput = new RequestFact(RequestFact.Kind.FINISHED, "r", "t", "d", T, "q", "b", 9, true, 3);

        assertThat(facts(served, reject).rejectedButServed()).isTrue();
        assertThat(facts(reject, served).rejectedButServed()).isTrue();
        assertThat(facts(reject, finishedOutput).rejectedButServed()).isTrue();
        assertThat(facts(reject, finishedEmpty).rejectedButServed()).isFalse();
        assertThat(facts(reject).rejectedButServed()).isFalse();
        assertThat(facts(served, finishedOutput).rejectedButServed()).isFalse();
        assertThat(facts(reject, finishedEmpty).finding()).isEmpty();

        Finding f = facts(finishedOutput, served, reject).finding().orElseThrow();
        assertThat(f.rule()).isEqualTo(Rule.REJECTED_REQUEST_SERVED);
        assertThat(f.deployment()).isEqualTo("d");
        assertThat(f.subject()).isEqualTo("r");
        assertThat(f.evidence()).isEqualTo(new Finding.Evidence("p", "b", 2, 2, "request r of tenant t was rejected "
                + "at admission (seq 2) and then allocated or attended, and finished delivered with output"));
        assertThat(facts(reject, finishedOutput).finding().orElseThrow().evidence().detail())
                .endsWith("(seq 2) and finished delivered with output");
    }

    /**
     * The facts of a request join in any order and any grouping (each transaction, stream or instance merging its
     * part, the store merging the parts): the finding, its first rejection and its wording are always the same.
     */
    @Test
    void requestFactsJoinTheSameWayInEveryOrderAndGrouping() {
        Instant t = T;
        RequestFact.Kind rejected = RequestFact.Kind.ADMIT_REJECTED;
        List<RequestFact> all = List.of(
                new RequestFact(rejected, "r", "t", "d2", t.plusMillis(5), "p", "b", 7, false, 0),
                new RequestFact(rejected, "r", "t", "d1", t.plusMillis(5), "o", "b", 9, false, 0),
                new RequestFact(rejected, "r", "t", "d3", t.plusMillis(9), "a", "b", 1, false, 0),
                new RequestFact(RequestFact.Kind.SERVED, "r", "t", "d", t, "q", "b", 3, false, 0),
                new RequestFact(RequestFact.Kind.FINISHED, "r", "t", "d", t, "q", "b", 4, false, 2),
                new RequestFact(RequestFact.Kind.FINISHED, "r", "t", "d", t, "s", "b", 4, true, 0));
        Finding expected = facts(all.toArray(RequestFact[]::new)).finding().orElseThrow();
        assertThat(expected.deployment()).as("the earliest rejection, then the smaller stream").isEqualTo("d1");
        assertThat(expected.evidence().firstSeq()).isEqualTo(9);
        Random random = new Random(20);
        for (int round = 0; round < 200; round++) {
            List<RequestFact> order = new ArrayList<>(all);
            Collections.shuffle(order, random);
            int cut = random.nextInt(order.size() + 1);
            RequestFacts left = facts(order.subList(0, cut).toArray(RequestFact[]::new));
            RequestFacts right = facts(order.subList(cut, order.size()).toArray(RequestFact[]::new));
            RequestFacts joined = random.nextBoolean() ? left.merge(right) : right.merge(left);
            assertThat(joined).isEqualTo(facts(order.toArray(RequestFact[]::new)));
            assertThat(joined.finding()).contains(expected);
            assertThat(joined.delivered()).as("delivered when any FINISH says so").isTrue();
            assertThat(joined.deliveredOutput()).as("no FINISH was delivered with output").isFalse();
        }
    }

    private static RequestFacts facts(RequestFact... in) {
        RequestFacts f = RequestFacts.of("r");
        for (RequestFact x : in) {
            f = f.with(x);
        }
        return f;
    }

    /**
     * Spec, "Clarifications": a table never shrinks. A request aborted while a step is in flight frees its pages;
     * another tenant's request gets them and writes; the stray step then writes and attends. Both reads are judged.
     */
    @Test
    void aUseAfterFreeIsJudgedBothWays() throws Exception {
        w.alloc(T, "a", "acme", pages(0, 2), "PREFILL", null);
        w.write(T, "a", "acme", 0, 8, "COMPUTE", null);
        w.free(T, "a", pages(0, 2), "ABORT");
        w.alloc(T, "b", "globex", pages(0, 2), "PREFILL", null);
        w.write(T, "b", "globex", 0, 8, "COMPUTE", null);
        w.attach(T, "b", "globex", 8);
        // the stray step of a: writes positions 6-7 (pages it no longer owns), then attends all 8
        w.write(T.plusSeconds(1), "a", "acme", 6, 2, "COMPUTE", null);
        w.attach(T.plusSeconds(1), "a", "acme", 8);
        w.attach(T.plusSeconds(2), "b", "globex", 8);
        run();
        assertThat(rec.invalid).isEmpty();
        assertThat(rec.findings).containsOnlyKeys("CROSS_TENANT_READ|d/prod|a", "CROSS_TENANT_READ|d/prod|b");
        assertThat(rec.exposures.get("a|b").tokens()).as("a read b's positions 0-5").isEqualTo(6);
        assertThat(rec.exposures.get("b|a").tokens()).as("b read the stray write at 6-7").isEqualTo(2);
    }

    @Test
    void anAllocAfterEveryPageWasFreedAppendsToTheSameTable() throws Exception {
        w.alloc(T, "a", "acme", pages(0, 1), "PREFILL", null);
        w.write(T, "a", "acme", 0, 4, "COMPUTE", null);
        w.free(T, "a", pages(0, 1), "EVICT");
        w.alloc(T, "b", "globex", pages(0, 1), "PREFILL", null);
        w.write(T, "b", "globex", 0, 4, "COMPUTE", null);
        w.alloc(T, "a", "acme", pages(5, 1), "DECODE", null);
        w.write(T, "a", "acme", 4, 4, "COMPUTE", null);
        w.attach(T, "a", "acme", 8);
        run();
        assertThat(rec.invalid).isEmpty();
        assertThat(rec.exposures).containsOnlyKeys("a|b");
        assertThat(rec.exposures.get("a|b").tokens()).as("logical page 0 is still page 0, now b's").isEqualTo(4);
    }

    @Test
    void aRecordAddressingAnEvictedTableRaisesAFindingInsteadOfBeingQuarantined() throws Exception {
        run();
        detector.keptTablesBudget(1);
        w.alloc(T, "a", "acme", pages(0, 1), "PREFILL", null);
        w.write(T, "a", "acme", 0, 4, "COMPUTE", null);
        w.free(T, "a", pages(0, 1), "ABORT");
        w.alloc(T, "b", "globex", pages(0, 1), "PREFILL", null);
        w.free(T, "b", pages(0, 1), "FINISH");
        w.attach(T, "a", "acme", 4);
        run();
        assertThat(detector.evictedTables()).isEqualTo(1);
        assertThat(detector.keptTables()).as("the newest freed table stays").isEqualTo(1);
        assertThat(rec.invalid).isEmpty();
        assertThat(rec.findings).containsOnlyKeys("TABLE_EVICTED|d/prod|a");
        assertThat(rec.findings.get("TABLE_EVICTED|d/prod|a").evidence().detail()).contains("not judged");
    }

    /** A request served from the prefix cache only (SHARE, no ALLOC yet) owns nothing but was never freed. */
    @Test
    void aRequestStillBeingServedIsNotEvictedWithTheFreedTables() throws Exception {
        writer("v", "acme", 4, 4, null, true);
        run();
        detector.keptTablesBudget(1);
        w.share(T, "c", "globex", pages(4, 1), null);
        for (String q : List.of("a", "b", "d")) {
            w.alloc(T, q, "acme", pages(0, 1), "PREFILL", null);
            w.free(T, q, pages(0, 1), "FINISH");
        }
        w.alloc(T, "c", "globex", pages(9, 1), "DECODE", null);
        w.attach(T, "c", "globex", 8);
        run();
        assertThat(detector.evictedTables()).as("a, b and v (freed) left; not c").isEqualTo(3);
        assertThat(rec.findings).containsOnlyKeys("CROSS_TENANT_READ|d/prod|c", "UNINITIALIZED_READ|d/prod|c",
                "SHARED_PAGE_FOREIGN|d/prod|c");
        assertThat(rec.exposures.get("c|v").tokens()).isEqualTo(4);
    }

    @Test
    void freedTablesSurviveASnapshotWithTheirEvictionOrder() throws Exception {
        w.alloc(T, "a", "acme", pages(0, 2), "PREFILL", null);
        w.write(T, "a", "acme", 0, 8, "COMPUTE", null);
        w.free(T, "a", pages(0, 2), "ABORT");
        w.share(T, "c", "acme", List.of(new PageRun(3, 1), new PageRun(7, 2)), List.of("aa", "bb", "cc"));
        w.alloc(T, "b", "globex", pages(0, 2), "PREFILL", null);
        w.write(T, "b", "globex", 0, 8, "COMPUTE", null);
        w.free(T, "b", pages(0, 2), "FINISH");
        run();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        detector.snapshot(new DataOutputStream(bytes));
        detector = StreamDetector.restore(new DataInputStream(new ByteArrayInputStream(
                bytes.toByteArray())));
        assertThat(detector.keptTables()).as("a and b; c is still being served").isEqualTo(2);
        assertThat(detector.liveRequests()).isEqualTo(1);
        w.attach(T, "a", "acme", 8);
        w.attach(T, "c", "acme", 12);
        run();
        assertThat(rec.exposures.get("a|b").tokens()).isEqualTo(8);
        assertThat(rec.findings).containsKeys("UNINITIALIZED_READ|d/prod|c");
    }

    /** Spec, "Clarifications": a position is counted once per (reader, victim) across streams. */
    @Test
    void aPositionReadOnTwoTensorParallelRanksCountsOnce() throws Exception {
        List<String> rank1 = new ArrayList<>();
        AuditLogWriter w1 = new AuditLogWriter("s-tp1", "d/prod", "b1", rank1::add);
        w1.config(T, PS, 16, 64, 60);
        for (AuditLogWriter rank : List.of(w, w1)) {
            rank.alloc(T, "a", "acme", pages(0, 2), "PREFILL", null);
            rank.write(T, "a", "acme", 0, 8, "COMPUTE", null);
            rank.free(T, "a", pages(0, 2), "FINISH");
            rank.alloc(T, "b", "globex", pages(0, 2), "PREFILL", null);
            rank.write(T, "b", "globex", 0, 2, "COMPUTE", null);
        }
        w.attach(T, "b", "globex", 6);
        w1.attach(T, "b", "globex", 8);
        run();
        StreamDetector other = new StreamDetector("s-tp1", "b1");
        RecordParser parser = new RecordParser();
        for (String line : rank1) {
            other.apply(parser.parse(line), rec);
        }
        assertThat(rec.exposures.get("b|a").tokens()).as("2-5 on both ranks, 6-7 on one: 6, not 4 + 6")
                .isEqualTo(6);
        assertThat(rec.exposures.get("b|a").positions()).isEqualTo(Ranges.of(2, 8));
    }
}
