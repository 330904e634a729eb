package app.vigie.detection.model;

import java.time.Instant;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

import app.vigie.auditlog.record.AuditRecord;
import app.vigie.auditlog.record.Body;
import app.vigie.auditlog.record.PageFingerprint;
import app.vigie.auditlog.record.PageRun;

/**
 * Random, adversarial page audit logs (spec: /work/shared/spec/page-audit-log.md) with an arrival plan, for
 * differential tests of detectors. A scenario is a list of small {@link Op}s interpreted against a simulated runtime
 * (six streams: two colocated pools, a prefill/decode pair, two tensor-parallel ranks; pools of 4..24 pages of 1..4
 * slots so that pages are reused a lot), so that shrinking (dropping ops, shrinking ints) keeps it interpretable.
 * Mostly valid and realistic records, with the faults that make leaks (partial writes, short transfers, rejected
 * requests served, use after free, double allocation, stale prefix-cache shares, reboots) and a few impossible ones.
 */
public final class RandomLogs {
    static final int COLO0 = 0;
    static final int COLO1 = 1;
    static final int PREFILL = 2;
    static final int DECODE = 3;
    /** Spec 1.3, amendment 4: a second decode node, to which the first sends on what it received (a chain). */
    static final int DECODE2 = 6;
    /** Spec 1.3, amendments 3 and 4: a third decode node, to which the second sends on again (three hops). */
    static final int DECODE3 = 7;
    static final int TP0 = 4;
    static final int TP1 = 5;
    static final String[] STREAMS = {"eu-par1/n10/colo/dp0", "eu-par1/n11/colo/dp0", "eu-par1/n17/prefill/dp0",
            "eu-par1/n21/decode/dp0", "eu-par1/n30/tp2/rank0", "eu-par1/n30/tp2/rank1",
            "eu-par1/n22/decode/dp0", "eu-par1/n23/decode/dp0"};
    static final String[] DEPLOYMENTS = {"glm-5.3/prod-eu", "glm-5.3/prod-us", "qwen-4/staging"};
    static final Instant START = Instant.parse("2026-08-27T09:00:00.000Z");
    /**
     * The extensions of spec 1.3 a boot declares (it writes transfers with their sends), but for one boot in 48 that
     * declares none (a version 1 log: its sends and restarts are invalid) and one in 48 that also declares one no
     * reader knows (its boot is not judged, STREAM_UNSUPPORTED): amendment 1.
     */
    static final List<String> EXTENSIONS = List.of("restart", "xfer-send");
    static final List<String> UNKNOWN_EXTENSIONS = List.of("kv-offload", "restart", "xfer-send");

    /**
     * The id of a request's transfer from the prefill node (spec 1.3, amendment 2). A failed first attempt is
     * {@code transfer + "#0"}; the decode nodes forward by transfers of their own ({@code f-}, {@code g-}).
     */
    static String transfer(String request) {
        return "t-" + request;
    }

    private RandomLogs() {
    }

    /** The generated inputs of a scenario: the ops (the first is the world) and the arrival plan. */
    record Input(List<Op> ops, ArrivalPlan plan) {
    }

    /** Scenarios of up to about maxOps operations. */
    public static Arbitrary<Scenario> scenarios(int maxOps) {
        return inputs(maxOps).map(in -> interpret(in.ops(), in.plan()));
    }

    /** The raw inputs of {@link #scenarios}: a world op, up to maxOps ops, an arrival plan. */
    static Arbitrary<Input> inputs(int maxOps) {
        Arbitrary<Op> world = Combinators.combine(Arbitraries.integers().between(0, 4095),
                Arbitraries.integers().between(0, (1 << 12) - 1), Arbitraries.integers().between(0, (1 << 25) - 1),
                Arbitraries.integers().between(0, 1023)).as(Op::new);
        Arbitrary<Op> op = Combinators.combine(Arbitraries.integers().between(0, 99),
                Arbitraries.integers().between(0, 63), Arbitraries.integers().between(0, 63),
                Arbitraries.integers().between(0, 1023)).as(Op::new);
        Arbitrary<List<Op>> ops = op.list().ofMaxSize(maxOps);
        return Combinators.combine(world, ops, plans(maxOps * 6)).as((w, os, p) -> {
            List<Op> all = new ArrayList<>(os.size() + 1);
            all.add(w);
            all.addAll(os);
            return new Input(all, p);
        });
    }

    /** Arrival plans for logs of up to about maxRecords records. */
    static Arbitrary<ArrivalPlan> plans(int maxRecords) {
        Arbitrary<List<Integer>> delays = Arbitraries.integers().between(0, 40).list().ofMaxSize(maxRecords);
        Arbitrary<List<Integer>> batches = Arbitraries.integers().between(1, 12).list().ofMaxSize(6);
        Arbitrary<List<Integer>> dups = Arbitraries.integers().between(0, 1_000_000).list().ofMaxSize(4);
        Arbitrary<List<Integer>> withheld = Arbitraries.integers().between(0, 1_000_000).list().ofMaxSize(3);
        Arbitrary<Integer> mid = Arbitraries.integers().between(0, 24);
        Arbitrary<Integer> late = Arbitraries.integers().between(0, 3);
        return Combinators.combine(delays, batches, dups, withheld, mid, late).as(ArrivalPlan::new);
    }

    /** Interprets ops (deterministic): the same ops give the same scenario. */
    public static Scenario interpret(List<Op> ops, ArrivalPlan plan) {
        Sim sim = new Sim(ops.isEmpty() ? new Op(0, 0, 0, 0) : ops.get(0));
        for (int i = 1; i < ops.size(); i++) {
            sim.apply(ops.get(i));
        }
        List<AuditRecord> log = List.copyOf(sim.log);
        return new Scenario(List.copyOf(ops), log, deliveries(log, plan));
    }

    // ------------------------------------------------------------------------------------------------ arrival

    private static final int FLUSH = -1;

    /** The deliveries of a log under a plan (see {@link ArrivalPlan}); always ends with a flush. */
    static List<Delivery> deliveries(List<AuditRecord> log, ArrivalPlan plan) {
        int n = log.size();
        List<Delivery> out = new ArrayList<>();
        if (n > 0) {
            long[] key = new long[n];
            List<Integer> order = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                int d = i < plan.delays().size() ? plan.delays().get(i) : 0;
                int eff = Math.max(0, d - 24);
                key[i] = eff >= 16 ? 4L * n + i : 4L * i + 12L * eff;
                order.add(i);
            }
            Comparator<Integer> byKey = Comparator.<Integer>comparingLong(i -> key[i]).thenComparingInt(i -> i);
            order.sort(byKey);
            Set<Integer> withheld = new LinkedHashSet<>();
            for (int w : plan.withheld()) {
                withheld.add(Math.floorMod(w, n));
            }
            List<Integer> seq = new ArrayList<>();
            for (int i : order) {
                if (!withheld.contains(i)) {
                    seq.add(i);
                }
            }
            int midFlush = Math.max(0, plan.midFlush() - 12);
            if (midFlush > 0) {
                int pos;
                if (withheld.isEmpty()) {
                    pos = seq.size() * midFlush / 13;
                } else {
                    int w0 = withheld.iterator().next();
                    int rank = 0;
                    for (int i : seq) {
                        if (byKey.compare(i, w0) < 0) {
                            rank++;
                        }
                    }
                    pos = Math.min(seq.size(), rank + midFlush);
                }
                seq.add(pos, FLUSH);
                int at = pos + 1;
                int late = Math.min(plan.late(), withheld.size());
                for (int w : withheld) {
                    if (late-- <= 0) {
                        break;
                    }
                    seq.add(Math.min(at++, seq.size()), w);
                }
            }
            for (int d : plan.duplicates()) {
                int idx = Math.floorMod(d, n);
                if (!withheld.contains(idx)) {
                    seq.add(Math.floorMod(d / n, seq.size() + 1), idx);
                }
            }
            List<AuditRecord> batch = new ArrayList<>();
            int batchNo = 0;
            for (int idx : seq) {
                if (idx == FLUSH) {
                    if (!batch.isEmpty()) {
                        out.add(new Delivery.Batch(List.copyOf(batch)));
                        batch.clear();
                        batchNo++;
                    }
                    out.add(new Delivery.Flush());
                    continue;
                }
                batch.add(log.get(idx));
                int limit = plan.batchSizes().isEmpty() ? Integer.MAX_VALUE
                        : plan.batchSizes().get(batchNo % plan.batchSizes().size());
                if (batch.size() >= limit) {
                    out.add(new Delivery.Batch(List.copyOf(batch)));
                    batch.clear();
                    batchNo++;
                }
            }
            if (!batch.isEmpty()) {
                out.add(new Delivery.Batch(List.copyOf(batch)));
            }
        }
        out.add(new Delivery.Flush());
        return out;
    }

    // ------------------------------------------------------------------------------------------------ simulation

    /** A request's lifecycle in the simulated runtime. */
    private enum Phase { ADMITTED, REJECTED, DECODING, PREEMPTED, ABORTED, FINISHED, DEAD }

    /** A request's route: the streams it lives on. */
    private enum Route { COLO, PD, TP }

    /** One request's page table on one stream, as the runtime knows it. */
    private static final class Table {
        final List<Integer> pages = new ArrayList<>();
        /** Pool pages it owns (allocated, not freed, not taken by a double allocation). */
        final Set<Integer> owned = new LinkedHashSet<>();
        /** Logical positions the request wrote itself. */
        final BitSet written = new BitSet();
        /** The first logical pages, got by SHARE. */
        int shared;
    }

    private static final class Req {
        final String id;
        final int tenantIdx;
        final String tenant;
        final Route route;
        final int colo;
        final int family;
        final int common;
        final int promptLen;
        final boolean rejected;
        int len;
        int generated;
        boolean attached;
        Phase phase;
        final Map<Integer, Table> tables = new LinkedHashMap<>();

        Req(String id, int tenantIdx, Route route, int colo, int family, int common, int promptLen,
                boolean rejected) {
            this.id = id;
            this.tenantIdx = tenantIdx;
            this.tenant = "t" + tenantIdx;
            this.route = route;
            this.colo = colo;
            this.family = family;
            this.common = common;
            this.promptLen = promptLen;
            this.rejected = rejected;
        }

        int[] prefillStreams() {
            return switch (route) {
                case COLO -> new int[] {colo};
                case PD -> new int[] {PREFILL};
                case TP -> new int[] {TP0, TP1};
            };
        }

        int[] decodeStreams() {
            return switch (route) {
                case COLO -> new int[] {colo};
                case PD -> new int[] {DECODE};
                case TP -> new int[] {TP0, TP1};
            };
        }

        /** Where a second ADMIT REJECT of the same request may come from. */
        int otherAdmitStream() {
            return switch (route) {
                case COLO -> colo == COLO0 ? COLO1 : COLO0;
                case PD -> DECODE;
                case TP -> TP1;
            };
        }

        boolean livesOn(int s) {
            for (int x : prefillStreams()) {
                if (x == s) {
                    return true;
                }
            }
            for (int x : decodeStreams()) {
                if (x == s) {
                    return true;
                }
            }
            return false;
        }

        Table table(int s) {
            return tables.computeIfAbsent(s, k -> new Table());
        }

        boolean owns(int s) {
            Table t = tables.get(s);
            return t != null && !t.owned.isEmpty();
        }

        /**
         * The content fingerprint of its logical prompt page k: the first {@code common} pages are a prefix shared
         * by its family (a system prompt), the rest its own.
         */
        String fp(int k) {
            long seed = k < common ? 0x5EED_0000L + family : id.hashCode() * 0x1_0000_0001L;
            long z = seed * 0x9E3779B97F4A7C15L + (k + 1) * 0xBF58476D1CE4E5B9L;
            z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
            z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
            z ^= z >>> 31;
            return String.format("%016x", z);
        }
    }

    /** One stream's pool in its current boot. */
    private static final class Pool {
        int boot;
        long seq;
        /** Free pages, most recently freed first (LIFO, so that freed pages are reused soon). */
        final List<Integer> free = new ArrayList<>();
        Req[] owner = new Req[0];
        /** Prefix cache: fingerprint of a complete prompt page to the pool page that held it. */
        final Map<String, Integer> cache = new HashMap<>();

        void reset(int pages, int rotation) {
            free.clear();
            for (int p = 0; p < pages; p++) {
                free.add((p + rotation) % pages);
            }
            owner = new Req[pages];
            cache.clear();
        }
    }

    /** The simulated runtime: six streams, their pools, the requests, and the log it writes. */
    private static final class Sim {
        final int tenants;
        final int[] ps = new int[STREAMS.length];
        /** Picks the boots that declare no extension or an unknown one (amendment 1). */
        final int extensionSeed;
        final int[] pool = new int[STREAMS.length];
        final int[] ctx = new int[STREAMS.length];
        final int[] maxIn = new int[STREAMS.length];
        final int[] skew = new int[STREAMS.length];
        /** Where a boot's free list starts: tensor-parallel rank 1 may number its pages differently. */
        final int[] rotation = new int[STREAMS.length];
        final String[] dep = new String[STREAMS.length];
        final boolean staleIndex;
        final Pool[] pools = new Pool[STREAMS.length];
        final List<Req> reqs = new ArrayList<>();
        final List<AuditRecord> log = new ArrayList<>();
        long clock;
        int tick;
        int nextId;

        Sim(Op w) {
            int code = Math.abs(w.code() % 4096);
            tenants = 2 + code % 3;
            int deployments = 1 + code / 3 % 3;
            staleIndex = code / 9 % 2 == 1;
            boolean splitPd = code / 18 % 2 == 1;
            int exceed = code / 36 % 18 - 12; // 0 (the simplest world): none
            int skewVariant = code / 324 % 13;
            int[] group = {0, 1, 2, 3, 4, 4, 3, 3};
            for (int s = 0; s < STREAMS.length; s++) {
                // page_size 1..4 and pool 4..24 pages; tensor-parallel ranks alike
                ps[s] = 1 + (Math.abs(w.a()) >> (2 * group[s]) & 3);
                pool[s] = 4 + (Math.abs(w.b()) >> (5 * group[s]) & 31) % 21;
                int capacity = ps[s] * pool[s];
                // CONTEXT_EXCEEDS_POOL: a CONFIG whose context_window exceeds pool_pages * page_size, sometimes
                ctx[s] = exceed == s ? capacity + 1 + Math.abs(w.c()) % 1000 : Math.max(1, capacity - w.c() % 3);
                maxIn[s] = Math.max(1, Math.min(ctx[s], capacity / 2 + (Math.abs(w.c()) >> 2) % 4));
                skew[s] = skewVariant == 0 ? 0 : skewVariant * (s + 1) * 7 % 5;
            }
            rotation[TP1] = (Math.abs(w.a()) >> 10 & 3) * pool[TP1] / 4;
            int[] depOf = {0, 1, 2, splitPd ? 1 : 2, 0, 0, splitPd ? 1 : 2, splitPd ? 1 : 2};
            extensionSeed = Math.abs(w.a() * 31 + w.b() * 7 + w.c());
            for (int s = 0; s < STREAMS.length; s++) {
                dep[s] = DEPLOYMENTS[depOf[s] % deployments];
                pools[s] = new Pool();
            }
        }

        void apply(Op op) {
            clock += Math.floorMod(op.a() + op.b() + op.c(), 3);
            int kind = Math.floorMod(op.code(), 100);
            if (kind < 14) {
                newRequest(op);
            } else if (kind < 31) {
                prefillStep(op);
            } else if (kind < 55) {
                decodeStep(op);
            } else if (kind < 65) {
                Req r = pick(op, Phase.ADMITTED, Phase.REJECTED, Phase.DECODING, Phase.PREEMPTED, Phase.ABORTED);
                if (r == null) {
                    decodeStep(op);
                } else {
                    finish(r, op);
                }
            } else if (kind < 72) {
                Req r = pick(op, Phase.DECODING);
                if (r == null || !ownsOnDecode(r)) {
                    decodeStep(op);
                } else {
                    abortWithStepInFlight(r, op);
                }
            } else if (kind < 77) {
                Req r = pick(op, Phase.DECODING);
                if (r == null || !doubleAlloc(r, op)) {
                    decodeStep(op);
                }
            } else if (kind < 80) {
                reboot(Math.floorMod(op.a(), 6));
            } else if (kind < 84) {
                emit(Math.floorMod(op.a(), 6), new Body.Heartbeat());
            } else if (kind < 94) {
                impossible(op);
            } else {
                decodeStep(op);
            }
        }

        // ------------------------------------------------------------------------------------ emission

        void emit(int s, Body body) {
            Pool p = pools[s];
            if (p.boot == 0 && !(body instanceof Body.Config)) {
                boot(s);
            }
            p.seq++;
            // timestamps: ms, nondecreasing per stream, several records share one, streams skewed a little
            log.add(new AuditRecord(STREAMS[s], "b" + p.boot, p.seq, START.plusMillis(clock + skew[s]), dep[s],
                    body));
            if ((++tick & 1) == 0) {
                clock++;
            }
        }

        /** A new boot of the stream: every slot never written, seq from 1 with CONFIG. */
        void boot(int s) {
            Pool p = pools[s];
            p.boot++;
            p.seq = 0;
            p.reset(pool[s], rotation[s]);
            int pick = Math.floorMod(extensionSeed * 17 + s * 101 + p.boot * 13, 48);
            emit(s, new Body.Config(ps[s], pool[s], ctx[s], maxIn[s], pick == 0 ? List.of()
                    : pick == 1 ? UNKNOWN_EXTENSIONS : EXTENSIONS));
        }

        void reboot(int s) {
            if (pools[s].boot == 0) {
                boot(s);
                return;
            }
            for (Req r : reqs) {
                if (r.tables.remove(s) != null || r.livesOn(s)) {
                    boolean decodesHere = false;
                    for (int x : r.decodeStreams()) {
                        decodesHere |= x == s;
                    }
                    if (r.phase != Phase.FINISHED && (decodesHere || r.phase == Phase.ADMITTED
                            || r.phase == Phase.REJECTED)) {
                        r.phase = Phase.DEAD; // lost with the engine: never finishes
                    }
                }
            }
            boot(s);
        }

        static List<PageRun> runs(List<Integer> pages) {
            List<PageRun> runs = new ArrayList<>();
            int i = 0;
            while (i < pages.size()) {
                int first = pages.get(i);
                int count = 1;
                while (i + count < pages.size() && pages.get(i + count) == first + count) {
                    count++;
                }
                runs.add(new PageRun(first, count));
                i += count;
            }
            return runs;
        }

        // ------------------------------------------------------------------------------------ pages

        /**
         * Allocates n pages of the free list (from position offset, LIFO) to the request, preempting (FREE EVICT)
         * the oldest other owners when the pool is short; null (nothing allocated) when it cannot.
         */
        List<Integer> alloc(int s, Req r, int n, int offset) {
            if (n <= 0) {
                return List.of();
            }
            if (pools[s].boot == 0) {
                boot(s);
            }
            Pool p = pools[s];
            if (n > pool[s]) {
                return null;
            }
            while (p.free.size() < n) {
                Req victim = null;
                for (Req q : reqs) {
                    if (q != r && q.owns(s)) {
                        victim = q;
                        break;
                    }
                }
                if (victim == null) {
                    return null;
                }
                freeOwned(s, victim, Body.FreeReason.EVICT);
                if (victim.phase == Phase.DECODING || victim.phase == Phase.ADMITTED) {
                    victim.phase = Phase.PREEMPTED;
                }
            }
            int start = Math.min(Math.max(0, offset), p.free.size() - n);
            List<Integer> got = new ArrayList<>(p.free.subList(start, start + n));
            p.free.subList(start, start + n).clear();
            Table t = r.table(s);
            for (int page : got) {
                p.owner[page] = r;
                if (!staleIndex) {
                    p.cache.values().removeIf(v -> v == page);
                }
            }
            t.pages.addAll(got);
            t.owned.addAll(got);
            return got;
        }

        /** FREE of every page the request owns on the stream (in table order); nothing when it owns none. */
        void freeOwned(int s, Req r, Body.FreeReason reason) {
            Table t = r.tables.get(s);
            if (t == null || t.owned.isEmpty()) {
                return;
            }
            List<Integer> pages = new ArrayList<>();
            for (int page : t.pages) {
                if (t.owned.contains(page) && !pages.contains(page)) {
                    pages.add(page);
                }
            }
            emit(s, new Body.Free(r.id, runs(pages), reason));
            Pool p = pools[s];
            for (int page : pages) {
                p.owner[page] = null;
            }
            p.free.addAll(0, pages);
            t.owned.clear();
        }

        int capacity(int s, Req r) {
            Table t = r.tables.get(s);
            return t == null ? 0 : t.pages.size() * ps[s];
        }

        /**
         * WRITE of positions [from, from+tokens): with fp entries (if fpOn) for the prompt pages it leaves complete
         * (spec, WRITE: "for logical pages of this request that this write leaves complete").
         */
        void write(int s, Req r, int from, int tokens, Body.WriteSource source, boolean fpOn) {
            write(s, r, from, tokens, source, fpOn, false);
        }

        /** {@code sent} (spec v1.1): a transfer whose sender writes XFER_SEND for these positions. */
        void write(int s, Req r, int from, int tokens, Body.WriteSource source, boolean fpOn, boolean sent) {
            Table t = r.tables.get(s);
            int size = ps[s];
            t.written.set(from, from + tokens);
            List<PageFingerprint> fps = new ArrayList<>();
            for (int k = from / size; k <= (from + tokens - 1) / size; k++) {
                if (k < t.shared || (k + 1) * size > r.promptLen
                        || t.written.nextClearBit(k * size) < (k + 1) * size) {
                    continue;
                }
                String hex = r.fp(k);
                fps.add(new PageFingerprint(k, hex));
                pools[s].cache.put(hex, t.pages.get(k));
            }
            emit(s, new Body.Write(r.id, r.tenant, from, tokens, source, fpOn && !fps.isEmpty() ? fps : null,
                    sent, sent ? transfer(r.id) : null));
        }

        /**
         * Sender records held back: a chunk sent after its pages were freed is read only once a later prefill has
         * had the chance to take and write them (the 2026 free during a transfer, spec v1.1).
         */
        /** Sends (and their XFER_DONE, spec 1.3 amendment 3) held back until a later prefill. */
        final List<Body> laterSends = new ArrayList<>();

        void flushSends() {
            for (Body x : laterSends) {
                emit(PREFILL, x);
            }
            laterSends.clear();
        }

        /**
         * Spec 1.3, amendment 4: the decode node sends positions [0, n) it received on to the second decode node, by a
         * transfer of its own ({@code withSend}: its XFER_SEND written), which reads them and lets them go.
         */
        void forward(Req r, int n, boolean withSend, int onward) {
            List<Integer> got = alloc(DECODE2, r, ceil(n, ps[DECODE2]), 0);
            if (got == null) {
                r.tables.remove(DECODE2);
                return;
            }
            String transfer = "f-" + r.id;
            if (withSend) {
                emit(DECODE, new Body.XferSend(r.id, r.tenant, 0, n, transfer));
            }
            emit(DECODE2, new Body.Alloc(r.id, r.tenant, runs(got), Body.AllocPurpose.PREALLOC, n));
            emit(DECODE2, new Body.Write(r.id, r.tenant, 0, n, Body.WriteSource.TRANSFER, null, true, transfer));
            // a pulled forward held from an earlier request is read now, after this write may have taken its slots
            if (pulledOnward != null) {
                receiveOnward(pulledOnward, pulledOnwardTokens, true);
                pulledOnward = null;
            }
            attach(DECODE2, r, n);
            if (onward > 0) {
                // and sometimes the second decode node sends it on to a third (three hops): now and then by a pull,
                // its pages freed at once and its read (and XFER_DONE) only after the next forward wrote there
                emit(DECODE2, new Body.XferSend(r.id, r.tenant, 0, n, "g-" + r.id));
                if (onward == 2) {
                    freeOwned(DECODE2, r, Body.FreeReason.FINISH);
                    r.tables.remove(DECODE2);
                    pulledOnward = r;
                    pulledOnwardTokens = n;
                    return;
                }
                receiveOnward(r, n, false);
            }
            freeOwned(DECODE2, r, Body.FreeReason.FINISH);
            r.tables.remove(DECODE2);
        }

        /** A request forwarded to the second decode node and sent on by a pull, whose read has not happened yet. */
        Req pulledOnward;
        int pulledOnwardTokens;

        /** The third decode node reads positions [0, n) of r's transfer from the second ({@code pulled}: then done). */
        void receiveOnward(Req r, int n, boolean pulled) {
            List<Integer> got = alloc(DECODE3, r, ceil(n, ps[DECODE3]), 0);
            if (got != null) {
                emit(DECODE3, new Body.Alloc(r.id, r.tenant, runs(got), Body.AllocPurpose.PREALLOC, n));
                emit(DECODE3, new Body.Write(r.id, r.tenant, 0, n, Body.WriteSource.TRANSFER, null, true,
                        "g-" + r.id));
                attach(DECODE3, r, n);
                freeOwned(DECODE3, r, Body.FreeReason.FINISH);
            }
            r.tables.remove(DECODE3);
            if (pulled) {
                emit(DECODE2, new Body.XferDone(r.id, r.tenant, "g-" + r.id));
            }
        }

        void attach(int s, Req r, int tokens) {
            emit(s, new Body.Attach(r.id, r.tenant, tokens));
        }

        Req pick(Op op, Phase... phases) {
            List<Req> eligible = new ArrayList<>();
            for (Req r : reqs) {
                for (Phase ph : phases) {
                    if (r.phase == ph) {
                        eligible.add(r);
                    }
                }
            }
            return eligible.isEmpty() ? null : eligible.get(Math.floorMod(op.a(), eligible.size()));
        }

        boolean ownsOnDecode(Req r) {
            for (int s : r.decodeStreams()) {
                if (r.owns(s)) {
                    return true;
                }
            }
            return false;
        }

        // ------------------------------------------------------------------------------------ lifecycle

        /** ADMIT of a new request; sometimes REJECT (then sometimes served anyway: the 2026 fault). */
        Req newRequest(Op op) {
            Route route = switch (Math.floorMod(op.a(), 5)) {
                case 0, 1 -> Route.COLO;
                case 2 -> Route.PD;
                default -> Route.TP;
            };
            int b = Math.abs(op.b());
            int c = Math.abs(op.c());
            int tenant = b % tenants;
            boolean rejected = c / 16 % 6 == 5;
            Req r = new Req("r" + nextId++, tenant, route, Math.floorMod(op.a(), 5) == 1 ? COLO1 : COLO0,
                    b / 4 % 2, 1 + b / 8 % 3, 1, rejected);
            int limit = 12;
            for (int s : r.prefillStreams()) {
                limit = Math.min(limit, Math.max(1, pool[s] * ps[s] / 2));
            }
            for (int s : r.decodeStreams()) {
                limit = Math.min(limit, Math.max(1, pool[s] * ps[s] / 2));
            }
            return admit(new Req(r.id, tenant, route, r.colo, r.family, r.common, 1 + c % limit, rejected), op);
        }

        Req admit(Req r, Op op) {
            reqs.add(r);
            int c = Math.abs(op.c());
            int first = r.prefillStreams()[0];
            if (!r.rejected) {
                emit(first, new Body.Admit(r.id, r.tenant, r.promptLen, Body.Verdict.ACCEPT, null));
                r.phase = Phase.ADMITTED;
                return r;
            }
            String reason = r.promptLen > maxIn[first]
                    ? "input of " + r.promptLen + " tokens exceeds max_input_tokens " + maxIn[first]
                    : "tenant " + r.tenant + " over its token quota";
            emit(first, new Body.Admit(r.id, r.tenant, r.promptLen, Body.Verdict.REJECT, reason));
            if ((c >> 8 & 1) == 1) {
                // the same rejection told by a second stream, at a different ts
                int other = r.otherAdmitStream();
                long firstTs = log.get(log.size() - 1).ts().toEpochMilli();
                clock += 1 + Math.abs(op.a()) % 3;
                if (START.toEpochMilli() + clock + skew[other] == firstTs) {
                    clock++;
                }
                emit(other, new Body.Admit(r.id, r.tenant, r.promptLen, Body.Verdict.REJECT, reason));
            }
            // served anyway (ALLOC/ATTACH follow) or not (only a FINISH may follow)
            r.phase = (c >> 7 & 1) == 1 ? Phase.ADMITTED : Phase.REJECTED;
            return r;
        }

        void prefillStep(Op op) {
            Req r = pick(op, Phase.ADMITTED);
            if (r == null) {
                r = newRequest(op);
                if (r.phase != Phase.ADMITTED) {
                    return;
                }
            }
            prefill(r, op, false);
        }

        /**
         * The prompt's KV: colocated (maybe SHARE, ALLOC, WRITE), tensor-parallel (the same on both ranks, each with
         * its own pages), or prefill/decode (prefill ALLOC+WRITE, decode ALLOC PREALLOC + WRITE TRANSFER +
         * XFER_COMMIT, prefill FREE). plain: a full write, no share, LIFO pages.
         */
        void prefill(Req r, Op op, boolean plain) {
            int a = Math.abs(op.a());
            int b = Math.abs(op.b());
            int c = Math.abs(op.c());
            int len = r.promptLen;
            boolean fpOn = plain || c % 3 != 2;
            int offset = plain ? 0 : b >> 3 & 3;
            // stale slots: sometimes only part of the allocated positions is written (chunked prefill cut short)
            boolean partial = !plain && (c >> 4) % (r.rejected ? 2 : 5) == 1;
            int w = partial ? Math.max(0, len - 1 - (c >> 6) % 3) : len;
            switch (r.route) {
                case COLO -> prefillColocated(r, op, plain, fpOn, offset, w);
                case TP -> {
                    List<Integer> g0 = alloc(TP0, r, ceil(len, ps[TP0]), offset);
                    if (g0 == null) {
                        return;
                    }
                    List<Integer> g1 = alloc(TP1, r, ceil(len, ps[TP1]), offset + (c >> 8 & 1));
                    if (g1 == null) {
                        emit(TP0, new Body.Alloc(r.id, r.tenant, runs(g0), Body.AllocPurpose.PREFILL, null));
                        freeOwned(TP0, r, Body.FreeReason.ABORT);
                        r.phase = Phase.PREEMPTED;
                        return;
                    }
                    emit(TP0, new Body.Alloc(r.id, r.tenant, runs(g0), Body.AllocPurpose.PREFILL, null));
                    emit(TP1, new Body.Alloc(r.id, r.tenant, runs(g1), Body.AllocPurpose.PREFILL, null));
                    // a straggling rank may write less than the other: the ranks then hold different stale
                    // positions, and the reader's exposure is the union of both (spec, "Clarifications")
                    int w1 = !plain && (c >> 9) % 3 == 1 ? Math.max(0, w - 1 - a % 3) : w;
                    if (w > 0) {
                        write(TP0, r, 0, w, Body.WriteSource.COMPUTE, fpOn);
                    }
                    if (w1 > 0) {
                        write(TP1, r, 0, w1, Body.WriteSource.COMPUTE, fpOn);
                    }
                }
                case PD -> {
                    List<Integer> gp = alloc(PREFILL, r, ceil(len, ps[PREFILL]), offset);
                    if (gp == null) {
                        return;
                    }
                    List<Integer> gd = alloc(DECODE, r, ceil(len, ps[DECODE]), plain ? 0 : a >> 2 & 3);
                    emit(PREFILL, new Body.Alloc(r.id, r.tenant, runs(gp), Body.AllocPurpose.PREFILL, null));
                    if (gd == null) {
                        freeOwned(PREFILL, r, Body.FreeReason.ABORT);
                        r.phase = Phase.PREEMPTED;
                        return;
                    }
                    // the 2026 shape: a rejected prompt pre-allocated at decode gets the KV of one token
                    int wp = r.rejected && !plain && (c >> 5) % 3 != 0 ? 1 : w;
                    // spec 1.3, amendment 2: now and then a first attempt of the transfer, begun before the prefill
                    // wrote, fails and is retried as a new transfer: its send names what the slots held then, which
                    // is nobody's origin at the receiver (a join by request alone would make false victims)
                    if (!plain && (a + 5 * c) % 6 == 2) {
                        emit(PREFILL, new Body.XferSend(r.id, r.tenant, 0, Math.max(1, Math.min(len, wp)),
                                transfer(r.id) + "#0"));
                    }
                    if (wp > 0) {
                        write(PREFILL, r, 0, wp, Body.WriteSource.COMPUTE, fpOn);
                    }
                    // chunks held back from earlier transfers are read now, maybe from pages this prefill just took
                    flushSends();
                    boolean freeDuringTransfer = !plain && a % 5 == 4;
                    if (freeDuringTransfer) {
                        freeOwned(PREFILL, r, Body.FreeReason.FINISH);
                    }
                    emit(DECODE, new Body.Alloc(r.id, r.tenant, runs(gd), Body.AllocPurpose.PREALLOC, len));
                    int covered = wp;
                    if (!plain && (c >> 7) % 4 == 3) {
                        covered = Math.max(0, wp - 1 - a % 3); // covered < claimed: positions never written
                    }
                    // spec v1.1 in two transfers of three: the sender writes XFER_SEND, in one or two chunks, the
                    // second maybe after later prefills (read after a free); now and then one is never written
                    boolean sent = !plain && (b >> 3) % 3 != 0;
                    if (sent && covered < len && (b + c) % 4 == 1) {
                        covered++;  // the transfer reads a sender slot the prefill did not write
                    }
                    if (covered > 0) {
                        write(DECODE, r, 0, covered, Body.WriteSource.TRANSFER, fpOn, sent);
                    }
                    if (sent && covered > 0) {
                        int cut = covered == 1 ? covered : 1 + (a + (c >> 2)) % (covered - 1);
                        emit(PREFILL, new Body.XferSend(r.id, r.tenant, 0, cut, transfer(r.id)));
                        // one free during a transfer in two has an asynchronous transport: every chunk handed to it
                        // now, the read reported done after a later prefill (spec 1.3, amendment 3)
                        boolean pulled = freeDuringTransfer && (b + c) % 2 == 0;
                        if (cut < covered && (a * 7 + c) % 9 != 4) {
                            Body.XferSend rest = new Body.XferSend(r.id, r.tenant, cut, covered - cut, transfer(r.id));
                            if (freeDuringTransfer && !pulled) {
                                laterSends.add(rest);
                            } else {
                                emit(PREFILL, rest);
                            }
                        }
                        if (covered > 1 && (a + b) % 6 == 5) {
                            // a retried send of the second half, read again later: every origin of each counts
                            laterSends.add(new Body.XferSend(r.id, r.tenant, covered / 2, covered - covered / 2,
                                    transfer(r.id)));
                        }
                        // spec 1.3, amendment 3: an asynchronous transport reports the read finished (XFER_DONE);
                        // after a free during the transfer, only once a later prefill may have written the pages
                        // in flight (a possible exposure); now and then at once; otherwise never (an instant read)
                        if (pulled || (a + b + c) % 3 == 0) {
                            Body.XferDone done = new Body.XferDone(r.id, r.tenant, transfer(r.id));
                            if (freeDuringTransfer || !laterSends.isEmpty()) {
                                laterSends.add(done);
                            } else {
                                emit(PREFILL, done);
                            }
                        }
                    }
                    Boolean checksumOk = freeDuringTransfer ? Boolean.FALSE
                            : b % 5 == 4 ? null : b % 7 == 3 ? Boolean.FALSE : Boolean.TRUE;
                    emit(DECODE, new Body.XferCommit(r.id, r.tenant, len, covered, checksumOk));
                    // spec 1.3, amendment 4: now and then the decode node sends what it received on to a second
                    // decode node, which reads it at once (a chain of two transfers); its send now and then lost
                    if (sent && covered > 0 && (a + 3 * b + c) % 4 == 1) {
                        int onward = (b + 2 * c) % 5;
                        forward(r, covered, (a + b) % 7 != 3, onward < 2 ? 0 : onward < 4 ? 1 : 2);
                    }
                    freeOwned(PREFILL, r, Body.FreeReason.FINISH);
                }
            }
            if (r.phase == Phase.ADMITTED && r.tables.containsKey(r.decodeStreams()[0])
                    && capacity(r.decodeStreams()[0], r) >= len) {
                r.phase = Phase.DECODING;
                r.len = len;
            }
        }

        void prefillColocated(Req r, Op op, boolean plain, boolean fpOn, int offset, int w) {
            int s = r.colo;
            int size = ps[s];
            int len = r.promptLen;
            int a = Math.abs(op.a());
            int b = Math.abs(op.b());
            int c = Math.abs(op.c());
            if (pools[s].boot == 0) {
                boot(s);
            }
            int maxShare = (len - 1) / size;
            int mode = plain ? -1 : (c >> 2) % 4;
            List<Integer> shared = new ArrayList<>();
            if (mode == 3) {
                // a prefix-cache hit on another request's pages, whatever they hold: fp most likely not matching
                List<Req> sources = new ArrayList<>();
                for (Req q : reqs) {
                    if (q != r && q.tables.containsKey(s) && !q.tables.get(s).pages.isEmpty()) {
                        sources.add(q);
                    }
                }
                if (!sources.isEmpty()) {
                    List<Integer> pages = sources.get(b % sources.size()).tables.get(s).pages;
                    int h = Math.min(maxShare, Math.min(pages.size(), 1 + a % 2));
                    shared.addAll(pages.subList(0, h));
                }
            } else if (mode >= 0) {
                for (int k = 0; k < maxShare && k < r.common; k++) {
                    Integer page = pools[s].cache.get(r.fp(k));
                    if (page == null) {
                        break;
                    }
                    shared.add(page);
                }
            }
            int h = shared.size();
            Table t = r.table(s);
            t.pages.addAll(shared);
            t.shared = h;
            List<Integer> got = alloc(s, r, ceil(len, size) - h, offset);
            if (got == null) {
                t.pages.clear();
                t.shared = 0;
                return;
            }
            if (h > 0) {
                List<String> expected = null;
                if (mode != 2) {
                    expected = new ArrayList<>();
                    for (int k = 0; k < h; k++) {
                        expected.add(r.fp(k)); // what the reader expects: its own tokens' fingerprint
                    }
                }
                emit(s, new Body.Share(r.id, r.tenant, runs(shared), expected));
            }
            emit(s, new Body.Alloc(r.id, r.tenant, runs(got), Body.AllocPurpose.PREFILL, null));
            int from = h * size;
            if (w > from) {
                write(s, r, from, w - from, Body.WriteSource.COMPUTE, fpOn);
            }
        }

        void decodeStep(Op op) {
            Req r = pick(op, Phase.DECODING);
            if (r == null) {
                prefillStep(op);
                return;
            }
            decode(r, op);
        }

        /** One decoding step: ATTACH when decoding starts, ALLOC DECODE when the table is full, WRITE, ATTACH. */
        void decode(Req r, Op op) {
            int b = Math.abs(op.b());
            int c = Math.abs(op.c());
            int[] ds = r.decodeStreams();
            if (!r.attached) {
                for (int s : ds) {
                    attach(s, r, r.len);
                }
                r.attached = true;
            }
            int k = 1 + b % 3;
            for (int s : ds) {
                k = Math.min(k, pool[s] * ps[s] * 3 / 4 - r.len);
            }
            if (k <= 0) {
                finish(r, new Op(op.code(), op.a(), 3, 1)); // LENGTH, 200, delivered
                return;
            }
            for (int s : ds) {
                int need = ceil(r.len + k, ps[s]) - r.tables.get(s).pages.size();
                if (need > 0) {
                    List<Integer> got = alloc(s, r, need, b >> 3 & 1);
                    if (got != null) {
                        emit(s, new Body.Alloc(r.id, r.tenant, runs(got), Body.AllocPurpose.DECODE, null));
                    }
                }
            }
            for (int s : ds) {
                k = Math.min(k, capacity(s, r) - r.len);
            }
            if (k <= 0) {
                return;
            }
            // ATTACH beyond what was written, sometimes (a step told but its KV never stored)
            boolean skipWrite = (c >> 3) % 6 == 5;
            if (!skipWrite) {
                for (int s : ds) {
                    write(s, r, r.len, k, Body.WriteSource.COMPUTE, false);
                }
            }
            for (int s : ds) {
                attach(s, r, r.len + k);
            }
            r.len += k;
            r.generated += k;
        }

        /** FINISH (delivered true/false, output, http_status) and FREE of what it still owns. */
        void finish(Req r, Op op) {
            int a = Math.abs(op.a());
            int b = Math.abs(op.b());
            int c = Math.abs(op.c());
            Body.FinishStatus status;
            int http;
            int output;
            boolean delivered;
            if (r.phase == Phase.REJECTED) {
                if (c % 4 == 3) { // the 2026 fault: rejected, yet a response with output leaves
                    status = Body.FinishStatus.STOP;
                    http = 200;
                    output = 1 + a % 20;
                    delivered = true;
                } else {
                    status = Body.FinishStatus.ABORT;
                    http = new int[] {400, 413, 429}[a % 3];
                    output = 0;
                    delivered = c % 3 != 0;
                }
            } else if (r.phase == Phase.PREEMPTED || r.phase == Phase.ABORTED || r.phase == Phase.ADMITTED) {
                status = Body.FinishStatus.ABORT;
                http = new int[] {499, 500, 503}[a % 3];
                output = c % 2 == 0 ? 0 : r.generated;
                delivered = c % 5 == 4;
            } else {
                status = b % 4 == 3 ? Body.FinishStatus.LENGTH : Body.FinishStatus.STOP;
                http = c % 11 == 10 ? 100 + (a * 37 + b * 11) % 500 : 200;
                output = r.generated;
                delivered = c % 7 != 6;
            }
            int where = r.tables.containsKey(r.decodeStreams()[0]) ? r.decodeStreams()[0] : r.prefillStreams()[0];
            Body.FreeReason reason = r.phase == Phase.DECODING ? Body.FreeReason.FINISH : Body.FreeReason.ABORT;
            boolean freeFirst = (a >> 3 & 1) == 1;
            if (freeFirst) {
                freeAll(r, reason);
            }
            emit(where, new Body.Finish(r.id, r.tenant, status, http, output, delivered));
            if (!freeFirst) {
                freeAll(r, reason);
            }
            r.phase = Phase.FINISHED;
        }

        void freeAll(Req r, Body.FreeReason reason) {
            for (int s : new ArrayList<>(r.tables.keySet())) {
                freeOwned(s, r, reason);
            }
        }

        /**
         * Use after free: the request is aborted (FREE ABORT of all its pages) while a step is in flight; another
         * tenant's request gets those pages (LIFO) and writes them; then the aborted request's stray WRITE and
         * ATTACH arrive, and sometimes an ALLOC of it again.
         */
        void abortWithStepInFlight(Req r, Op op) {
            int b = Math.abs(op.b());
            int c = Math.abs(op.c());
            int[] ds = r.decodeStreams();
            int freedPositions = Integer.MAX_VALUE;
            for (int s : ds) {
                freedPositions = Math.min(freedPositions, r.tables.get(s).owned.size() * ps[s]);
                freeOwned(s, r, Body.FreeReason.ABORT);
            }
            int otherTenant = (r.tenantIdx + 1 + b % (tenants - 1)) % tenants;
            int limit = Integer.MAX_VALUE;
            for (int s : ds) {
                limit = Math.min(limit, pool[s] * ps[s] / 2);
            }
            for (int s : r.prefillStreams()) {
                limit = Math.min(limit, pool[s] * ps[s] / 2);
            }
            int qLen = Math.max(1, Math.min(freedPositions, limit));
            Req q = admit(new Req("r" + nextId++, otherTenant, r.route, r.colo, (r.family + 1) % 3, 0, qLen, false),
                    op);
            prefill(q, op, true);
            int k = 1 + b % 2;
            for (int s : ds) {
                k = Math.min(k, capacity(s, r) - r.len);
            }
            if (k > 0) {
                for (int s : ds) {
                    write(s, r, r.len, k, Body.WriteSource.COMPUTE, false);
                }
                r.len += k;
            }
            for (int s : ds) {
                attach(s, r, r.len);
            }
            if ((c >> 5) % 3 == 2) {
                for (int s : ds) {
                    List<Integer> got = alloc(s, r, 1, 0);
                    if (got != null) {
                        emit(s, new Body.Alloc(r.id, r.tenant, runs(got), Body.AllocPurpose.DECODE, null));
                    }
                }
            }
            r.phase = Phase.ABORTED;
        }

        /**
         * DOUBLE_ALLOC: the request is given a page another request still owns, and writes its next positions on
         * it; the other request's next ATTACH reads them.
         */
        boolean doubleAlloc(Req r, Op op) {
            int s = r.decodeStreams()[0];
            Pool p = pools[s];
            List<Integer> candidates = new ArrayList<>();
            for (int page = 0; page < p.owner.length; page++) {
                if (p.owner[page] != null && p.owner[page] != r) {
                    candidates.add(page);
                }
            }
            if (candidates.isEmpty() || !r.tables.containsKey(s)) {
                return false;
            }
            int page = candidates.get(Math.abs(op.b()) % candidates.size());
            Req victim = p.owner[page];
            victim.tables.get(s).owned.remove(page);
            p.owner[page] = r;
            Table t = r.tables.get(s);
            t.pages.add(page);
            t.owned.add(page);
            emit(s, new Body.Alloc(r.id, r.tenant, List.of(new PageRun(page, 1)), Body.AllocPurpose.DECODE, null));
            int end = (t.pages.size() - 1) * ps[s] + 1 + Math.abs(op.a()) % ps[s];
            if (end > r.len) {
                write(s, r, r.len, end - r.len, Body.WriteSource.COMPUTE, false);
                attach(s, r, end);
                r.generated += end - r.len;
                r.len = end;
            }
            return true;
        }

        /**
         * An impossible record (valid JSON, impossible in state: spec, Invalid input): WRITE or ATTACH beyond the
         * table, FREE of a page not owned, ALLOC outside the pool. It changes nothing.
         */
        void impossible(Op op) {
            int s = Math.floorMod(op.a(), 6);
            if (pools[s].boot == 0) {
                boot(s);
            }
            List<Req> candidates = new ArrayList<>();
            for (Req q : reqs) {
                if (q.tables.containsKey(s)) {
                    candidates.add(q);
                }
            }
            if (candidates.isEmpty()) {
                candidates = reqs;
            }
            if (candidates.isEmpty()) {
                return;
            }
            Req r = candidates.get(Math.abs(op.b()) % candidates.size());
            int c = Math.abs(op.c());
            int cap = capacity(s, r);
            switch (c % 4) {
                case 0 -> {
                    int from = Math.max(0, cap - 1 - (c >> 2) % 2);
                    emit(s, new Body.Write(r.id, r.tenant, from, cap - from + 1 + (c >> 3) % 2,
                            Body.WriteSource.COMPUTE, null));
                }
                case 1 -> attach(s, r, cap + 1 + (c >> 2) % 3);
                case 2 -> {
                    Table t = r.tables.get(s);
                    int page = Math.abs(op.b()) % pool[s];
                    for (int i = 0; i < pool[s] && t != null && t.owned.contains(page); i++) {
                        page = (page + 1) % pool[s];
                    }
                    if (t != null && t.owned.contains(page)) {
                        page = pool[s];
                    }
                    emit(s, new Body.Free(r.id, List.of(new PageRun(page, 1)), Body.FreeReason.FINISH));
                }
                default -> {
                    PageRun run = (c >> 4) % 2 == 0 ? new PageRun(pool[s] + (c >> 2) % 3, 1)
                            : new PageRun(pool[s] - 1, 2);
                    emit(s, new Body.Alloc(r.id, r.tenant, List.of(run), Body.AllocPurpose.DECODE, null));
                }
            }
        }

        static int ceil(int tokens, int size) {
            return (tokens + size - 1) / size;
        }
    }
}
