package app.vigie.testing;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;

import app.vigie.runtime.log.AuditLogWriter;
import app.vigie.runtime.log.PageRun;

/** Valid page audit logs for the tests, written by the reference runtime's writer. */
public final class Logs {
    private static final Instant T = Instant.parse("2026-08-27T09:00:00Z");

    private Logs() {
    }

    /** A valid stream of {@code n} records (CONFIG then whole requests), one line each. */
    public static List<String> stream(String name, int n) {
        List<String> lines = new ArrayList<>();
        AuditLogWriter w = new AuditLogWriter(name, "m/prod", "b1", lines::add);
        w.config(T, 16, 64, 1024, 1000);
        int r = 0;
        while (lines.size() < n) {
            String id = name + "-r" + r++;
            w.admit(T, id, "acme", 16, true, null);
            w.alloc(T, id, "acme", List.of(new PageRun(r % 60, 1)), "PREFILL", null);
            w.write(T, id, "acme", 0, 16, "COMPUTE", null);
            w.attach(T, id, "acme", 16);
            w.finish(T, id, "acme", "STOP", 200, 1, true);
            w.free(T, id, List.of(new PageRun(r % 60, 1)), "FINISH");
        }
        return new ArrayList<>(lines.subList(0, n));
    }

    public static String body(List<String> lines) {
        return String.join("\n", lines) + "\n";
    }

    /** The lines with these seqs (1-based), in the order given. */
    public static List<String> pick(List<String> lines, long... seqs) {
        return LongStream.of(seqs).mapToObj(s -> lines.get((int) s - 1)).toList();
    }

    public static List<Long> range(long from, long to) {
        return LongStream.rangeClosed(from, to).boxed().toList();
    }
}
