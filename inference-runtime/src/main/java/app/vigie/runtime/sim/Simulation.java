package app.vigie.runtime.sim;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

import app.vigie.runtime.engine.Cache;
import app.vigie.runtime.engine.Fault;
import app.vigie.runtime.engine.Fix;
import app.vigie.runtime.engine.GroundTruth;
import app.vigie.runtime.engine.Node;
import app.vigie.runtime.engine.Request;
import app.vigie.runtime.log.Emitter;

/**
 * Runs a deployment of the toy runtime on a multi-tenant workload and writes its page audit log. Deterministic for a
 * seed: the same options give the same log and the same ground truth.
 */
public final class Simulation {
    /** Where the simulated clock starts. */
    public static final Instant START = Instant.parse("2026-08-27T09:00:00Z");
    private static final int PAGE_SIZE = 64;
    static final int CHUNK = 512;
    /** The 2026 incident's published shape (INCIDENT_2026_FULL): the decode pool, the window it advertised. */
    static final int FULL_DECODE_TOKENS = 681_280;
    static final int FULL_WINDOW = 1_048_576;
    /** Its prefill (not published): a pool of 163,840 tokens taking prompts up to 131,072. */
    static final int FULL_PREFILL_TOKENS = 163_840;
    static final int FULL_MAX_INPUT = 131_072;
    /** The template (first 256) and system prompt (next 256) tokens behind every colocated prompt. */
    private static final int[] SYSTEM = new Random(42).ints(512, 0, 1_000_000).toArray();

    /**
     * How a KV transfer reads the sender's pages (spec 1.3, amendment 3). {@code PUSH}: the sender reads each chunk when
     * it writes its XFER_SEND. {@code PULL}: as NIXL's decode side, the receiver reads the pages some time after the
     * hand-over (every XFER_SEND at once), chunk by chunk, and the sender learns it at the transfer's XFER_DONE; what
     * another request writes to the pages in between may be what was read.
     */
    public enum Transport {
        PUSH,
        PULL
    }

    /** How a node schedules the requests it serves. */
    public enum Scheduling {
        /** Each request runs to its end before the next one starts: pages one request frees are the next one's. */
        ONE_AT_A_TIME,
        /**
         * Continuous batching, as vLLM's and SGLang's schedulers: every step runs the decodes of the running requests
         * and chunks of prompts within a token budget, and admits waiting requests while others decode
         * ({@link Batched}).
         */
        BATCHED
    }

    /** The scenarios: their deployments. */
    public enum Scenario {
        /** Prefill/decode disaggregation as in 2026: a small prefill pool, a decode pool under the window. */
        INCIDENT_2026,
        /**
         * The same at the incident's published shape: a decode pool of 681,280 tokens behind an advertised window of
         * 1,048,576, a prefill taking prompts up to 131,072 tokens; over-long prompts run from 131,073 to 531,072.
         */
        INCIDENT_2026_FULL,
        /** One colocated node. */
        COLOCATED,
        /**
         * Prefill/decode disaggregation with a prefix cache on the prefill node (prompts with a template and a system
         * prompt, as colocated; {@code --cache}): what the cache shares is sent on with the rest.
         */
        DISAGGREGATED
    }

    /**
     * @param longPromptShare share of prompts longer than the prefill's max input (over-long, as in 2026)
     */
    public record Options(Scenario scenario, int tenants, int requests, Set<Fault> faults, Set<Fix> fixes, long seed,
            String deployment, double longPromptShare, Cache cache, int rebootEvery, double rate,
            boolean sendRecords, Scheduling scheduling, int decodeNodes, Transport transport) {
        /** Transfers pushed by the sender (each chunk read at its XFER_SEND). */
        public Options(Scenario scenario, int tenants, int requests, Set<Fault> faults, Set<Fix> fixes, long seed,
                String deployment, double longPromptShare, Cache cache, int rebootEvery, double rate,
                boolean sendRecords, Scheduling scheduling, int decodeNodes) {
            this(scenario, tenants, requests, faults, fixes, seed, deployment, longPromptShare, cache, rebootEvery,
                    rate, sendRecords, scheduling, decodeNodes, Transport.PUSH);
        }

        /** One request at a time per node, as before continuous batching; one decode node. */
        public Options(Scenario scenario, int tenants, int requests, Set<Fault> faults, Set<Fix> fixes, long seed,
                String deployment, double longPromptShare, Cache cache, int rebootEvery, double rate,
                boolean sendRecords) {
            this(scenario, tenants, requests, faults, fixes, seed, deployment, longPromptShare, cache, rebootEvery,
                    rate, sendRecords, Scheduling.ONE_AT_A_TIME, 1);
        }

        /** A log of spec v1.1: the sender of each KV transfer writes {@code XFER_SEND}. */
        public Options(Scenario scenario, int tenants, int requests, Set<Fault> faults, Set<Fix> fixes, long seed,
                String deployment, double longPromptShare, Cache cache, int rebootEvery, double rate) {
            this(scenario, tenants, requests, faults, fixes, seed, deployment, longPromptShare, cache, rebootEvery,
                    rate, true);
        }

        /** With a prefix cache salted per tenant, and no reboot. */
        public Options(Scenario scenario, int tenants, int requests, Set<Fault> faults, Set<Fix> fixes, long seed,
                String deployment, double longPromptShare) {
            this(scenario, tenants, requests, faults, fixes, seed, deployment, longPromptShare, Cache.PER_TENANT, 0,
                    50);
        }

        public Options {
            if (tenants < 1 || tenants > 1000) {
                throw new IllegalArgumentException("tenants must be 1 to 1000, got " + tenants);
            }
            if (requests < 0) {
                throw new IllegalArgumentException("requests must be >= 0, got " + requests);
            }
            if (longPromptShare < 0 || longPromptShare > 1) {
                throw new IllegalArgumentException("the share of long prompts is between 0 and 1, got "
                        + longPromptShare);
            }
            faults = faults.isEmpty() ? EnumSet.noneOf(Fault.class) : EnumSet.copyOf(faults);
            Objects.requireNonNull(cache, "cache");
            if (!(rate > 0) || rate > 1_000_000) {
                throw new IllegalArgumentException("the arrival rate is more than 0 and at most 1,000,000 requests/s, "
                        + "got " + rate);
            }
            if (rebootEvery < 0) {
                throw new IllegalArgumentException("reboot-every must be >= 0 (0: never), got " + rebootEvery);
            }
            fixes = fixes.isEmpty() ? EnumSet.noneOf(Fix.class) : EnumSet.copyOf(fixes);
            Objects.requireNonNull(scheduling, "scheduling");
            if (decodeNodes < 1 || decodeNodes > 8) {
                throw new IllegalArgumentException("decode nodes are 1 to 8, got " + decodeNodes);
            }
            Objects.requireNonNull(transport, "transport");
            if (transport == Transport.PULL && scenario == Scenario.COLOCATED) {
                throw new IllegalArgumentException("a colocated node transfers nothing: the pull transport is for the"
                        + " disaggregated scenarios");
            }
            if (decodeNodes > 1 && scenario == Scenario.COLOCATED) {
                throw new IllegalArgumentException("a colocated node decodes its own requests: decode nodes are for the"
                        + " disaggregated scenarios");
            }
        }

        public static Options of(Scenario scenario, int tenants, int requests, long seed) {
            return new Options(scenario, tenants, requests, Set.of(), Set.of(), seed, "sim-model/prod", 0.15);
        }

        public Options with(Set<Fault> f, Set<Fix> x) {
            return new Options(scenario, tenants, requests, f, x, seed, deployment, longPromptShare, cache,
                    rebootEvery, rate, sendRecords, scheduling, decodeNodes, transport);
        }

        public Options with(Cache c) {
            return new Options(scenario, tenants, requests, faults, fixes, seed, deployment, longPromptShare, c,
                    rebootEvery, rate, sendRecords, scheduling, decodeNodes, transport);
        }

        /** The engines restart every {@code n} requests (0: never). */
        public Options rebootingEvery(int n) {
            return new Options(scenario, tenants, requests, faults, fixes, seed, deployment, longPromptShare, cache, n,
                    rate, sendRecords, scheduling, decodeNodes, transport);
        }

        /** Requests arrive at {@code r} per second on average (Poisson arrivals). */
        public Options arriving(double r) {
            return new Options(scenario, tenants, requests, faults, fixes, seed, deployment, longPromptShare, cache,
                    rebootEvery, r, sendRecords, scheduling, decodeNodes, transport);
        }

        /**
         * A log of spec v1 ({@code false}): transfers are written without {@code sent} and no {@code XFER_SEND}, as an
         * engine that does not write the sender's record.
         */
        public Options sendRecords(boolean on) {
            return new Options(scenario, tenants, requests, faults, fixes, seed, deployment, longPromptShare, cache,
                    rebootEvery, rate, on, scheduling, decodeNodes, transport);
        }

        /** How each node schedules its requests. */
        public Options scheduled(Scheduling s) {
            return new Options(scenario, tenants, requests, faults, fixes, seed, deployment, longPromptShare, cache,
                    rebootEvery, rate, sendRecords, s, decodeNodes, transport);
        }

        /** How KV transfers read the sender's pages (disaggregated scenarios). */
        public Options transported(Transport t) {
            return new Options(scenario, tenants, requests, faults, fixes, seed, deployment, longPromptShare, cache,
                    rebootEvery, rate, sendRecords, scheduling, decodeNodes, t);
        }

        /**
         * Disaggregated, how many decode nodes the prefill node serves (1 to 8): a request goes to the next in turn,
         * its KV transferred there.
         */
        public Options decodingOn(int nodes) {
            return new Options(scenario, tenants, requests, faults, fixes, seed, deployment, longPromptShare, cache,
                    rebootEvery, rate, sendRecords, scheduling, nodes, transport);
        }
    }

    /**
     * What a run did, besides its log. {@code rejectedButServed}: rejected at admission, then decoded and delivered
     * anyway (counted in {@code delivered}); {@code rejected}: rejected and answered so.
     */
    public record Summary(int requests, int rejected, int rejectedButServed, int aborted, int delivered,
            GroundTruth truth, long pagesAllocated, Batching batching) {
    }

    /**
     * What batching did (zeros one at a time): scheduler steps, steps that ran prompt chunks and decodes together,
     * the most requests one step ran, the most requests in flight at once, and the requests preempted (recomputed later).
     */
    public record Batching(long steps, long mixedSteps, int maxBatch, int maxInFlight, long preemptions) {
        static final Batching NONE = new Batching(0, 0, 0, 0, 0);
    }

    /** Told after each request: done so far, of how many. */
    public interface Progress {
        void update(int done, int total);
    }

    private Simulation() {
    }

    public static Summary run(Options o, Consumer<String> sink, Progress progress) {
        return run(o, sink, progress, true, true);
    }

    /**
     * A run with parts of the instrumentation off, to measure what they cost: {@code sink} null emits no log (no
     * record built, no fingerprint), {@code tagging} false keeps no page tags, {@code groundTruth} false records
     * nothing of what responses carried. The tag check needs tags.
     */
    public static Summary run(Options o, Consumer<String> sink, Progress progress, boolean tagging,
            boolean groundTruth) {
        return run(o, sink, progress, tagging, groundTruth, true);
    }

    /**
     * @param background whether the log's work (fingerprints, formatting, the sink) runs in a thread of its own
     *     ({@link Emitter#background}) or in the engine's; the log is the same either way
     */
    public static Summary run(Options o, Consumer<String> sink, Progress progress, boolean tagging,
            boolean groundTruth, boolean background) {
        Emitter emitter = sink != null && background ? Emitter.background("audit-log-emitter") : Emitter.inline();
        Summary summary;
        try {
            summary = simulate(o, sink, emitter, progress, tagging, groundTruth);
        } catch (RuntimeException | Error e) {
            emitter.abandon();
            throw e;
        }
        emitter.close();
        return summary;
    }

    private static Summary simulate(Options o, Consumer<String> sink, Emitter emitter, Progress progress,
            boolean tagging, boolean groundTruth) {
        if (!tagging && o.fixes().contains(Fix.TAG_CHECK)) {
            throw new IllegalArgumentException("the tag check needs page tags");
        }
        Random random = new Random(o.seed());
        Random arrivals = new Random(o.seed() ^ 0x5DEECE66DL);
        Map<Integer, Request> requests = new HashMap<>();
        GroundTruth truth = groundTruth ? new GroundTruth() : null;
        Instant[] now = {START};
        // One at a time, each record takes a millisecond; batched, a step takes its time (Batched.STEP) and its records
        // share it, so that simulated time does not depend on whether a log is written.
        boolean perRecord = o.scheduling() == Scheduling.ONE_AT_A_TIME;
        Supplier<Instant> clock = () -> {
            if (perRecord) {
                now[0] = now[0].plusMillis(1);
            }
            return now[0];
        };
        byte[] key = ("vigie-sim-fingerprint-key/" + o.seed()).getBytes(StandardCharsets.UTF_8);
        String boot = "b" + Long.toString(o.seed() & 0xffffff, 36);
        Node prefill;
        List<Node> decodes = new ArrayList<>();
        if (o.scenario() == Scenario.COLOCATED) {
            prefill = new Node(new Node.Config("sim/n1/colo/dp0", o.deployment(), boot, PAGE_SIZE, 200, 16_384,
                    8_192), o.cache(), o.faults(), o.fixes(), key, requests, truth, clock, sink, emitter,
                    tagging);
            decodes.add(prefill);
        } else {
            boolean full = o.scenario() == Scenario.INCIDENT_2026_FULL;
            boolean cached = o.scenario() == Scenario.DISAGGREGATED;
            prefill = full ? new Node(new Node.Config("sim/n17/prefill/dp0", o.deployment(), boot, PAGE_SIZE,
                    FULL_PREFILL_TOKENS / PAGE_SIZE, FULL_WINDOW, FULL_MAX_INPUT), Cache.OFF, o.faults(), o.fixes(), key,
                    requests, truth, clock, sink, emitter, tagging)
                    : new Node(new Node.Config("sim/n17/prefill/dp0", o.deployment(), boot, PAGE_SIZE,
                            cached ? 120 : 40, 16_384, 2_500), cached ? o.cache() : Cache.OFF, o.faults(), o.fixes(),
                            key, requests, truth, clock, sink, emitter, tagging);
            // one sender, one receiver per request: the sender's XFER_SEND tells the receiver's slots their origin
            for (int d = 0; d < o.decodeNodes(); d++) {
                Node decode = full ? new Node(new Node.Config("sim/n" + (21 + d) + "/decode/dp0", o.deployment(), boot,
                        PAGE_SIZE, FULL_DECODE_TOKENS / PAGE_SIZE, FULL_WINDOW, FULL_WINDOW), Cache.OFF, o.faults(),
                        o.fixes(), key, requests, truth, clock, sink, emitter, tagging)
                        : new Node(new Node.Config("sim/n" + (21 + d) + "/decode/dp0", o.deployment(), boot, PAGE_SIZE,
                                200, 16_384, 16_384), Cache.OFF, o.faults(), o.fixes(), key, requests, truth, clock,
                                sink, emitter, tagging);
                decode.sendRecords(o.sendRecords());
                decodes.add(decode);
            }
        }
        boolean colocated = decodes.get(0) == prefill;
        // Request ids are unique across streams and runs (the gateway's): a run names its requests after its
        // deployment, scenario and seed.
        String run = "r" + Integer.toString((o.deployment() + "|" + o.scenario() + "|" + o.seed()).hashCode()
                & 0x7fffffff, 36);
        int[] intruderCount = {0};
        Function<Request, Request> intruders = victim -> {
            int tenant = (Integer.parseInt(victim.tenant().substring("tenant-".length())) + 1) % o.tenants();
            int[] prompt = new int[victim.prompt().length];
            for (int p = 0; p < prompt.length; p++) {
                prompt[p] = (tenant + 1) * 1_000_000 + random.nextInt(1_000_000);
            }
            Request x = new Request(o.requests() + intruderCount[0], run + "-x" + intruderCount[0]++,
                    "tenant-" + tenant, prompt, 0);
            requests.put(x.id(), x);
            return x;
        };
        if (o.scheduling() == Scheduling.BATCHED) {
            // every request drawn first, then served as they arrive (Poisson, absolute times)
            List<Request> drawn = new ArrayList<>(o.requests());
            List<Instant> at = new ArrayList<>(o.requests());
            Instant arrival = START;
            for (int i = 0; i < o.requests(); i++) {
                Request r = draw(i, random, o, run);
                requests.put(i, r);
                drawn.add(r);
                arrival = arrival.plusNanos((long) (-Math.log(1 - arrivals.nextDouble()) / o.rate() * 1e9));
                at.add(arrival);
            }
            String bootName = boot;
            Batched.Counts c = new Batched(prefill, decodes, o, now, progress, k -> reboot(prefill, decodes,
                    bootName + "-r" + k)).run(drawn, at);
            long pages = pagesAllocated(prefill, decodes);
            return new Summary(o.requests(), c.rejected, c.rejectedButServed, c.aborted, c.delivered,
                    truth == null ? new GroundTruth() : truth, pages,
                    new Batching(c.steps, c.mixedSteps, c.maxBatch, c.maxInFlight, c.preemptions));
        }
        int rejected = 0;
        int rejectedButServed = 0;
        int aborted = 0;
        int delivered = 0;
        for (int i = 0; i < o.requests(); i++) {
            Request r = draw(i, random, o, run);
            requests.put(i, r);
            // Poisson arrivals: exponential gaps of mean 1/rate, from a generator of their own.
            now[0] = now[0].plusNanos((long) (-Math.log(1 - arrivals.nextDouble()) / o.rate() * 1e9));
            if (o.rebootEvery() > 0 && i > 0 && i % o.rebootEvery() == 0) {
                reboot(prefill, decodes, boot + "-r" + (i / o.rebootEvery()));
            }
            Outcome out = colocated ? colocated(prefill, r, o)
                    : disaggregated(prefill, decodes.get(i % decodes.size()), r, o, intruders);
            switch (out) {
                case REJECTED -> rejected++;
                case ABORTED -> aborted++;
                case DELIVERED -> delivered++;
                case REJECTED_BUT_SERVED -> {
                    rejectedButServed++;
                    delivered++;
                }
            }
            if (progress != null) {
                progress.update(i + 1, o.requests());
            }
        }
        return new Summary(o.requests(), rejected, rejectedButServed, aborted, delivered,
                truth == null ? new GroundTruth() : truth, pagesAllocated(prefill, decodes), Batching.NONE);
    }

    /** The engines restart, every node of the deployment with the same new boot. */
    private static void reboot(Node prefill, List<Node> decodes, String boot) {
        prefill.reboot(boot);
        for (Node d : decodes) {
            if (d != prefill) {
                d.reboot(boot);
            }
        }
    }

    private static long pagesAllocated(Node prefill, List<Node> decodes) {
        long pages = prefill.pool().allocations();
        for (Node d : decodes) {
            pages += d == prefill ? 0 : d.pool().allocations();
        }
        return pages;
    }

    /** Request {@code i} of the workload: its tenant, its prompt (over-long for a share), its output length. */
    private static Request draw(int i, Random random, Options o, String run) {
        int tenant = random.nextInt(o.tenants());
        boolean tooLong = random.nextDouble() < o.longPromptShare();
        int length = o.scenario() == Scenario.INCIDENT_2026_FULL
                ? tooLong ? FULL_MAX_INPUT + 1 + random.nextInt(400_000) : 100 + random.nextInt(1_900)
                : tooLong ? 3_000 + random.nextInt(9_000) : 100 + random.nextInt(1_900);
        int[] prompt = new int[length];
        int prefix = 0;
        if (o.scenario() == Scenario.COLOCATED || o.scenario() == Scenario.DISAGGREGATED) {
            // Prompts start with the deployment's template (4 pages, the same for all) and the tenant's system
            // prompt (4 pages): what a prefix cache is for.
            prefix = Math.min(length - 1, SYSTEM.length);
            for (int p = 0; p < prefix; p++) {
                prompt[p] = p < 256 ? SYSTEM[p] : (tenant + 1) * 1_000_000 + SYSTEM[p];
            }
        }
        for (int p = prefix; p < length; p++) {
            // A tenant's tokens are its own numbers: a foreign token in a response is recognisable.
            prompt[p] = (tenant + 1) * 1_000_000 + random.nextInt(1_000_000);
        }
        return new Request(i, run + "-" + i, "tenant-" + tenant, prompt, 8 + random.nextInt(56));
    }

    private enum Outcome { REJECTED, REJECTED_BUT_SERVED, ABORTED, DELIVERED }

    /** Positions the prefill writes: the whole prompt, or its first chunk when the prefill is cut short. */
    static int prefilled(Request r, Options o) {
        int length = r.prompt().length;
        return o.faults().contains(Fault.PARTIAL_PREFILL_WRITE) && r.id() % 10 == 3 ? Math.min(CHUNK, length)
                : length;
    }

    private static Outcome colocated(Node node, Request r, Options o) {
        int length = r.prompt().length;
        if (!node.admit(r, length)) {
            node.finish(r, "ABORT", 400, 0, false);
            return Outcome.REJECTED;
        }
        if (!node.prefill(r, length, prefilled(r, o))) {
            node.free(r, "ABORT");
            node.finish(r, "ABORT", 503, 0, false);
            return Outcome.ABORTED;
        }
        return decode(node, r, length);
    }

    /** Another tenant's request prefilled, then cancelled by its client: it lands on the pages just freed. */
    private static void intrude(Node prefill, Request x) {
        int length = x.prompt().length;
        if (prefill.admit(x, length) && prefill.allocate(x, length, "PREFILL", null)) {
            prefill.write(x, 0, x.prompt(), length, "COMPUTE");
            prefill.free(x, "ABORT");
        }
        prefill.finish(x, "ABORT", 499, 0, false);
    }

    private static Outcome disaggregated(Node prefill, Node decode, Request r, Options o,
            Function<Request, Request> intruders) {
        int length = r.prompt().length;
        if (!prefill.admit(r, length)) {
            if (o.faults().contains(Fault.REJECT_WITHOUT_ABORT) && !o.fixes().contains(Fix.NO_PREALLOC_FOR_REJECTED)) {
                // The decode node pre-allocated for the whole prompt and is never told: it receives the KV of one
                // token, takes the rest as written, and decodes.
                if (!decode.allocate(r, length, "PREALLOC", length)) {
                    prefill.finish(r, "ABORT", 400, 0, false);
                    return Outcome.REJECTED;
                }
                decode.write(r, 0, r.prompt(), 1, "TRANSFER");
                decode.xferCommit(r, length, 1, null);
                if (decode.has(Fix.COVERAGE_CHECK)) {
                    decode.finish(r, "ABORT", 500, 0, false);
                    decode.free(r, "ABORT");
                    return Outcome.ABORTED;
                }
                Outcome served = decode(decode, r, length);
                return served == Outcome.DELIVERED ? Outcome.REJECTED_BUT_SERVED : served;
            }
            prefill.finish(r, "ABORT", 400, 0, false);
            return Outcome.REJECTED;
        }
        // a prefix cache on the prefill node shares what it has of the prompt (DISAGGREGATED)
        int cached = prefill.startPrefill(r, length);
        if (cached < 0) {
            prefill.free(r, "ABORT");
            prefill.finish(r, "ABORT", 503, 0, false);
            return Outcome.ABORTED;
        }
        int written = prefilled(r, o);
        if (written > cached) {
            prefill.write(r, cached, Arrays.copyOfRange(r.prompt(), cached, written), written - cached, "COMPUTE");
        }
        if (!decode.allocate(r, length, "PREALLOC", length)) {
            prefill.free(r, "ABORT");
            prefill.finish(r, "ABORT", 503, 0, false);
            return Outcome.ABORTED;
        }
        // The transfer engine reads the prefill's pages chunk by chunk, and checksums what it meant to send.
        int[] senderPages = prefill.pagesOf(r);
        int senderShared = prefill.sharedOf(r);
        long sent = prefill.checksum(senderPages, written);
        boolean freeEarly = o.faults().contains(Fault.FREE_DURING_TRANSFER) && !o.fixes().contains(Fix.DEFERRED_FREE)
                && r.id() % 10 == 7;
        boolean pull = o.transport() == Transport.PULL;
        if (pull) {
            // the hand-over: every chunk's XFER_SEND now, the receiver reads them afterwards
            for (int from = 0; from < written; from += CHUNK) {
                decode.handOver(r, from, Math.min(CHUNK, written - from), prefill, senderPages, senderShared);
            }
        }
        for (int from = 0; from < written; from += CHUNK) {
            if (pull) {
                decode.copy(r, from, Math.min(CHUNK, written - from), prefill, senderPages, senderShared);
            } else {
                decode.receive(r, from, Math.min(CHUNK, written - from), prefill, senderPages, senderShared);
            }
            if (freeEarly && from == 0) {
                prefill.free(r, "FINISH");
                intrude(prefill, intruders.apply(r));
            }
        }
        if (pull) {
            decode.pullDone(r, prefill);  // the sender learns the read finished: XFER_DONE
        }
        decode.xferCommit(r, length, written, sent == decode.checksum(decode.pagesOf(r), written));
        if (!freeEarly) {
            prefill.free(r, "FINISH");
        }
        if (written < length && decode.has(Fix.COVERAGE_CHECK)) {
            decode.finish(r, "ABORT", 500, 0, false);
            decode.free(r, "ABORT");
            return Outcome.ABORTED;
        }
        return decode(decode, r, length);
    }

    /** Decodes: attend the context, then generate, growing the table a page at a time. */
    private static Outcome decode(Node node, Request r, int length) {
        if (!node.attach(r, length)) {
            node.finish(r, "ABORT", 500, 0, false);
            node.free(r, "ABORT");
            return Outcome.ABORTED;
        }
        // The toy model: its k-th generated token repeats the k-th token it attends.
        int[] context = node.echo(r, length);
        int generated = 0;
        for (int k = 0; k < r.maxOutput(); k++) {
            int position = length + k;
            boolean grows = position % node.pool().pageSize() == 0;
            if (grows && !node.allocate(r, position + 1, "DECODE", null)) {
                break;
            }
            node.decodeWrite(r, position, context[k % length]);
            generated++;
            if (grows && !node.attach(r, position + 1)) {
                node.finish(r, "ABORT", 500, 0, false);
                node.free(r, "ABORT");
                return Outcome.ABORTED;
            }
        }
        node.finish(r, generated == r.maxOutput() ? "STOP" : "LENGTH", 200, generated, true);
        node.free(r, "FINISH");
        return Outcome.DELIVERED;
    }
}
