package app.vigie.bench;

import java.lang.management.ManagementFactory;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import app.vigie.auditlog.intake.RecordParser;
import app.vigie.auditlog.record.AuditRecord;
import app.vigie.auditlog.record.Body;
import app.vigie.auditlog.record.PageRun;
import app.vigie.detection.core.TransferRead;
import app.vigie.detection.core.TransferSend;
import app.vigie.detection.core.DetectionSink;
import app.vigie.detection.core.ExposureRead;
import app.vigie.detection.core.Finding;
import app.vigie.detection.core.RequestFact;
import app.vigie.detection.core.StreamDetector;

/**
 * Figures of the detector core on one thread: records/s and judged slots/s on the prefill/decode example scaled to
 * 1,000,000 records, judged slots/s on one large pool with long contexts, and bytes of state per pool slot of a
 * 2,097,152-token pool. Run it with {@code bench/detector}.
 */
public final class DetectorBenchmark {
    private static final Instant T = Instant.parse("2026-08-27T09:00:00Z");

    /** Counts what the detector reports. */
    static final class Counting implements DetectionSink {
        long findings;
        long exposures;
        long facts;
        long invalid;

        @Override
        public void finding(Finding f) {
            findings++;
        }

        @Override
        public void exposure(ExposureRead e) {
            exposures++;
        }

        @Override
        public void requestFact(RequestFact f) {
            facts++;
        }

        @Override
        public void transferRead(TransferRead r) {
            exposures++;
        }

        @Override
        public void transferSend(TransferSend s) {
            facts++;
        }

        @Override
        public void invalid(AuditRecord r, String reason) {
            invalid++;
        }
    }

    public static void main(String[] args) throws Exception {
        long records = args.length > 0 ? Long.parseLong(args[0]) : 1_000_000;
        scaledExample(records);
        largePool();
        bytesPerSlot();
    }

    private static void scaledExample(long records) throws Exception {
        RecordParser parser = new RecordParser();
        List<AuditRecord> parsed = new ArrayList<>();
        for (String line : ScaledExample.lines(records)) {
            parsed.add(parser.parse(line));
        }
        parsed.sort((a, b) -> a.stream().equals(b.stream()) ? Long.compare(a.seq(), b.seq())
                : a.stream().compareTo(b.stream()));
        for (int round = 0; round < 3; round++) {
            Map<String, StreamDetector> detectors = new HashMap<>();
            Counting sink = new Counting();
            long start = System.nanoTime();
            for (AuditRecord r : parsed) {
                detectors.computeIfAbsent(r.stream(), s -> new StreamDetector(s, r.boot())).apply(r, sink);
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            long judged = detectors.values().stream().mapToLong(StreamDetector::judgedSlots).sum();
            System.out.printf("prefill/decode example x%d (%,d records, %,d streams), round %d: %,.0f records/s, "
                    + "%,.0f judged slots/s (%,d exposure reads, %,d findings)%n", parsed.size() / 242, parsed.size(),
                    detectors.size(), round + 1, parsed.size() / seconds, judged / seconds, sink.exposures,
                    sink.findings);
        }
    }

    /** One pool of 2,097,152 tokens; requests of 64k-token contexts written then attended 8 times each. */
    private static void largePool() {
        int pageSize = 16;
        int pages = 131_072;
        int contextPages = 4096;
        for (int round = 0; round < 3; round++) {
            StreamDetector d = new StreamDetector("big", "b1");
            Counting sink = new Counting();
            long seq = 1;
            d.apply(new AuditRecord("big", "b1", seq++, T, "bench", new Body.Config(pageSize, pages, 2_097_152,
                    2_000_000)), sink);
            long start = System.nanoTime();
            for (int q = 0; q < 64; q++) {
                String id = "q" + q;
                int first = (q * contextPages) % (pages - contextPages);
                List<PageRun> run = List.of(new PageRun(first, contextPages));
                int tokens = contextPages * pageSize;
                d.apply(new AuditRecord("big", "b1", seq++, T, "bench", new Body.Alloc(id, "t" + (q % 4), run,
                        Body.AllocPurpose.PREFILL, null)), sink);
                d.apply(new AuditRecord("big", "b1", seq++, T, "bench", new Body.Write(id, "t" + (q % 4), 0, tokens,
                        Body.WriteSource.COMPUTE, null)), sink);
                for (int a = 0; a < 8; a++) {
                    d.apply(new AuditRecord("big", "b1", seq++, T, "bench", new Body.Attach(id, "t" + (q % 4),
                            tokens)), sink);
                }
                d.apply(new AuditRecord("big", "b1", seq++, T, "bench", new Body.Free(id, run,
                        Body.FreeReason.FINISH)), sink);
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            System.out.printf("one 2,097,152-token pool, 64 requests of 65,536 tokens attended 8 times, round %d: "
                    + "%,.0f judged slots/s%n", round + 1, d.judgedSlots() / seconds);
        }
    }

    private static void bytesPerSlot() {
        System.gc();
        long before = usedHeap();
        StreamDetector d = new StreamDetector("mem", "b1");
        Counting sink = new Counting();
        d.apply(new AuditRecord("mem", "b1", 1, T, "bench", new Body.Config(16, 131_072, 2_097_152, 2_000_000)),
                sink);
        for (int q = 0; q < 1000; q++) {
            List<PageRun> run = List.of(new PageRun(q * 100, 100));
            d.apply(new AuditRecord("mem", "b1", 2L + 2 * q, T, "bench", new Body.Alloc("m" + q, "t", run,
                    Body.AllocPurpose.PREFILL, null)), sink);
            d.apply(new AuditRecord("mem", "b1", 3L + 2 * q, T, "bench", new Body.Write("m" + q, "t", 0, 1600,
                    Body.WriteSource.COMPUTE, null)), sink);
        }
        System.gc();
        long after = usedHeap();
        System.out.printf("state of a 2,097,152-token pool: pool model %,d bytes = %.2f bytes/slot; measured heap "
                + "with 1,000 live requests %,d bytes = %.2f bytes/slot (%d requests alive)%n", d.poolBytes(),
                d.poolBytes() / (double) d.poolSlots(), after - before, (after - before) / (double) d.poolSlots(),
                d.liveRequests());
        keptTables(d, sink);
    }

    /**
     * Freed page tables, kept for the life of the boot (a use after free is judged): 200,000 requests of realistic
     * ids ({@code chatcmpl-} and 24 characters), each of 3 runs of pages (a fragmented pool), written, attended and
     * freed, with a budget large enough to keep them all; the heap measured per kept table, and the budget's estimate.
     */
    private static void keptTables(StreamDetector d, Counting sink) {
        long seq = 2 + 2 * 1000;
        for (int q = 0; q < 1000; q++) {
            d.apply(new AuditRecord("mem", "b1", seq++, T, "bench", new Body.Free("m" + q, List.of(new PageRun(q * 100,
                    100)), Body.FreeReason.FINISH)), sink);
        }
        d.keptTablesBudget(Long.MAX_VALUE);
        System.gc();
        long before = usedHeap();
        long keptBefore = d.keptTableBytes();
        int n = 200_000;
        Random random = new Random(1);
        for (int q = 0; q < n; q++) {
            String id = String.format("chatcmpl-%024x", random.nextLong() & Long.MAX_VALUE);
            int a = random.nextInt(130_000);
            List<PageRun> runs = List.of(new PageRun(a, 8), new PageRun((a + 500) % 130_000, 8),
                    new PageRun((a + 900) % 130_000, 4));
            d.apply(new AuditRecord("mem", "b1", seq++, T, "bench", new Body.Alloc(id, "t" + (q % 50), runs,
                    Body.AllocPurpose.PREFILL, null)), sink);
            d.apply(new AuditRecord("mem", "b1", seq++, T, "bench", new Body.Write(id, "t" + (q % 50), 0, 300,
                    Body.WriteSource.COMPUTE, null)), sink);
            d.apply(new AuditRecord("mem", "b1", seq++, T, "bench", new Body.Attach(id, "t" + (q % 50), 300)), sink);
            d.apply(new AuditRecord("mem", "b1", seq++, T, "bench", new Body.Free(id, runs, Body.FreeReason.FINISH)),
                    sink);
        }
        System.gc();
        long after = usedHeap();
        System.out.printf("freed tables kept: %,d (3 runs each, ids of 33 characters): measured heap %,d bytes = %.0f "
                + "bytes per kept table; the budget counts %.0f bytes per table; the pool model stays %.2f bytes/slot; "
                + "the default budget of %,d bytes keeps about %,d such tables per pool%n", d.keptTables() - 1000,
                after - before, (after - before) / (double) n, (d.keptTableBytes() - keptBefore) / (double) n,
                d.poolBytes() / (double) d.poolSlots(), StreamDetector.DEFAULT_KEPT_TABLES_BUDGET,
                StreamDetector.DEFAULT_KEPT_TABLES_BUDGET / ((d.keptTableBytes() - keptBefore) / n));
    }

    private static long usedHeap() {
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
