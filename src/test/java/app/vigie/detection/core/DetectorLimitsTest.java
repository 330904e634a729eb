package app.vigie.detection.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import app.vigie.auditlog.intake.RecordParser;
import app.vigie.runtime.log.AuditLogWriter;
import app.vigie.runtime.log.PageRun;

/**
 * Issue 41, point 1: nothing a record says can make a detector allocate past its limits. Each test attacks with the
 * record a hostile runtime would write and checks that the boot is not judged ({@code STREAM_UNSUPPORTED}, with the
 * limit named), that its memory is given back, and that nothing else is judged differently.
 */
class DetectorLimitsTest {
    private static final Instant T = Instant.parse("2026-12-06T09:00:00Z");

    private final RecordParser parser = new RecordParser();
    private final Recorder rec = new Recorder();
    /** What the budget was asked for, in bytes. */
    private final List<Long> asked = new ArrayList<>();

    private final DetectorLimits.PoolBudget counting = (bytes, allocation) -> {
        asked.add(bytes);
        allocation.run();
        return null;
    };

    private void apply(StreamDetector d, List<String> lines) throws Exception {
        for (String line : lines) {
            d.apply(parser.parse(line), rec);
        }
    }

    private static List<PageRun> pages(int first, int count) {
        return List.of(new PageRun(first, count));
    }

    /** A normal boot where b of globex reads what a of acme left: one cross-tenant exposure. */
    private static List<String> leakingBoot(String stream, String boot) {
        List<String> lines = new ArrayList<>();
        AuditLogWriter w = new AuditLogWriter(stream, "d/prod", boot, lines::add);
        w.config(T, 4, 16, 64, 60);
        w.alloc(T, "a", "acme", pages(0, 2), "PREFILL", null);
        w.write(T, "a", "acme", 0, 8, "COMPUTE", null);
        w.free(T, "a", pages(0, 2), "FINISH");
        w.alloc(T, "b", "globex", pages(0, 2), "PREFILL", null);
        w.attach(T, "b", "globex", 8);
        return lines;
    }

    @Test
    void aPoolAboveTheLimitIsNotJudgedAndNothingIsAllocatedForIt() throws Exception {
        StreamDetector d = new StreamDetector("s", "b1");
        d.limits(DetectorLimits.DEFAULT.withBudget(counting));
        List<String> lines = new ArrayList<>();
        AuditLogWriter w = new AuditLogWriter("s", "d/prod", "b1", lines::add);
        // the attack of issue 41: 2^31 - 16 slots, 8 GiB of pool model
        w.config(T, 16, 134_217_727, 1_048_576, 1_000_000);
        w.alloc(T, "a", "acme", pages(0, 2), "PREFILL", null);
        w.attach(T, "a", "acme", 32);
        apply(d, lines);

        assertThat(asked).as("the budget is not even asked: the limit comes first").isEmpty();
        assertThat(d.poolBytes()).isZero();
        assertThat(rec.rules()).containsExactly(Rule.STREAM_UNSUPPORTED);
        Finding f = rec.findings.values().iterator().next();
        assertThat(f.subject()).isEqualTo("s@b1");
        assertThat(f.evidence().detail()).contains("2147483632 slots", "134217728 slots",
                "vigie.detection.max-pool-slots", "not judged from seq 1");
        assertThat(rec.invalid).as("the boot's later records are kept, not reported invalid one by one").isEmpty();

        StreamDetector other = new StreamDetector("s", "b2");
        other.limits(DetectorLimits.DEFAULT.withBudget(counting));
        apply(other, leakingBoot("s", "b2"));
        assertThat(rec.rules()).contains(Rule.CROSS_TENANT_READ);
        assertThat(asked).hasSize(1);
        assertThat(asked.get(0)).isEqualTo(DetectorLimits.poolBytes(64, 16));
    }

    @Test
    void aPoolTheBudgetRefusesIsNotJudgedAndItsAllocationNeverRuns() throws Exception {
        StreamDetector d = new StreamDetector("s", "b1");
        d.limits(DetectorLimits.DEFAULT.withBudget((bytes, allocation) -> "no room for " + bytes + " bytes"));
        List<String> lines = new ArrayList<>();
        AuditLogWriter w = new AuditLogWriter("s", "d/prod", "b1", lines::add);
        w.config(T, 16, 1 << 20, 65_536, 60_000);
        apply(d, lines);
        assertThat(d.poolBytes()).isZero();
        assertThat(d.unsupported()).contains("no room for " + DetectorLimits.poolBytes(1L << 24, 1 << 20),
                "memory budget");
        assertThat(rec.rules()).containsExactly(Rule.STREAM_UNSUPPORTED);
    }

    @Test
    void tablesThatWouldGrowPastTheLimitStopTheBootAndGiveItsMemoryBack() throws Exception {
        StreamDetector d = new StreamDetector("s", "b1");
        d.limits(new DetectorLimits(1L << 20, 4096, 64, counting));
        List<String> lines = new ArrayList<>();
        AuditLogWriter w = new AuditLogWriter("s", "d/prod", "b1", lines::add);
        w.config(T, 1, 2048, 2048, 2048);
        // one request allocating the whole pool again and again: its table would grow by 2048 entries a record
        for (int i = 0; i < 4; i++) {
            w.alloc(T, "a", "acme", pages(0, 2048), "PREFILL", null);
        }
        apply(d, lines);
        assertThat(rec.rules()).contains(Rule.STREAM_UNSUPPORTED);
        assertThat(d.unsupported()).contains("more than 4096 pages", "vigie.detection.max-table-entries");
        assertThat(rec.findings.get("STREAM_UNSUPPORTED|d/prod|s@b1").evidence().firstSeq()).isEqualTo(4);
        assertThat(d.poolBytes()).isZero();
        assertThat(d.liveRequests()).isZero();
    }

    @Test
    void aRunOfTwoBillionPagesIsRefusedWithoutWalkingIt() throws Exception {
        StreamDetector d = new StreamDetector("s", "b1");
        List<String> lines = new ArrayList<>();
        AuditLogWriter w = new AuditLogWriter("s", "d/prod", "b1", lines::add);
        w.config(T, 16, 1024, 16_384, 16_000);
        w.alloc(T, "a", "acme", pages(0, Integer.MAX_VALUE), "PREFILL", null);
        apply(d, lines);
        assertThat(rec.invalid).singleElement().asString().contains("lie outside the pool of 1024 pages");
        assertThat(d.unsupported()).isNull();
    }

    @Test
    void tooManyLiveRequestsStopTheBootButFreedOnesDoNotCount() throws Exception {
        StreamDetector d = new StreamDetector("s", "b1");
        d.limits(new DetectorLimits(1L << 20, 1L << 20, 16, counting));
        List<String> lines = new ArrayList<>();
        AuditLogWriter w = new AuditLogWriter("s", "d/prod", "b1", lines::add);
        w.config(T, 1, 4096, 4096, 4096);
        for (int i = 0; i < 100; i++) {
            w.alloc(T, "done" + i, "acme", pages(i, 1), "PREFILL", null);
            w.free(T, "done" + i, pages(i, 1), "FINISH");
        }
        for (int i = 0; i < 17; i++) {
            w.alloc(T, "live" + i, "acme", pages(200 + i, 1), "PREFILL", null);
        }
        apply(d, lines);
        assertThat(d.unsupported()).contains("more than 16 requests", "vigie.detection.max-live-requests");
        assertThat(rec.findings.get("STREAM_UNSUPPORTED|d/prod|s@b1").evidence().detail()).contains("seq 218");
    }

    @Test
    void aBootNotJudgedStaysSoThroughASnapshot() throws Exception {
        StreamDetector d = new StreamDetector("s", "b1");
        d.limits(new DetectorLimits(1024, 4096, 64, counting));
        List<String> lines = new ArrayList<>(leakingBoot("s", "b1"));
        lines.replaceAll(l -> l.replace("\"pool_pages\":16", "\"pool_pages\":1024"));
        apply(d, lines.subList(0, 3));
        assertThat(d.unsupported()).contains("4096 slots (1024 pages of 4)");

        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        d.snapshot(new DataOutputStream(bytes));
        StreamDetector back = StreamDetector.restore(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
        assertThat(back.unsupported()).isEqualTo(d.unsupported());
        assertThat(back.unsupportedFinding()).isEqualTo(d.unsupportedFinding());
        assertThat(back.nextSeq()).isEqualTo(4);

        apply(back, lines.subList(3, lines.size()));
        assertThat(rec.rules()).containsExactly(Rule.STREAM_UNSUPPORTED);
        assertThat(rec.invalid).isEmpty();
        assertThat(back.poolBytes()).isZero();
    }
}
