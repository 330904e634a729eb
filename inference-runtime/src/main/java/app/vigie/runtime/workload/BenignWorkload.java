package app.vigie.runtime.workload;

import app.vigie.runtime.log.AuditLogWriter;
import app.vigie.runtime.log.AuditLogWriter.Fingerprint;
import app.vigie.runtime.log.PageRun;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * A deterministic, leak-free colocated workload: every request allocates fresh pages, writes its whole prompt
 * before attending it, finishes and frees. Used to measure ingestion and to produce valid logs of any size.
 */
public final class BenignWorkload {
    private static final int PAGE_SIZE = 16;
    private static final int POOL_PAGES = 4096;
    private static final String[] TENANTS = {"acme", "globex", "initech", "umbrella", "hooli", "stark"};

    private final int streams;
    private final long seed;

    public BenignWorkload(int streams, long seed) {
        if (streams < 1) {
            throw new IllegalArgumentException("streams must be >= 1");
        }
        this.streams = streams;
        this.seed = seed;
    }

    /** Emits at least {@code records} records (whole requests, so a few more) to {@code sink}, one line each. */
    public long generate(long records, Consumer<String> sink) {
        long[] count = {0};
        Consumer<String> counting = line -> {
            count[0]++;
            sink.accept(line);
        };
        SplittableRandom random = new SplittableRandom(seed);
        Instant t0 = Instant.parse("2026-08-27T09:00:00Z");
        List<AuditLogWriter> writers = new ArrayList<>();
        for (int s = 0; s < streams; s++) {
            AuditLogWriter w = new AuditLogWriter("bench/n" + s + "/colo/dp0", "bench-model/prod", "b" + seed, counting);
            w.config(t0, PAGE_SIZE, POOL_PAGES, 32_768, 32_000);
            writers.add(w);
        }
        long request = 0;
        while (count[0] < records) {
            AuditLogWriter w = writers.get((int) (request % streams));
            Instant ts = t0.plusMillis(count[0]);
            String id = "bench-" + seed + "-" + request;
            String tenant = TENANTS[random.nextInt(TENANTS.length)];
            int prompt = 1 + random.nextInt(PAGE_SIZE * 24);
            int output = 1 + random.nextInt(64);
            int pages = (prompt + output + PAGE_SIZE - 1) / PAGE_SIZE;
            int first = random.nextInt(POOL_PAGES - pages);
            List<PageRun> run = List.of(new PageRun(first, pages));
            w.admit(ts, id, tenant, prompt, true, null);
            w.alloc(ts, id, tenant, run, "PREFILL", null);
            w.write(ts, id, tenant, 0, prompt, "COMPUTE", fingerprints(id, 0, prompt));
            w.attach(ts, id, tenant, prompt);
            w.write(ts, id, tenant, prompt, output, "COMPUTE", fingerprints(id, prompt, prompt + output));
            w.attach(ts, id, tenant, prompt + output);
            w.finish(ts, id, tenant, "STOP", 200, output, true);
            w.free(ts, id, run, "FINISH");
            request++;
        }
        return count[0];
    }

    /** Fingerprints of the logical pages completed by a write of positions [from, to). */
    private static List<Fingerprint> fingerprints(String request, int from, int to) {
        List<Fingerprint> fps = new ArrayList<>();
        for (int page = from / PAGE_SIZE; page < to / PAGE_SIZE; page++) {
            fps.add(new Fingerprint(page, String.format("%016x%016x", request.hashCode() * 31L + page, (long) page)));
        }
        return fps;
    }
}
