package app.vigie.runtime.sim;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.function.IntConsumer;

import app.vigie.runtime.engine.Fault;
import app.vigie.runtime.engine.Fix;
import app.vigie.runtime.engine.Node;
import app.vigie.runtime.engine.Request;
import app.vigie.runtime.sim.Simulation.Options;

/**
 * Continuous batching, the shape of vLLM's {@code Scheduler.schedule()} (v1) without preemption: each step first runs
 * the running requests (a decode token each, or the next chunk of a prompt being prefilled), then admits waiting
 * requests in arrival order while the step's token budget and the running limit allow, their first chunk in the same
 * step. Chunks of prompts and decodes of others share a step, and a request is admitted while others decode, so the
 * pages one request frees go to whichever needs pages next, as in a real engine.
 *
 * <p>Disaggregated, the prefill node runs the prompts for one or several decode nodes (a request goes to the next in
 * turn); a prompt done is pre-allocated on its decode node (waiting
 * while it is full) and transferred a chunk per step, so that the prefill's other requests run while it is in flight:
 * a free during the transfer (the fault) gives its pages to the next prompts, whose KV the later chunks carry. The
 * decode node runs a token per decoding request each step.
 *
 * <p>A request that needs pages and finds none waits at the head of the queue (first come, first served). On a
 * colocated node, a decoding request whose table cannot grow preempts the request admitted last (vLLM's
 * {@code _preempt_request}, recompute): its pages are freed ({@code FREE EVICT}), it goes back to the head of the
 * queue, and when re-admitted it recomputes its prompt and the tokens it had generated in a new table, whose first
 * {@code ALLOC} or {@code SHARE} says {@code restart} (spec v1.2). On a decode node the same happens there: the
 * request admitted there last is preempted and waits on that node, which recomputes its whole prompt itself when
 * there is room (vLLM's recompute; SGLang would reload the KV it offloaded). With nothing to preempt, a request ends
 * with {@code LENGTH}, as one at a time.
 */
final class Batched {
    /** Tokens one step computes on a node (vLLM's {@code max_num_batched_tokens}). */
    static final int TOKEN_BUDGET = 2_048;
    /** Requests a prefill (or colocated) node runs at once (vLLM's {@code max_num_seqs}). */
    static final int MAX_RUNNING = 32;
    /**
     * What a step takes in simulated time: a fixed part and a part per token computed (made up, deterministic: a
     * step of decodes alone takes about 10 ms, one with a full budget of prompt chunks about 50 ms).
     */
    static final long STEP_MICROS = 10_000;
    static final long TOKEN_MICROS = 20;

    private final Node prefill;
    /** The decode nodes (colocated: the one node); a request goes to the next in turn (round robin). */
    private final List<Node> decodes;
    private int router;
    private final boolean colocated;
    private final Options o;
    private final Instant[] now;
    private final Simulation.Progress progress;
    private final IntConsumer reboot;
    private final Counts counts = new Counts();

    private final Deque<Seq> waiting = new ArrayDeque<>();

    /** A request that came in, with its decode node. */
    private Seq arrive(Request r) {
        Seq s = new Seq(r, o);
        s.decode = decodes.get(router++ % decodes.size());
        return s;
    }
    /** On the prefill (or colocated) node: prompts being computed, then (disaggregated) waiting for the decode node. */
    private final List<Seq> prefilling = new ArrayList<>();
    private final List<Seq> awaitingDecode = new ArrayList<>();
    private final List<Seq> transferring = new ArrayList<>();
    /** Under the pull transport, how many steps after the hand-over the receiver starts reading the pages. */
    static final int PULL_LAG = 2;
    private final List<Seq> decoding = new ArrayList<>();
    /** Preempted on a decode node: waiting there to recompute (first come, first served; a preempted one first). */
    private final Deque<Seq> decodeWaiting = new ArrayDeque<>();
    private int total;
    private long admissions;
    /** Prompt tokens computed in the current step. */
    private int tokens;

    /** What a run counted. */
    static final class Counts {
        int rejected;
        int rejectedButServed;
        int aborted;
        int delivered;
        long steps;
        long mixedSteps;
        long preemptions;
        int maxBatch;
        int maxInFlight;
        int done;
    }

    /** A request in flight. */
    private static final class Seq {
        final Request r;
        final int length;
        /** Positions its prefill computes (fewer than its prompt when the prefill is cut short). */
        final int target;
        boolean admitted;
        int computed;
        int generated;
        int[] context;
        boolean rejectedServed;
        /** Where it decodes: the colocated node, or the decode node the router gave it. */
        Node decode;
        int[] senderPages;
        int senderShared;
        long sent;
        int transferred;
        boolean freedEarly;
        /** Under the pull transport, the step from which the receiver reads the handed-over pages. */
        long readAt;
        /** When it was admitted, in order: the last admitted is preempted first. */
        long admittedAt;
        /** Preempted: re-admitted without a second ADMIT, it recomputes its KV in a new table. */
        boolean preempted;

        Seq(Request r, Options o) {
            this.r = r;
            this.length = r.prompt().length;
            this.target = Simulation.prefilled(r, o);
        }
    }

    Batched(Node prefill, List<Node> decodes, Options o, Instant[] now, Simulation.Progress progress,
            IntConsumer reboot) {
        this.prefill = prefill;
        this.decodes = List.copyOf(decodes);
        this.colocated = decodes.size() == 1 && prefill == decodes.get(0);
        this.o = o;
        this.now = now;
        this.progress = progress;
        this.reboot = reboot;
    }

    Counts run(List<Request> requests, List<Instant> arrivals) {
        total = requests.size();
        int next = 0;
        int reboots = 0;
        while (counts.done < total) {
            // a reboot comes after the arrivals before it are served: the engines drain, then restart
            boolean drain = o.rebootEvery() > 0 && next > 0 && next < total && next % o.rebootEvery() == 0
                    && next / o.rebootEvery() > reboots;
            if (drain && idle()) {
                reboots++;
                reboot.accept(reboots);
                drain = false;
            }
            while (!drain && next < total && !arrivals.get(next).isAfter(now[0])) {
                waiting.add(arrive(requests.get(next)));
                next++;
                drain = o.rebootEvery() > 0 && next % o.rebootEvery() == 0 && next < total;
            }
            if (idle()) {
                if (next < total && arrivals.get(next).isAfter(now[0])) {
                    now[0] = arrivals.get(next);  // nothing to do until the next request arrives
                }
                continue;
            }
            step();
        }
        return counts;
    }

    private boolean idle() {
        return waiting.isEmpty() && prefilling.isEmpty() && awaitingDecode.isEmpty() && transferring.isEmpty()
                && decoding.isEmpty() && decodeWaiting.isEmpty();
    }

    /** Requests holding the prefill (or colocated) node's pages; a rejected one waiting for the decode node holds none. */
    private int onPrefill() {
        int waitingForDecode = 0;
        for (Seq s : awaitingDecode) {
            waitingForDecode += s.rejectedServed ? 0 : 1;
        }
        return prefilling.size() + waitingForDecode + transferring.size() + (colocated ? decoding.size() : 0);
    }

    /** One scheduler step on every node. */
    private void step() {
        counts.steps++;
        tokens = 0;
        int inFlight = prefilling.size() + awaitingDecode.size() + transferring.size() + decoding.size();
        int before = counts.done;
        int budget = TOKEN_BUDGET;
        int ran = 0;
        boolean prompts = false;
        // running first: decodes (colocated, they share the budget with the prompts)
        int decodes = 0;
        for (Seq s : new ArrayList<>(decoding)) {
            if (colocated && budget == 0) {
                break;
            }
            if (!decoding.contains(s)) {
                continue;  // preempted by an earlier one this step
            }
            decodeToken(s);
            decodes++;
            if (colocated) {
                budget--;
            }
        }
        ran += decodes;
        // then the prompts being computed, a chunk each
        for (Seq s : new ArrayList<>(prefilling)) {
            if (budget == 0) {
                break;
            }
            if (!prefilling.contains(s)) {
                continue;
            }
            budget -= chunk(s, budget);
            prompts = true;
            ran++;
        }
        // then waiting requests, first come first served, while the budget and the running limit allow
        while (budget > 0 && onPrefill() < MAX_RUNNING && !waiting.isEmpty()) {
            Seq s = waiting.peek();
            int started = start(s);
            if (started < 0) {
                break;  // no room yet: it waits at the head of the queue
            }
            waiting.poll();
            if (started > 0 && prefilling.contains(s)) {
                budget -= chunk(s, budget);
                prompts = true;
                ran++;
            }
        }
        if (!colocated) {
            for (Seq s : new ArrayList<>(awaitingDecode)) {
                preallocate(s);
            }
            for (Seq s : new ArrayList<>(transferring)) {
                transferChunk(s);
                ran++;
            }
            for (Seq s : new ArrayList<>(decodeWaiting)) {
                if (!resumeOnDecode(s)) {
                    break;
                }
                ran++;
            }
        }
        if (prompts && decodes > 0) {
            counts.mixedSteps++;
        }
        now[0] = now[0].plusNanos((STEP_MICROS + TOKEN_MICROS * (tokens + decodes)) * 1_000);
        counts.maxBatch = Math.max(counts.maxBatch, ran);
        counts.maxInFlight = Math.max(counts.maxInFlight, inFlight);
        if (ran == 0 && counts.done == before && inFlight == prefilling.size() + awaitingDecode.size()
                + transferring.size() + decoding.size()) {
            unblock();
        }
        if (progress != null && counts.done != before) {
            progress.update(counts.done, total);
        }
    }

    /**
     * Admits the request at the head of the queue: 1 when it started (or ended: rejected, aborted), 0 when it started
     * without a prompt to compute here, -1 when it waits for pages.
     */
    private int start(Seq s) {
        Request r = s.r;
        if (!s.admitted) {
            s.admitted = true;
            if (!prefill.admit(r, s.length)) {
                rejected(s);
                return 0;
            }
        }
        if (neverFits(prefill, s.length)) {
            // more than the whole pool: it can never run
            prefill.finish(r, "ABORT", 503, 0, false);
            end(s, Outcome.ABORTED);
            return 0;
        }
        // a preempted request (colocated) comes back for its prompt and the tokens it had generated, in a new table
        int tokens = s.length + s.generated;
        if (!prefill.fits(tokens) && onPrefill() > 0) {
            return -1;
        }
        int from = prefill.startPrefill(r, s.length);
        if (from < 0 || s.generated > 0 && !prefill.allocate(r, tokens, "PREFILL", null)) {
            // short although it fit (or nothing else runs to free pages): as one at a time, a 503
            prefill.free(r, "ABORT");
            prefill.finish(r, "ABORT", 503, s.generated, false);
            end(s, Outcome.ABORTED);
            return 0;
        }
        s.computed = from;
        s.admittedAt = admissions++;
        prefilling.add(s);
        if (s.computed >= s.target) {
            prefilled(s);
            return 0;
        }
        return 1;
    }

    /** A rejected request: answered so, or (the 2026 fault) pre-allocated and served by the decode node anyway. */
    private void rejected(Seq s) {
        Request r = s.r;
        if (!colocated && o.faults().contains(Fault.REJECT_WITHOUT_ABORT)
                && !o.fixes().contains(Fix.NO_PREALLOC_FOR_REJECTED)) {
            // The decode node is never told: it pre-allocates for the whole prompt (waiting for room, as for any
            // other), receives the KV of one token, takes the rest as written, and decodes.
            s.rejectedServed = true;
            awaitingDecode.add(s);
            preallocate(s);
            return;
        }
        prefill.finish(r, "ABORT", 400, 0, false);
        end(s, Outcome.REJECTED);
    }

    /**
     * The next chunk of a prompt: at most the chunk size and what is left of the budget, ending on a page boundary
     * unless it is the prompt's last (a page left half written has no fingerprint until the next chunk completes it,
     * and a stale cache entry may hand it over meanwhile). Returns its tokens.
     */
    private int chunk(Seq s, int budget) {
        int n = Math.min(Math.min(Simulation.CHUNK, budget), s.target - s.computed);
        if (s.computed + n < s.target) {
            n -= (s.computed + n) % prefill.pool().pageSize();
        }
        if (n > 0) {
            int[] values = new int[n];
            System.arraycopy(s.r.prompt(), s.computed, values, 0, n);
            prefill.write(s.r, s.computed, values, n, "COMPUTE");
            s.computed += n;
            tokens += n;
        }
        if (s.computed >= s.target) {
            prefilled(s);
        }
        return Math.max(n, 0);
    }

    /** The prompt is computed (or as much of it as the prefill will compute): decode, or send it to the decode node. */
    private void prefilled(Seq s) {
        prefilling.remove(s);
        if (colocated) {
            startDecode(s);
        } else {
            awaitingDecode.add(s);
            preallocate(s);
        }
    }

    /** Pre-allocates the request's table on the decode node and starts its transfer; waits while it is full. */
    private void preallocate(Seq s) {
        Request r = s.r;
        Node decode = s.decode;
        if (!decode.allocate(r, s.length, "PREALLOC", s.length)) {
            if (neverFits(decode, s.length) || !busy(decode)) {
                awaitingDecode.remove(s);
                abortBeforeDecode(s);
            }
            return;
        }
        awaitingDecode.remove(s);
        if (s.rejectedServed) {
            decode.write(r, 0, r.prompt(), 1, "TRANSFER");
            decode.xferCommit(r, s.length, 1, null);
            if (decode.has(Fix.COVERAGE_CHECK)) {
                decode.finish(r, "ABORT", 500, 0, false);
                decode.free(r, "ABORT");
                end(s, Outcome.ABORTED);
                return;
            }
            startDecode(s);
            return;
        }
        // the transfer engine reads the prefill's pages chunk by chunk, and checksums what it meant to send
        s.senderPages = prefill.pagesOf(r);
        s.senderShared = prefill.sharedOf(r);
        s.sent = prefill.checksum(s.senderPages, s.target);
        s.freedEarly = o.faults().contains(Fault.FREE_DURING_TRANSFER) && !o.fixes().contains(Fix.DEFERRED_FREE)
                && r.id() % 10 == 7;
        if (o.transport() == Simulation.Transport.PULL) {
            for (int from = 0; from < s.target; from += Simulation.CHUNK) {
                decode.handOver(r, from, Math.min(Simulation.CHUNK, s.target - from), prefill, s.senderPages,
                        s.senderShared);
            }
            s.readAt = counts.steps + PULL_LAG;
        }
        transferring.add(s);
    }

    /** Whether a table of {@code tokens} positions needs more pages than the node's whole pool. */
    private static boolean neverFits(Node node, int tokens) {
        int ps = node.pool().pageSize();
        return (tokens + ps - 1) / ps > node.pool().pages();
    }

    /** Whether requests decode or are being transferred on the node: it will free pages. */
    private boolean busy(Node decode) {
        for (Seq s : decoding) {
            if (s.decode == decode) {
                return true;
            }
        }
        for (Seq s : transferring) {
            if (s.decode == decode) {
                return true;
            }
        }
        return false;
    }

    /** One chunk of a transfer in flight; the last one commits it and starts the decode. */
    private void transferChunk(Seq s) {
        Request r = s.r;
        Node decode = s.decode;
        int n = Math.min(Simulation.CHUNK, s.target - s.transferred);
        boolean pull = o.transport() == Simulation.Transport.PULL;
        if (pull && counts.steps < s.readAt) {
            return;  // handed over, not read yet
        }
        if (pull) {
            decode.copy(r, s.transferred, n, prefill, s.senderPages, s.senderShared);
        } else {
            decode.receive(r, s.transferred, n, prefill, s.senderPages, s.senderShared);
        }
        if (s.freedEarly && s.transferred == 0) {
            prefill.free(r, "FINISH");  // the fault: its pages go to the next prompts while the rest is in flight
        }
        s.transferred += n;
        if (s.transferred < s.target) {
            return;
        }
        transferring.remove(s);
        if (pull) {
            decode.pullDone(r, prefill);
        }
        decode.xferCommit(r, s.length, s.target, s.sent == decode.checksum(decode.pagesOf(r), s.target));
        if (!s.freedEarly) {
            prefill.free(r, "FINISH");
        }
        if (s.target < s.length && decode.has(Fix.COVERAGE_CHECK)) {
            decode.finish(r, "ABORT", 500, 0, false);
            decode.free(r, "ABORT");
            end(s, Outcome.ABORTED);
            return;
        }
        startDecode(s);
    }

    /** Decoding starts: the request attends its context. */
    private void startDecode(Seq s) {
        Node decode = s.decode;
        if (s.preempted && s.generated > 0) {
            // the tokens it had generated, computed again after its prompt
            int[] again = new int[s.generated];
            for (int k = 0; k < s.generated; k++) {
                again[k] = s.context[k % s.length];
            }
            decode.write(s.r, s.length, again, s.generated, "COMPUTE");
        }
        if (!decode.attach(s.r, s.length + s.generated)) {
            decode.finish(s.r, "ABORT", 500, 0, false);
            decode.free(s.r, "ABORT");
            end(s, Outcome.ABORTED);
            return;
        }
        // the toy model: its k-th generated token repeats the k-th token it attends
        s.context = decode.echo(s.r, s.length);
        decoding.add(s);
    }

    /** One decoding step of a request: its token, the table grown a page when it fills one. */
    private void decodeToken(Seq s) {
        Request r = s.r;
        Node decode = s.decode;
        int position = s.length + s.generated;
        boolean grows = position % decode.pool().pageSize() == 0;
        while (grows && !decode.allocate(r, position + 1, "DECODE", null)) {
            Seq victim = colocated ? victim(s) : decodeVictim(s);
            if (victim == null) {
                finishDecoding(s, "LENGTH");
                return;
            }
            preempt(victim);
        }
        decode.decodeWrite(r, position, s.context[s.generated % s.length]);
        s.generated++;
        if (grows && !decode.attach(r, position + 1)) {
            decoding.remove(s);
            decode.finish(r, "ABORT", 500, 0, false);
            decode.free(r, "ABORT");
            end(s, Outcome.ABORTED);
            return;
        }
        if (s.generated == r.maxOutput()) {
            finishDecoding(s, "STOP");
        }
    }

    /** The running request admitted last, other than {@code s}: what a pool running short preempts first. */
    private Seq victim(Seq s) {
        Seq last = null;
        for (List<Seq> running : List.of(decoding, prefilling)) {
            for (Seq v : running) {
                if (v != s && (last == null || v.admittedAt > last.admittedAt)) {
                    last = v;
                }
            }
        }
        return last;
    }

    /** On a decode node: the request that started decoding there last, other than {@code s}. */
    private Seq decodeVictim(Seq s) {
        for (int i = decoding.size() - 1; i >= 0; i--) {
            Seq v = decoding.get(i);
            if (v != s && v.decode == s.decode) {
                return v;
            }
        }
        return null;
    }

    /**
     * Preempts a running request: its pages freed, to recompute when re-admitted: at the head of the queue
     * (colocated), or of its decode node's, which recomputes it itself (vLLM's recompute on a decode node).
     */
    private void preempt(Seq v) {
        v.decode.preempt(v.r);
        decoding.remove(v);
        prefilling.remove(v);
        v.preempted = true;
        v.computed = 0;
        if (colocated) {
            waiting.addFirst(v);
        } else {
            decodeWaiting.addFirst(v);
        }
        counts.preemptions++;
    }

    /**
     * A request preempted on a decode node, re-admitted there: a new table, its whole prompt and the tokens it had
     * generated computed again by the decode node, then it decodes on. False while there is no room.
     */
    private boolean resumeOnDecode(Seq s) {
        Node decode = s.decode;
        Request r = s.r;
        int tokens = s.length + s.generated;
        if (!decode.fits(tokens)) {
            if (busy(decode)) {
                return false;
            }
            decodeWaiting.remove(s);
            decode.finish(r, "ABORT", 503, s.generated, false);
            end(s, Outcome.ABORTED);
            return true;
        }
        decodeWaiting.remove(s);
        int from = decode.startPrefill(r, s.length);
        if (from < 0 || !decode.allocate(r, tokens, "PREFILL", null)) {
            decode.free(r, "ABORT");
            decode.finish(r, "ABORT", 503, s.generated, false);
            end(s, Outcome.ABORTED);
            return true;
        }
        if (s.length > from) {
            decode.write(r, from, Arrays.copyOfRange(r.prompt(), from, s.length), s.length - from, "COMPUTE");
        }
        startDecode(s);
        return true;
    }

    private void finishDecoding(Seq s, String status) {
        Node decode = s.decode;
        decoding.remove(s);
        decode.finish(s.r, status, 200, s.generated, true);
        decode.free(s.r, "FINISH");
        end(s, s.rejectedServed ? Outcome.REJECTED_BUT_SERVED : Outcome.DELIVERED);
    }

    /** Nothing could run this step: the request that blocks the others is aborted, so that the run goes on. */
    private void unblock() {
        Iterator<Seq> waitingFor = awaitingDecode.iterator();
        if (waitingFor.hasNext()) {
            Seq s = waitingFor.next();
            waitingFor.remove();
            abortBeforeDecode(s);
            return;
        }
        Seq s = waiting.poll();
        if (s != null) {
            prefill.free(s.r, "ABORT");
            prefill.finish(s.r, "ABORT", 503, 0, false);
            end(s, Outcome.ABORTED);
        }
    }

    /**
     * The decode node can never take the request: a rejected one is answered as rejected (as one at a time when the
     * pre-allocation fails), another aborted with its prefill's pages freed.
     */
    private void abortBeforeDecode(Seq s) {
        if (s.rejectedServed) {
            prefill.finish(s.r, "ABORT", 400, 0, false);
            end(s, Outcome.REJECTED);
            return;
        }
        prefill.free(s.r, "ABORT");
        prefill.finish(s.r, "ABORT", 503, 0, false);
        end(s, Outcome.ABORTED);
    }

    private enum Outcome { REJECTED, REJECTED_BUT_SERVED, ABORTED, DELIVERED }

    private void end(Seq s, Outcome outcome) {
        switch (outcome) {
            case REJECTED -> counts.rejected++;
            case ABORTED -> counts.aborted++;
            case DELIVERED -> counts.delivered++;
            case REJECTED_BUT_SERVED -> {
                counts.rejectedButServed++;
                counts.delivered++;
            }
        }
        counts.done++;
    }
}
