package app.vigie.auditlog.rest;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Function;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;

import app.vigie.testing.Api;

/**
 * Issue 41, point 4: adversarial records over the whole HTTP intake, from a fixed seed (printed; {@code
 * -Dvigie.fuzz.seed} replays it). Where {@link MutatedInputTest} mutates valid lines, this one writes lines a hostile
 * runtime would: well-formed records whose numbers are as large as JSON allows (pools of 2^31 slots, runs of 2^31
 * pages, positions near 2^31, numbers of thousands of digits), ids and lists as long as a line may be, nesting a
 * thousand deep, a stream's boot of many live requests that never free. For every batch: never a 5xx, every line
 * accounted for; after them all, the heap holds no more than a bound, and a normal log is still judged.
 * (jqwik's engine does not run inside a {@code @QuarkusTest}; this draws its cases with a seeded Random instead.)
 */
@QuarkusTest
class AdversarialIntakeTest {
    private static final long SEED = Long.getLong("vigie.fuzz.seed", 20261206L);
    private static final int BATCHES = Integer.getInteger("vigie.fuzz.batches", 60);
    private static final long[] HUGE = {Integer.MAX_VALUE, Integer.MAX_VALUE - 1, 1L << 31, 1L << 32,
        Long.MAX_VALUE, 134_217_727, 1 << 27, 1 << 26, 65_536, 16, 1, -1, 0};

    @Test
    void hostileLinesAreEachAccountedForAndTheHeapStaysBounded() {
        System.out.println("AdversarialIntakeTest seed " + SEED + " (-Dvigie.fuzz.seed=" + SEED + " replays it)");
        Random random = new Random(SEED);
        String p = Api.uniquePrefix();
        long heapBefore = usedAfterGc();
        List<Function<Long, String>> kinds = kinds(p, random);
        for (int b = 0; b < BATCHES; b++) {
            // each batch is a boot of its own: a CONFIG at seq 1 (as large as the numbers go, or a real one), then
            // records in seq order, so that they are applied and judged, not held back
            StringBuilder body = new StringBuilder();
            int n = 1 + random.nextInt(12);
            for (int i = 0; i < n; i++) {
                String line = i == 0 ? config(p, random) : kinds.get(random.nextInt(kinds.size())).apply((long) i + 1);
                body.append(line.replace("@S@", p + "/s" + (b % 5)).replace("@B@", "b" + b)).append('\n');
            }
            Response r = Api.post(body.toString());
            assertThat(r.statusCode()).as("batch %d (seed %d): %s", b, SEED, preview(body)).isEqualTo(200);
            JsonPath j = r.jsonPath();
            long accounted = j.getLong("accepted") + j.getLong("duplicates") + j.getLong("rejected_count")
                    + j.getInt("blank_lines");
            assertThat(accounted).as("batch %d: every line accounted for", b).isEqualTo(n);
        }
        long growth = usedAfterGc() - heapBefore;
        System.out.printf("AdversarialIntakeTest: heap after %d batches grew by %d MiB%n", BATCHES, growth >> 20);
        assertThat(growth).as("what the hostile lines left in the heap").isLessThan(256L << 20);

        String leak = Api.leakingIncident(Api.uniquePrefix(), "acme", "globex");
        assertThat(Api.admin().get("/api/incidents/" + leak).then().statusCode(200).extract().jsonPath()
                .getString("classification")).isEqualTo("PERSONAL_DATA_BREACH");
    }

    /** Line makers, given a seq; {@code @S@} and {@code @B@} stand for the batch's stream and boot. */
    private static List<Function<Long, String>> kinds(String p, Random random) {
        String env = "{\"v\":1,\"stream\":\"@S@\",\"boot\":\"@B@\",\"deployment\":\"" + p + "/dep\",\"ts\":"
                + "\"2026-12-06T09:00:00.000Z\",";
        List<Function<Long, String>> k = new ArrayList<>();
        // a second CONFIG, not at seq 1
        k.add(seq -> config(p, random).replace("\"seq\":1,", "\"seq\":" + seq + ","));
        // runs of up to 2^31 pages, the most a line may hold
        k.add(seq -> env + "\"seq\":" + seq + ",\"type\":\"ALLOC\",\"request\":\"r" + random.nextInt(4)
                + "\",\"tenant\":\"t" + random.nextInt(3) + "\",\"pages\":" + runs(random) + ",\"purpose\":\"PREFILL\"}");
        k.add(seq -> env + "\"seq\":" + seq + ",\"type\":\"SHARE\",\"request\":\"r" + random.nextInt(4)
                + "\",\"tenant\":\"t1\",\"pages\":" + runs(random) + "}");
        k.add(seq -> env + "\"seq\":" + seq + ",\"type\":\"FREE\",\"request\":\"r" + random.nextInt(4)
                + "\",\"pages\":" + runs(random) + ",\"reason\":\"FINISH\"}");
        // positions near 2^31
        k.add(seq -> env + "\"seq\":" + seq + ",\"type\":\"WRITE\",\"request\":\"r" + random.nextInt(4)
                + "\",\"tenant\":\"t0\",\"from\":" + huge(random) + ",\"tokens\":" + huge(random)
                + ",\"source\":\"COMPUTE\"}");
        k.add(seq -> env + "\"seq\":" + seq + ",\"type\":\"ATTACH\",\"request\":\"r" + random.nextInt(4)
                + "\",\"tenant\":\"t0\",\"tokens\":" + huge(random) + "}");
        // a number of 5,000 digits, a seq beyond a long
        k.add(seq -> env + "\"seq\":" + "9".repeat(5000) + ",\"type\":\"ATTACH\",\"request\":\"r\",\"tenant\":\"t\","
                + "\"tokens\":1}");
        k.add(seq -> env + "\"seq\":" + seq + ",\"type\":\"ATTACH\",\"request\":\"r\",\"tenant\":\"t\",\"tokens\":1e308}");
        // ids far over their bounds, and a line just under 1 MiB
        k.add(seq -> env + "\"seq\":" + seq + ",\"type\":\"ADMIT\",\"request\":\"" + "r".repeat(300_000)
                + "\",\"tenant\":\"t\",\"input_tokens\":1,\"verdict\":\"ACCEPT\"}");
        k.add(seq -> env.replace("@S@", "s".repeat(1000)) + "\"seq\":" + seq + ",\"type\":\"ATTACH\","
                + "\"request\":\"r\",\"tenant\":\"t\",\"tokens\":1}");
        // a fingerprint list as long as a line allows
        k.add(seq -> {
            StringBuilder fp = new StringBuilder("[");
            for (int i = 0; i < 30_000; i++) {
                fp.append(i == 0 ? "" : ",").append("[").append(i).append(",\"ab12\"]");
            }
            return env + "\"seq\":" + seq + ",\"type\":\"WRITE\",\"request\":\"r0\",\"tenant\":\"t0\",\"from\":0,"
                    + "\"tokens\":16,\"source\":\"COMPUTE\",\"fp\":" + fp + "]}";
        });
        // nesting a thousand and ten thousand deep
        k.add(seq -> "[".repeat(1000) + "]".repeat(1000));
        k.add(seq -> "{\"a\":".repeat(10_000) + "1" + "}".repeat(10_000));
        // duplicate keys, the later one huge
        k.add(seq -> env + "\"seq\":" + seq + ",\"type\":\"ATTACH\",\"request\":\"r\",\"tenant\":\"t\",\"tokens\":1,"
                + "\"tokens\":" + huge(random) + "}");
        // many live requests that never free: one line each, a page each
        k.add(seq -> env + "\"seq\":" + seq + ",\"type\":\"ALLOC\",\"request\":\"live" + seq + "\",\"tenant\":\"t"
                + random.nextInt(50) + "\",\"pages\":[[" + random.nextInt(1 << 16) + ",1]],\"purpose\":\"PREFILL\"}");
        return k;
    }

    /**
     * The boot's first record: a real pool one time in three, the pool of issue 41 (2^31 - 16 slots, an 8 GiB model)
     * one time in three, else numbers as large as they go.
     */
    private static String config(String p, Random random) {
        int kind = random.nextInt(3);
        boolean real = kind == 0;
        long pageSize = real ? 16 : kind == 1 ? 16 : huge(random);
        long poolPages = real ? 1 << 16 : kind == 1 ? 134_217_727 : huge(random);
        return "{\"v\":1,\"stream\":\"@S@\",\"boot\":\"@B@\",\"deployment\":\"" + p + "/dep\",\"ts\":"
                + "\"2026-12-06T09:00:00.000Z\",\"seq\":1,\"type\":\"CONFIG\",\"page_size\":" + pageSize
                + ",\"pool_pages\":" + poolPages + ",\"context_window\":"
                + (real ? 131_072 : kind == 1 ? 1_048_576 : huge(random)) + ",\"max_input_tokens\":"
                + (real ? 120_000 : kind == 1 ? 1_000_000 : huge(random)) + "}";
    }

    private static long huge(Random random) {
        return HUGE[random.nextInt(HUGE.length)];
    }

    private static String runs(Random random) {
        StringBuilder b = new StringBuilder("[");
        int n = 1 + random.nextInt(3);
        for (int i = 0; i < n; i++) {
            if (random.nextInt(3) == 0) {
                b.append(i == 0 ? "" : ",").append("[0,65536]");  // the whole of a real pool, again and again
                continue;
            }
            b.append(i == 0 ? "" : ",").append("[").append(random.nextInt(1 << 20)).append(",").append(huge(random))
                    .append("]");
        }
        return b.append("]").toString();
    }

    private static String preview(CharSequence body) {
        return body.length() <= 2000 ? body.toString() : body.subSequence(0, 2000) + "...";
    }

    private static long usedAfterGc() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return memory.getHeapMemoryUsage().getUsed();
    }
}
