package app.vigie.detection.model;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

import net.jqwik.api.RandomGenerator;
import net.jqwik.api.Shrinkable;
import net.jqwik.api.sessions.JqwikSession;

import app.vigie.auditlog.intake.CanonicalJson;
import app.vigie.auditlog.intake.RecordParser;
import app.vigie.auditlog.record.AuditRecord;
import app.vigie.auditlog.record.Body;
import app.vigie.auditlog.record.PageFingerprint;
import app.vigie.auditlog.record.PageRun;

/**
 * Generates 2,000 scenarios from a seeded generator and prints how often each feature appears, then checks that every
 * record passes intake (canonical JSON, parsed back, equal) and that each (stream, boot) is gap-free from a CONFIG
 * seq 1. Not a test: a main to tune {@link RandomLogs}.
 */
public final class RandomLogsCheck {
    private static final Pattern HEX16 = Pattern.compile("[0-9a-f]{16}");

    private RandomLogsCheck() {
    }

    /** Runs the check; prints the statistics and the problems found (none expected). */
    public static void main(String[] args) throws Exception {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
        int maxOps = args.length > 1 ? Integer.parseInt(args[1]) : 60;
        // outside the engine, a jqwik session makes generators (memoized per session) usable
        JqwikSession.start();
        try {
            run(count, maxOps, args.length > 2);
        } finally {
            JqwikSession.finish();
        }
    }

    private static void run(int count, int maxOps, boolean printExample) {
        RandomGenerator<RandomLogs.Input> gen = RandomLogs.inputs(maxOps).generator(1000);
        Random random = new Random(20261203L);
        RecordParser parser = new RecordParser();
        Map<String, Integer> features = new TreeMap<>();
        List<Integer> sizes = new ArrayList<>();
        long records = 0;
        long impossible = 0;
        int problems = 0;
        Shrinkable<RandomLogs.Input> leaky = null;
        for (int i = 0; i < count; i++) {
            Shrinkable<RandomLogs.Input> generated = gen.next(random);
            RandomLogs.Input in = generated.value();
            Scenario sc = RandomLogs.interpret(in.ops(), in.plan());
            if (!sc.equals(RandomLogs.interpret(in.ops(), in.plan()))) {
                problems++;
                System.out.println("NOT DETERMINISTIC: " + in);
            }
            sizes.add(sc.log().size());
            records += sc.log().size();
            for (AuditRecord r : sc.log()) {
                String line = CanonicalJson.of(r);
                try {
                    AuditRecord back = parser.parse(line);
                    if (!back.equals(r)) {
                        problems++;
                        System.out.println("ROUND TRIP differs: " + line);
                    }
                } catch (Exception e) {
                    problems++;
                    System.out.println("INTAKE rejects: " + e.getMessage() + ": " + line);
                }
                String bad = bounds(r);
                if (bad != null) {
                    problems++;
                    System.out.println("BOUNDS " + bad + ": " + line);
                }
            }
            String seqProblem = seqProblem(sc.log());
            if (seqProblem != null) {
                problems++;
                System.out.println("SEQ " + seqProblem);
            }
            Replay replay = new Replay();
            replay.run(sc);
            impossible += replay.impossible;
            for (String f : replay.features) {
                features.merge(f, 1, Integer::sum);
            }
            if (leaky == null && uafLeak(sc)) {
                leaky = generated;
            }
        }
        Collections.sort(sizes);
        System.out.printf("scenarios %d, records per scenario min %d / median %d / max %d, impossible %.1f%%%n",
                count, sizes.get(0), sizes.get(sizes.size() / 2), sizes.get(sizes.size() - 1),
                100.0 * impossible / records);
        for (Map.Entry<String, Integer> e : features.entrySet()) {
            System.out.printf("  %-34s %5.1f%%%n", e.getKey(), 100.0 * e.getValue() / count);
        }
        System.out.println("intake round trip and seq checks: " + (problems == 0 ? "OK" : problems + " PROBLEMS"));
        if (leaky != null) {
            shrinkDemo(leaky, printExample);
        }
    }

    /** Whether a scenario has a use after free and a cross-tenant stale read (the shrinking demo's property). */
    private static boolean uafLeak(Scenario sc) {
        Replay replay = new Replay();
        replay.run(sc);
        return replay.features.contains("use-after-free read/write")
                && replay.features.contains("cross-tenant stale read");
    }

    /** Greedy shrinking with jqwik's own shrink candidates: every candidate must stay interpretable. */
    private static void shrinkDemo(Shrinkable<RandomLogs.Input> start, boolean print) {
        Shrinkable<RandomLogs.Input> current = start;
        int before = RandomLogs.interpret(start.value().ops(), start.value().plan()).log().size();
        int steps = 0;
        int tried = 0;
        boolean progress = true;
        while (progress && steps < 1000) {
            progress = false;
            Iterator<Shrinkable<RandomLogs.Input>> it = current.shrink().iterator();
            for (int n = 0; n < 300 && it.hasNext(); n++) {
                Shrinkable<RandomLogs.Input> candidate = it.next();
                tried++;
                Scenario sc = RandomLogs.interpret(candidate.value().ops(), candidate.value().plan());
                if (uafLeak(sc)) {
                    current = candidate;
                    steps++;
                    progress = true;
                    break;
                }
            }
        }
        Scenario end = RandomLogs.interpret(current.value().ops(), current.value().plan());
        System.out.printf("shrinking demo (use after free + cross-tenant read): %d ops / %d records -> %d ops / "
                + "%d records in %d steps (%d candidates interpreted)%n", start.value().ops().size(), before,
                end.ops().size(), end.log().size(), steps, tried);
        if (print) {
            System.out.println(end);
        }
    }

    /** The spec's bounds that the parser may not check itself; null when fine. */
    private static String bounds(AuditRecord r) {
        for (String s : new String[] {r.stream(), r.deployment()}) {
            if (s.isEmpty() || s.length() > 200) {
                return "string length";
            }
        }
        if (r.boot().isEmpty() || r.boot().length() > 100) {
            return "boot length";
        }
        if ((r.seq() == 1) != (r.body() instanceof Body.Config)) {
            return "seq 1 is CONFIG and only CONFIG";
        }
        if (r.ts().toEpochMilli() * 1_000_000L != r.ts().getEpochSecond() * 1_000_000_000L + r.ts().getNano()) {
            return "ts not at ms";
        }
        Body b = r.body();
        if (b instanceof Body.Share s && s.fp() != null && s.fp().size() != pages(s.pages())) {
            return "share fp count";
        }
        if (b instanceof Body.Share s && s.fp() != null && !s.fp().stream().allMatch(h -> HEX16.matcher(h).matches())) {
            return "share hex";
        }
        if (b instanceof Body.Write w && w.fp() != null
                && !w.fp().stream().allMatch(f -> HEX16.matcher(f.hex()).matches())) {
            return "write hex";
        }
        if (b instanceof Body.XferCommit x && x.coveredTokens() > x.claimedTokens()) {
            return "covered > claimed";
        }
        if (b instanceof Body.Finish f && (f.httpStatus() < 100 || f.httpStatus() > 599)) {
            return "http_status";
        }
        for (List<PageRun> runs : runsOf(b)) {
            for (PageRun run : runs) {
                if (run.count() < 1 || run.first() < 0) {
                    return "run";
                }
            }
        }
        return null;
    }

    private static List<List<PageRun>> runsOf(Body b) {
        if (b instanceof Body.Alloc a) {
            return List.of(a.pages());
        }
        if (b instanceof Body.Share s) {
            return List.of(s.pages());
        }
        if (b instanceof Body.Free f) {
            return List.of(f.pages());
        }
        return List.of();
    }

    private static int pages(List<PageRun> runs) {
        return runs.stream().mapToInt(PageRun::count).sum();
    }

    /** Each (stream, boot) in log order: seq 1, 2, 3, ... with CONFIG first. */
    private static String seqProblem(List<AuditRecord> log) {
        Map<String, Long> last = new HashMap<>();
        for (AuditRecord r : log) {
            String sb = r.stream() + " " + r.boot();
            long expected = last.getOrDefault(sb, 0L) + 1;
            if (r.seq() != expected) {
                return sb + " seq " + r.seq() + " expected " + expected;
            }
            last.put(sb, expected);
        }
        return null;
    }

    /** A simple replay of my own, to count features (not a detector: shares are skipped, not judged). */
    private static final class Replay {
        final Set<String> features = new HashSet<>();
        long impossible;

        private static final class StreamBoot {
            final int pageSize;
            final int poolPages;
            final Map<String, List<Integer>> tables = new HashMap<>();
            final Map<String, Set<Integer>> sharedLogical = new HashMap<>();
            final Map<Integer, String> owner = new HashMap<>();
            final Map<Long, String[]> slots = new HashMap<>();
            final Map<Integer, String> pageFp = new HashMap<>();
            final Set<String> freed = new HashSet<>();

            StreamBoot(Body.Config c) {
                pageSize = c.pageSize();
                poolPages = c.poolPages();
            }

            int capacity(String req) {
                return tables.getOrDefault(req, List.of()).size() * pageSize;
            }

            long slot(String req, int p) {
                int page = tables.get(req).get(p / pageSize);
                return (long) page * pageSize + p % pageSize;
            }
        }

        void run(Scenario sc) {
            Map<String, StreamBoot> state = new HashMap<>();
            Map<String, Set<String>> streamsOf = new LinkedHashMap<>();
            Map<String, Set<String>> crossReadStreams = new HashMap<>();
            Map<String, Set<Integer>> sentPositions = new HashMap<>();
            Set<String> rejected = new HashSet<>();
            Set<String> served = new HashSet<>();
            Map<String, Integer> boots = new HashMap<>();
            Map<String, Integer> input = new HashMap<>();
            Set<String> admitted = new HashSet<>();
            Set<String> finished = new HashSet<>();
            for (AuditRecord r : sc.log()) {
                String key = r.stream() + " " + r.boot();
                Body b = r.body();
                if (b instanceof Body.Config c) {
                    state.put(key, new StreamBoot(c));
                    if (boots.merge(r.stream(), 1, Integer::sum) > 1) {
                        features.add("reboot");
                    }
                    if ((long) c.contextWindow() > (long) c.poolPages() * c.pageSize()) {
                        features.add("context exceeds pool");
                    }
                    continue;
                }
                StreamBoot st = state.get(key);
                if (b instanceof Body.Admit a) {
                    input.put(a.request(), a.inputTokens());
                    admitted.add(a.request());
                    if (a.verdict() == Body.Verdict.REJECT) {
                        rejected.add(a.request());
                        streamsOf.computeIfAbsent("reject:" + a.request(), k -> new HashSet<>()).add(r.stream());
                        if (streamsOf.get("reject:" + a.request()).size() > 1) {
                            features.add("reject on two streams");
                        }
                    }
                } else if (b instanceof Body.Alloc a) {
                    served.add(a.request());
                    boolean outside = a.pages().stream().anyMatch(run -> run.end() > st.poolPages);
                    if (outside) {
                        impossible++;
                        features.add("impossible record");
                        continue;
                    }
                    features.add("ALLOC " + a.purpose());
                    for (PageRun run : a.pages()) {
                        for (int p = run.first(); p < run.end(); p++) {
                            String prev = st.owner.put(p, a.request());
                            if (prev != null && !prev.equals(a.request())) {
                                features.add("double alloc");
                            }
                            st.tables.computeIfAbsent(a.request(), k -> new ArrayList<>()).add(p);
                        }
                    }
                    if (st.freed.contains(a.request())) {
                        features.add("alloc after free");
                    }
                } else if (b instanceof Body.Share s) {
                    List<Integer> table = st.tables.computeIfAbsent(s.request(), k -> new ArrayList<>());
                    int k = table.size();
                    int j = 0;
                    for (PageRun run : s.pages()) {
                        for (int p = run.first(); p < run.end(); p++) {
                            st.sharedLogical.computeIfAbsent(s.request(), x -> new HashSet<>()).add(k);
                            table.add(p);
                            if (s.fp() == null) {
                                features.add("share without fp");
                            } else if (s.fp().get(j).equals(st.pageFp.get(p))) {
                                String[] w = st.slots.get((long) p * st.pageSize);
                                features.add(w != null && !w[1].equals(s.tenant()) ? "share fp matching, other tenant"
                                        : "share fp matching, same tenant");
                            } else {
                                features.add("share fp not matching");
                            }
                            k++;
                            j++;
                        }
                    }
                } else if (b instanceof Body.Write w) {
                    if (w.from() + w.tokens() > st.capacity(w.request())) {
                        impossible++;
                        features.add("impossible record");
                        continue;
                    }
                    if (st.freed.contains(w.request())) {
                        features.add("use-after-free read/write");
                    }
                    if (w.sent()) {
                        features.add("sent transfer (v1.1)");
                    }
                    if (w.from() == 0 && w.source() == Body.WriteSource.COMPUTE
                            && w.tokens() < input.getOrDefault(w.request(), 0)) {
                        features.add("partial prompt write");
                    }
                    Set<Integer> fpPages = new HashSet<>();
                    if (w.fp() != null) {
                        features.add("write with fp");
                        for (PageFingerprint f : w.fp()) {
                            int page = st.tables.get(w.request()).get(f.logicalPage());
                            st.pageFp.put(page, f.hex());
                            fpPages.add(page);
                        }
                    }
                    for (int p = w.from(); p < w.from() + w.tokens(); p++) {
                        st.slots.put(st.slot(w.request(), p), new String[] {w.request(), w.tenant()});
                        int page = st.tables.get(w.request()).get(p / st.pageSize);
                        if (!fpPages.contains(page)) {
                            st.pageFp.remove(page);
                        }
                    }
                } else if (b instanceof Body.Attach a) {
                    served.add(a.request());
                    if (a.tokens() > st.capacity(a.request())) {
                        impossible++;
                        features.add("impossible record");
                        continue;
                    }
                    if (st.freed.contains(a.request())) {
                        features.add("use-after-free read/write");
                    }
                    Set<Integer> shared = st.sharedLogical.getOrDefault(a.request(), Set.of());
                    for (int p = 0; p < a.tokens(); p++) {
                        if (shared.contains(p / st.pageSize)) {
                            continue;
                        }
                        String[] w = st.slots.get(st.slot(a.request(), p));
                        if (w == null) {
                            features.add("uninitialized read");
                        } else if (!w[1].equals(a.tenant())) {
                            features.add("cross-tenant stale read");
                            crossReadStreams.computeIfAbsent(a.request() + "@" + p, k -> new HashSet<>())
                                    .add(r.stream());
                        } else if (!w[0].equals(a.request())) {
                            features.add("intra-tenant stale read");
                        }
                    }
                } else if (b instanceof Body.Free f) {
                    boolean allOwned = f.pages().stream().allMatch(run -> {
                        for (int p = run.first(); p < run.end(); p++) {
                            if (!f.request().equals(st.owner.get(p))) {
                                return false;
                            }
                        }
                        return true;
                    });
                    if (!allOwned) {
                        impossible++;
                        features.add("impossible record");
                        continue;
                    }
                    features.add("FREE " + f.reason());
                    for (PageRun run : f.pages()) {
                        for (int p = run.first(); p < run.end(); p++) {
                            st.owner.remove(p);
                        }
                    }
                    st.freed.add(f.request());
                } else if (b instanceof Body.XferCommit x) {
                    if (x.coveredTokens() < x.claimedTokens()) {
                        features.add("transfer coverage gap");
                    }
                    if (Boolean.FALSE.equals(x.checksumOk())) {
                        features.add("transfer checksum false");
                    }
                } else if (b instanceof Body.XferSend x) {
                    if (x.from() + x.tokens() > st.capacity(x.request())) {
                        impossible++;
                        features.add("impossible record");
                        continue;
                    }
                    features.add("XFER_SEND");
                    if (!sentPositions.computeIfAbsent(x.request(), k -> new HashSet<>()).add(x.from())) {
                        features.add("XFER_SEND of a position sent before");
                    }
                    if (st.freed.contains(x.request())) {
                        features.add("XFER_SEND after its pages were freed");
                    }
                    for (int p = x.from(); p < x.from() + x.tokens(); p++) {
                        String[] w = st.slots.get(st.slot(x.request(), p));
                        if (w == null) {
                            features.add("send of a never-written slot");
                        } else if (!w[0].equals(x.request())) {
                            features.add(w[1].equals(x.tenant()) ? "send of another request's slot"
                                    : "send of another tenant's slot");
                        }
                    }
                } else if (b instanceof Body.Finish f) {
                    finished.add(f.request());
                    if (f.delivered() && f.outputTokens() > 0) {
                        served.add(f.request());
                    }
                    features.add(f.delivered() ? "finish delivered" : "finish not delivered");
                } else if (b instanceof Body.Heartbeat) {
                    features.add("heartbeat");
                }
            }
            for (Set<String> streams : crossReadStreams.values()) {
                if (streams.size() > 1) {
                    features.add("TP duplicate cross-tenant read");
                }
            }
            if (!finished.containsAll(admitted)) {
                features.add("request never finishes");
            }
            rejected.retainAll(served);
            if (!rejected.isEmpty()) {
                features.add("reject served");
            }
            arrival(sc);
        }

        /** Duplicates, gaps, middle flushes and late records of the deliveries. */
        void arrival(Scenario sc) {
            Set<AuditRecord.Key> delivered = new HashSet<>();
            Set<AuditRecord.Key> beforeFlush = null;
            Map<String, Long> maxBeforeFlush = null;
            Map<String, Long> maxSeq = new HashMap<>();
            boolean outOfOrder = false;
            List<Delivery> ds = sc.deliveries();
            for (int i = 0; i < ds.size(); i++) {
                if (ds.get(i) instanceof Delivery.Flush) {
                    if (i < ds.size() - 1) {
                        features.add("mid flush");
                        beforeFlush = new HashSet<>(delivered);
                        maxBeforeFlush = new HashMap<>(maxSeq);
                    }
                    continue;
                }
                for (AuditRecord r : ((Delivery.Batch) ds.get(i)).records()) {
                    String sb = r.stream() + " " + r.boot();
                    if (!delivered.add(r.key())) {
                        features.add("duplicate");
                    }
                    if (maxSeq.getOrDefault(sb, 0L) > r.seq()) {
                        outOfOrder = true;
                    }
                    if (beforeFlush != null && !beforeFlush.contains(r.key())
                            && maxBeforeFlush.getOrDefault(sb, 0L) > r.seq()) {
                        features.add("late record");
                    }
                    maxSeq.merge(sb, r.seq(), Math::max);
                }
            }
            if (outOfOrder) {
                features.add("out of seq order");
            }
            if (delivered.size() < sc.log().size()) {
                features.add("gap (never delivered)");
            }
            if (ds.size() > 3) {
                features.add("3+ batches");
            }
        }
    }
}
