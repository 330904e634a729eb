package app.vigie.runtime.engine;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;

import app.vigie.runtime.kv.Fingerprints;
import app.vigie.runtime.kv.KvPool;
import app.vigie.runtime.log.AuditLogWriter;
import app.vigie.runtime.log.Emitter;

/**
 * One scheduler and its KV pool: a stream of the audit log. It allocates, writes, reads and frees pages for
 * requests, and tells each step to its {@link AuditLogWriter}. The toy model reads by attending: the response to a
 * request echoes, token by token, the KV it attended, so a stale page shows in the response as the tokens of whoever
 * wrote it last ({@link GroundTruth}).
 */
public final class Node {
    private final String stream;
    private KvPool pool;
    /** Null when emission is off (benchmarks). */
    private final AuditLogWriter log;
    /** Where the log's work runs (see {@link Emitter}): what it reads of the engine is captured before. */
    private final Emitter emitter;
    private final Fingerprints fingerprints;
    private final int contextWindow;
    private final int maxInputTokens;
    private final Set<Fix> fixes;
    private final Map<Integer, Request> requests;
    private final GroundTruth truth;
    private final Supplier<Instant> clock;
    private final Map<Integer, Table> tables = new HashMap<>();
    private final Map<String, Integer> tenantTags = new HashMap<>();
    /** Requests preempted here: the first ALLOC or SHARE of their next table says {@code restart} (spec v1.2). */
    private final Set<Integer> restarting = new HashSet<>();
    private final Cache cacheMode;
    private PrefixCache cache;
    private final boolean staleIndex;
    private final boolean tagging;
    private final Config config;
    /** Whether transfers this node receives are logged as spec v1.1 (the sender's XFER_SEND, {@code sent: true}). */
    private boolean sendRecords;

    /** A request's page table on this node, and the fingerprint chain of its complete pages. */
    private static final class Table {
        int[] pages = new int[8];
        int count;
        /** The first pages, got from the prefix cache (not owned), and their entries. */
        int shared;
        List<PrefixCache.Entry> sharedEntries = List.of();
        final List<Fingerprint> fps = new ArrayList<>();
        /** Decoded tokens written but not yet told: {@code [pendingFrom, pendingFrom + pendingCount)}. */
        int pendingFrom = -1;
        int pendingCount;
        /**
         * A pulled transfer (spec 1.3, amendment 3): each handed-over position's origin at its XFER_SEND, and the
         * sender's window, which notes the requests that write the sent slots until the transfer's end.
         */
        int[] atSend;
        Map<Integer, Set<Integer>> inFlight = Map.of();

        void add(int[] more) {
            if (count + more.length > pages.length) {
                pages = Arrays.copyOf(pages, Math.max(pages.length * 2, count + more.length));
            }
            System.arraycopy(more, 0, pages, count, more.length);
            count += more.length;
        }
    }

    /**
     * The fingerprint of one logical page of a request, filled in by the emitter (which runs the records' tasks in
     * order, so a page's fingerprint is there before the next page's task chains from it).
     */
    private static final class Fingerprint {
        byte[] value;
    }

    /** How a node is set up: its pool, what it advertises, and its boot. */
    public record Config(String stream, String deployment, String boot, int pageSize, int poolPages,
            int contextWindow, int maxInputTokens) {
    }

    /**
     * @param tagging whether pages carry tags (owner, generation, content); off only to measure what they cost
     * @param sink where the audit log goes; null: no log at all (no record built, no fingerprint computed)
     * @param emitter where the log's work runs; shared by the nodes of a deployment writing to the same sink
     * @param truth null: no ground truth kept
     */
    public Node(Config c, Cache cacheMode, Set<Fault> faults, Set<Fix> fixes, byte[] fingerprintKey,
            Map<Integer, Request> requests, GroundTruth truth, Supplier<Instant> clock,
            Consumer<String> sink, Emitter emitter, boolean tagging) {
        this.tagging = tagging;
        this.cacheMode = cacheMode;
        this.staleIndex = faults.contains(Fault.STALE_CACHE_INDEX);
        this.cache = cacheMode == Cache.OFF ? null : new PrefixCache(staleIndex);
        this.config = c;
        this.stream = c.stream();
        this.pool = new KvPool(c.pageSize(), c.poolPages(), tagging);
        this.fixes = Set.copyOf(fixes);
        int capacity = c.pageSize() * c.poolPages();
        int window = c.contextWindow();
        if (!faults.contains(Fault.POOL_SMALLER_THAN_WINDOW)) {
            window = Math.min(window, capacity);
        }
        if (fixes.contains(Fix.STARTUP_WINDOW_CHECK)) {
            window = Math.min(window, capacity);
        }
        this.contextWindow = window;
        this.maxInputTokens = Math.min(c.maxInputTokens(), window);
        this.fingerprints = new Fingerprints(fingerprintKey, c.pageSize());
        this.requests = requests;
        this.truth = truth;
        this.clock = clock;
        this.log = sink == null ? null : new AuditLogWriter(c.stream(), c.deployment(), c.boot(), sink);
        this.emitter = emitter;
        config();
    }

    private void config() {
        if (log != null) {
            Instant ts = clock.get();
            emitter.submit(() -> log.config(ts, config.pageSize(), config.poolPages(), contextWindow,
                    maxInputTokens));
        }
    }

    public String stream() {
        return stream;
    }

    /**
     * The engine restarts: a new boot, a new pool (every slot never written), an empty prefix cache; requests in
     * flight are lost with it. The log starts the new boot with its {@code CONFIG}.
     */
    public void reboot(String boot) {
        tables.clear();
        windows.clear();
        windowsByPage.clear();
        pulled.clear();
        restarting.clear();
        pool = new KvPool(config.pageSize(), config.poolPages(), tagging);
        cache = cacheMode == Cache.OFF ? null : new PrefixCache(staleIndex);
        if (log != null) {
            emitter.submit(() -> log.reboot(boot));
            config();
        }
    }

    public int contextWindow() {
        return contextWindow;
    }

    public int maxInputTokens() {
        return maxInputTokens;
    }

    public KvPool pool() {
        return pool;
    }

    public boolean has(Fix fix) {
        return fixes.contains(fix);
    }

    /** The admission decision for a prompt of {@code input} tokens, told as it is made. */
    public boolean admit(Request r, int input) {
        String reason = input > maxInputTokens ? "input of " + input + " tokens exceeds max_input_tokens "
                + maxInputTokens : null;
        if (log != null) {
            Instant ts = clock.get();
            emitter.submit(() -> log.admit(ts, r.name(), r.tenant(), input, reason == null, reason));
        }
        return reason == null;
    }

    /** Grows the request's table to hold {@code tokens} positions; false (nothing allocated) when the pool is short. */
    public boolean allocate(Request r, int tokens, String purpose, Integer claimed) {
        Table t = tables.computeIfAbsent(r.id(), k -> new Table());
        int needed = (tokens + pool.pageSize() - 1) / pool.pageSize() - t.count;
        if (needed <= 0) {
            return true;
        }
        if (pool.freePages() < needed && cache != null) {
            cache.evict(needed - pool.freePages(), pool);
        }
        int[] pages = pool.allocate(needed, r.id(), tenantTag(r));
        if (pages == null) {
            return false;
        }
        t.add(pages);
        boolean restart = restarting.remove(r.id());
        if (log != null) {
            Instant ts = clock.get();
            emitter.submit(() -> log.alloc(ts, r.name(), r.tenant(), KvPool.runs(pages, 0, pages.length), purpose,
                    claimed, restart));
        }
        return true;
    }

    /**
     * Prefills a prompt of {@code length} tokens of which {@code written} get computed: the full pages the prefix
     * cache has for it are shared ({@code SHARE}, with the fingerprints the request expects), the rest allocated and
     * written. At least the last token is always computed. False when the pool is short.
     */
    public boolean prefill(Request r, int length, int written) {
        int from = startPrefill(r, length);
        if (from < 0) {
            return false;
        }
        if (written > from) {
            write(r, from, Arrays.copyOfRange(r.prompt(), from, written), written - from, "COMPUTE");
        }
        return true;
    }

    /**
     * Whether a table of {@code tokens} positions would fit now: the free pages and those the prefix cache could give
     * back (a scheduler that waits for room asks before it starts a request, as a prefix hit may need fewer).
     */
    public boolean fits(int tokens) {
        int needed = (tokens + pool.pageSize() - 1) / pool.pageSize();
        return needed <= pool.freePages() + (cache == null ? 0 : cache.evictable());
    }

    /**
     * Starts a prefill of {@code length} tokens: the full pages the prefix cache has for the prompt are shared, the
     * rest allocated; nothing is written. Returns the first position left to compute, or -1 when the pool is short.
     */
    public int startPrefill(Request r, int length) {
        int ps = pool.pageSize();
        Table t = tables.computeIfAbsent(r.id(), k -> new Table());
        int hits = 0;
        if (cache != null && t.count == 0) {
            int full = (length - 1) / ps;
            long[] keys = PrefixCache.keys(salt(r), r.prompt(), full, ps);
            List<PrefixCache.Entry> found = new ArrayList<>();
            for (PrefixCache.Entry e; hits < full && (e = cache.get(keys[hits])) != null; hits++) {
                found.add(e);
            }
            if (hits > 0) {
                int[] pages = found.stream().mapToInt(e -> e.page).toArray();
                found.forEach(cache::acquire);
                t.add(pages);
                t.shared = hits;
                t.sharedEntries = found;
                boolean restart = restarting.remove(r.id());
                if (log != null) {
                    // What the request expects: its own tokens' fingerprints.
                    Fingerprint[] own = new Fingerprint[hits];
                    for (int k = 0; k < hits; k++) {
                        own[k] = new Fingerprint();
                        t.fps.add(own[k]);
                    }
                    Instant ts = clock.get();
                    emitter.submit(() -> {
                        List<String> expected = new ArrayList<>(own.length);
                        for (int k = 0; k < own.length; k++) {
                            own[k].value = fingerprints.next(k == 0 ? null : own[k - 1].value, r.prompt(), k * ps,
                                    ps);
                            expected.add(Fingerprints.hex(own[k].value));
                        }
                        log.share(ts, r.name(), r.tenant(), KvPool.runs(pages, 0, pages.length), expected, restart);
                    });
                }
            }
        }
        if (!allocate(r, length, "PREFILL", null)) {
            return -1;
        }
        return hits * ps;
    }

    /** The number this node's page tags give the request's tenant. */
    private int tenantTag(Request r) {
        return tenantTags.computeIfAbsent(r.tenant(), k -> tenantTags.size());
    }

    private long salt(Request r) {
        return cacheMode == Cache.PER_TENANT ? r.tenant().hashCode() * 31L + 17 : 0;
    }

    /** Writes {@code values[0, count)} at positions {@code [from, from + count)} of the request's table. */
    public void write(Request r, int from, int[] values, int count, String source) {
        Table t = tables.get(r.id());
        int ps = pool.pageSize();
        for (int i = 0; i < count; i++) {
            int p = from + i;
            pool.write(t.pages[p / ps], p % ps, values[i], r.id());
            overwritten(t.pages[p / ps], p % ps);
            if (!windowsByPage.isEmpty()) {
                watch(t.pages[p / ps], p % ps, r.id());
            }
        }
        logWrite(r, t, from, count, source);
    }

    /**
     * One decoding step writes its token at {@code position}. The log is told in one {@code WRITE} per run of steps,
     * before anything that reads or frees them ({@code ATTACH}, {@code FINISH}, {@code FREE}).
     */
    public void decodeWrite(Request r, int position, int value) {
        Table t = tables.get(r.id());
        int ps = pool.pageSize();
        pool.write(t.pages[position / ps], position % ps, value, r.id());
        overwritten(t.pages[position / ps], position % ps);
        if (!windowsByPage.isEmpty()) {
            watch(t.pages[position / ps], position % ps, r.id());
        }
        if (t.pendingFrom >= 0 && t.pendingFrom + t.pendingCount != position) {
            flush(r, t);
        }
        if (t.pendingFrom < 0) {
            t.pendingFrom = position;
        }
        t.pendingCount++;
    }

    private void flush(Request r, Table t) {
        if (t != null && t.pendingFrom >= 0) {
            logWrite(r, t, t.pendingFrom, t.pendingCount, "COMPUTE");
            t.pendingFrom = -1;
            t.pendingCount = 0;
        }
    }

    /** How many of the request's first pages here it got from the prefix cache (shared, not owned). */
    public int sharedOf(Request r) {
        Table t = tables.get(r.id());
        return t == null ? 0 : t.shared;
    }

    /** The pages of the request's table here, as a transfer engine holds them. */
    public int[] pagesOf(Request r) {
        Table t = tables.get(r.id());
        return Arrays.copyOf(t.pages, t.count);
    }

    /**
     * Receives positions {@code [from, from + count)} of a transfer: whatever the sender's pages hold now, token and
     * origin, is written as the request's ({@code TRANSFER}).
     */
    public void receive(Request r, int from, int count, Node sender, int[] senderPages) {
        receive(r, from, count, sender, senderPages, 0);
    }

    /**
     * The same, the sender's first {@code senderShared} pages got from its prefix cache: a slot there that still
     * holds the request's own prompt tokens has the request as origin (the spec's origin: rule 2 with a matching
     * fingerprint), whoever computed the cached page.
     */
    public void receive(Request r, int from, int count, Node sender, int[] senderPages, int senderShared) {
        read(r, from, count, sender, senderPages, senderShared, sent(r, from, count, sender), false);
    }

    /** The sender's XFER_SEND of positions {@code [from, from + count)}, when transfers are logged; their transfer. */
    private String sent(Request r, int from, int count, Node sender) {
        String transfer = sendRecords ? transferOf(r) : null;
        if (transfer != null) {
            sender.logSent(r, transfer, from, count);
        }
        return transfer;
    }

    /**
     * Writes positions {@code [from, from + count)} with whatever the sender's pages hold now, token and origin, as the
     * request's ({@code TRANSFER}); {@code pulledRead}: a pulled transfer's read, whose slots keep what the log can
     * tell of them ({@link Pulled}), where any other write forgets it.
     */
    private void read(Request r, int from, int count, Node sender, int[] senderPages, int senderShared,
            String transfer, boolean pulledRead) {
        Table t = tables.get(r.id());
        int ps = pool.pageSize();
        int sps = sender.pool.pageSize();
        for (int p = from; p < from + count; p++) {
            int page = senderPages[p / sps];
            pool.write(t.pages[p / ps], p % ps, sender.pool.token(page, p % sps), r.id(),
                    sender.origin(r, page, p, senderShared));
            if (pulledRead) {
                pulled.put(t.pages[p / ps] * ps + p % ps, new Pulled(t.atSend[p], p, t.inFlight));
            } else {
                overwritten(t.pages[p / ps], p % ps);
            }
        }
        logWrite(r, t, from, count, "TRANSFER", transfer);
    }

    /**
     * A pulled transfer's hand-over (spec 1.3, amendment 3): the sender writes the XFER_SEND of positions {@code [from,
     * from + count)}, whose origins are what its slots hold now, and watches its slots until {@link #pullDone}; the
     * receiver reads them later ({@link #copy}).
     */
    public void handOver(Request r, int from, int count, Node sender, int[] senderPages, int senderShared) {
        sent(r, from, count, sender);
        Table t = tables.get(r.id());
        if (t.atSend == null || t.atSend.length < from + count) {
            t.atSend = t.atSend == null ? new int[from + count] : Arrays.copyOf(t.atSend, from + count);
        }
        int sps = sender.pool.pageSize();
        for (int p = from; p < from + count; p++) {
            t.atSend[p] = sender.origin(r, senderPages[p / sps], p, senderShared);
        }
        t.inFlight = sender.open(r, senderPages, from, count).writers;
    }

    /**
     * What a slot of this (receiving) node holds when a pulled transfer wrote it: the received position's origin at its
     * XFER_SEND and the writers of its sender slot in flight (the window's, complete once the transfer ended). Any
     * later write of the slot forgets it. Kept for the ground truth of whoever reads the slot, the receiver or a later
     * request reading it stale.
     */
    private record Pulled(int atSend, int position, Map<Integer, Set<Integer>> inFlight) {
    }

    private final Map<Integer, Pulled> pulled = new HashMap<>();

    private void overwritten(int page, int slot) {
        if (!pulled.isEmpty()) {
            pulled.remove(page * pool.pageSize() + slot);
        }
    }

    /** A pulled transfer's read of positions {@code [from, from + count)}: whatever the sender's pages hold now. */
    public void copy(Request r, int from, int count, Node sender, int[] senderPages, int senderShared) {
        read(r, from, count, sender, senderPages, senderShared, sendRecords ? transferOf(r) : null, true);
    }

    /**
     * A pulled transfer's end: the sender learns the read finished and writes XFER_DONE; what other requests wrote to
     * its slots meanwhile is kept with the receiver's table (the ground truth's possible origins). Nothing when the
     * sender restarted meanwhile (its window went with its boot).
     */
    public void pullDone(Request r, Node sender) {
        Window w = sender.close(r);
        if (w == null) {
            return;
        }
        if (sendRecords && sender.log != null) {
            Instant ts = sender.clock.get();
            String transfer = transferOf(r);
            sender.emitter.submit(() -> sender.log.xferDone(ts, r.name(), r.tenant(), transfer));
        }
    }

    /**
     * The origin of position {@code p} of the request on this (sender) node, held by {@code page}: the request itself
     * where a page got from the prefix cache still holds its own tokens (rule 2 with a matching fingerprint), else the
     * slot's writer.
     */
    private int origin(Request r, int page, int p, int shared) {
        int ps = pool.pageSize();
        return p / ps < shared && holdsOwnTokens(r, page, p / ps) ? r.id() : pool.writer(page, p % ps);
    }

    /** A pulled transfer's send window on this (sender) node: the slots it watches and who wrote them meanwhile. */
    private static final class Window {
        final int request;
        final int[] pages;
        int from;
        int to;
        /** Sent position -> the other requests that wrote its slot while in flight. */
        final Map<Integer, Set<Integer>> writers = new HashMap<>();

        Window(int request, int[] pages, int from, int to) {
            this.request = request;
            this.pages = pages;
            this.from = from;
            this.to = to;
        }
    }

    private final Map<Integer, Window> windows = new HashMap<>();
    private final Map<Integer, List<Window>> windowsByPage = new HashMap<>();

    private Window open(Request r, int[] pages, int from, int count) {
        Window w = windows.get(r.id());
        if (w != null) {
            w.from = Math.min(w.from, from);
            w.to = Math.max(w.to, from + count);
            return w;
        }
        w = new Window(r.id(), pages, from, from + count);
        windows.put(r.id(), w);
        for (int page : pages) {
            List<Window> list = windowsByPage.computeIfAbsent(page, k -> new ArrayList<>());
            if (!list.contains(w)) {
                list.add(w);
            }
        }
        return w;
    }

    private Window close(Request r) {
        Window w = windows.remove(r.id());
        if (w != null) {
            for (int page : w.pages) {
                List<Window> list = windowsByPage.get(page);
                if (list != null) {
                    list.remove(w);
                    if (list.isEmpty()) {
                        windowsByPage.remove(page);
                    }
                }
            }
        }
        return w;
    }

    /** A write of {@code writer} to slot {@code slot} of {@code page}: the windows watching it note it. */
    private void watch(int page, int slot, int writer) {
        List<Window> list = windowsByPage.get(page);
        if (list == null) {
            return;
        }
        int ps = pool.pageSize();
        for (Window w : list) {
            if (writer == w.request) {
                continue;
            }
            for (int lp = 0; lp < w.pages.length; lp++) {
                int p = lp * ps + slot;
                if (w.pages[lp] == page && p >= w.from && p < w.to) {
                    w.writers.computeIfAbsent(p, k -> new HashSet<>()).add(writer);
                }
            }
        }
    }

    /** A checksum of the tokens at positions {@code [0, tokens)} of the given pages. */
    public long checksum(int[] pages, int tokens) {
        int ps = pool.pageSize();
        long h = 1125899906842597L;
        for (int p = 0; p < tokens; p++) {
            h = 31 * h + pool.token(pages[p / ps], p % ps);
        }
        return h;
    }

    /** Spec v1.1: receive transfers with {@code sent: true}, their senders writing {@code XFER_SEND}. */
    public void sendRecords(boolean on) {
        sendRecords = on;
    }

    /** The sender's side of a transfer chunk: positions [from, from + count) of the request's table were read now. */
    private void logSent(Request r, String transfer, int from, int count) {
        if (log == null) {
            return;
        }
        Instant ts = clock.get();
        emitter.submit(() -> log.xferSend(ts, r.name(), r.tenant(), transfer, from, count));
    }

    /** The id of a request's transfer from its prefill to its decode node: one attempt per request here. */
    public static String transferOf(Request r) {
        return "x-" + r.name();
    }

    private void logWrite(Request r, Table t, int from, int count, String source) {
        logWrite(r, t, from, count, source, null);
    }

    /** @param transfer the transfer of a sent write (spec v1.1, 1.3 amendment 2), or null */
    private void logWrite(Request r, Table t, int from, int count, String source, String transfer) {
        if (log == null) {
            return;
        }
        int ps = pool.pageSize();
        // Fingerprints of the pages this write completes, chained from the first page: the chain stops at a page
        // that is not all the request's own tokens (it then has no fingerprint, nor do the pages after it). Only
        // pages the prefix cache may share get one (full prompt pages, and none without a cache): a fingerprint
        // serves to judge a SHARE, and the spec makes it optional. A prompt page all written by the request holds
        // its prompt's tokens there (the engine writes nothing else at a prompt position), which the emitter hashes:
        // the engine copies nothing.
        int end = Math.min(from + count, cache == null ? 0 : r.prompt().length / ps * ps);
        int first = t.fps.size();
        int last = first;
        // A computed write is the request's own by definition; a transfer carries whoever produced the KV.
        boolean own = "COMPUTE".equals(source);
        while ((last + 1) * ps <= end && ownedThrough(r, t, last, own ? from : 0, own ? end : 0)) {
            assert Arrays.equals(pool.tokens(t.pages[last]), 0, ps, r.prompt(), last * ps, (last + 1) * ps)
                    : "page " + last + " of " + r.name() + " is not its prompt";
            last++;
        }
        Fingerprint previous = first == 0 ? null : t.fps.get(first - 1);
        Fingerprint[] made = new Fingerprint[last - first];
        for (int page = first; page < last; page++) {
            made[page - first] = new Fingerprint();
            t.fps.add(made[page - first]);
        }
        Instant ts = clock.get();
        emitter.submit(() -> {
            List<AuditLogWriter.Fingerprint> fp = new ArrayList<>();
            byte[] before = previous == null ? null : previous.value;
            for (int i = 0; i < made.length; i++) {
                int page = first + i;
                made[i].value = before = fingerprints.next(before, r.prompt(), page * ps, ps);
                if ((page + 1) * ps > from) {
                    fp.add(new AuditLogWriter.Fingerprint(page, Fingerprints.hex(before)));
                }
            }
            log.write(ts, r.name(), r.tenant(), from, count, source, transfer, fp.isEmpty() ? null : fp);
        });
    }

    /** Whether every slot of a logical page was written by the request (its fingerprint is then its own tokens'). */
    private boolean ownedThrough(Request r, Table t, int page) {
        return ownedThrough(r, t, page, 0, 0);
    }

    /** The same, knowing that the request itself just wrote logical positions {@code [knownFrom, knownTo)}. */
    private boolean ownedThrough(Request r, Table t, int page, int knownFrom, int knownTo) {
        int ps = pool.pageSize();
        int base = page * ps;
        int end = base + ps;
        // The known positions on this page: [skipFrom, skipTo), possibly empty.
        int skipFrom = Math.max(base, Math.min(end, knownFrom));
        int skipTo = Math.max(skipFrom, Math.min(end, knownTo));
        for (int p = base; p < end; p++) {
            if (p == skipFrom && skipTo > skipFrom) {
                p = skipTo - 1;
            } else if (pool.writer(t.pages[page], p - base) != r.id()) {
                return false;
            }
        }
        return true;
    }

    /** Receiver side of a transfer: what it now treats as written, and what arrived. */
    public void xferCommit(Request r, int claimed, int covered, Boolean checksumOk) {
        if (log != null) {
            Instant ts = clock.get();
            emitter.submit(() -> log.xferCommit(ts, r.name(), r.tenant(), claimed, covered, checksumOk));
        }
    }

    /**
     * The request attends positions {@code [0, tokens)}: true, and the foreign ones go to the ground truth; or, with
     * the tag check on and a page not the reader's own, false: the read does not happen.
     */
    public boolean attach(Request r, int tokens) {
        Table t = tables.get(r.id());
        flush(r, t);
        int ps = pool.pageSize();
        // A shared page another request owns now (a stale cache entry) may hold tokens it decoded but has not told
        // yet: told first, so that the log says who wrote what the reader reads (many requests decode at once).
        for (int page = 0; page < t.shared && page * ps < tokens; page++) {
            int owner = pool.owner(t.pages[page]);
            if (owner != KvPool.NONE && owner != r.id() && tables.containsKey(owner)) {
                flush(requests.get(owner), tables.get(owner));
            }
        }
        if (fixes.contains(Fix.TAG_CHECK)) {
            int tenant = tenantTag(r);
            for (int page = 0; page * ps < tokens; page++) {
                boolean ok;
                if (page < t.shared) {
                    PrefixCache.Entry e = t.sharedEntries.get(page);
                    // Still the allocation the entry was made from, holding what it held; and, unless the cache is
                    // shared between tenants by configuration, the reader's tenant's.
                    ok = e.held && pool.generation(e.page) == e.generation && pool.contentOf(e.page) == e.origin
                            && (cacheMode == Cache.SHARED || pool.tenant(e.page) == tenant);
                } else {
                    ok = pool.tagAllows(t.pages[page], r.id(), Math.min(ps, tokens - page * ps));
                }
                if (!ok) {
                    return false;
                }
            }
        }
        if (log != null) {
            Instant ts = clock.get();
            emitter.submit(() -> log.attach(ts, r.name(), r.tenant(), tokens));
        }
        for (int page = 0; page * ps < tokens; page++) {
            if (page < t.shared && holdsOwnTokens(r, t.pages[page], page)) {
                continue; // a cached page of the very same tokens: nothing foreign
            }
            for (int p = page * ps; p < Math.min(tokens, (page + 1) * ps); p++) {
                int w = pool.writer(t.pages[page], p % ps);
                if (truth == null) {
                    continue;
                }
                if (w != KvPool.NONE && w != r.id()) {
                    truth.foreign(r, requests.get(w), p);
                }
                // what the log can tell (spec 1.3, amendment 3): the origin at the hand-over, certain; the writers of
                // the sender's slot while the transfer read it, possible (carried or not)
                Pulled got = pulled.isEmpty() ? null : pulled.get(t.pages[page] * ps + p % ps);
                int c = got == null ? w : got.atSend();
                if (c != KvPool.NONE && c != r.id()) {
                    truth.certain(r, requests.get(c), p);
                }
                if (got != null) {
                    for (int x : got.inFlight().getOrDefault(got.position(), Set.of())) {
                        if (x != r.id()) {
                            truth.possible(r, requests.get(x), p);
                        }
                    }
                }
            }
        }
        return true;
    }

    /** Whether a pool page holds exactly the request's own prompt tokens of a logical page. */
    private boolean holdsOwnTokens(Request r, int poolPage, int logicalPage) {
        int ps = pool.pageSize();
        for (int s = 0; s < ps; s++) {
            int p = logicalPage * ps + s;
            if (p >= r.prompt().length || pool.token(poolPage, s) != r.prompt()[p]) {
                return false;
            }
        }
        return true;
    }

    /** The tokens the request attends at {@code [0, tokens)}, as the toy model echoes them. */
    public int[] echo(Request r, int tokens) {
        Table t = tables.get(r.id());
        int ps = pool.pageSize();
        int[] out = new int[tokens];
        for (int p = 0; p < tokens; p++) {
            out[p] = pool.token(t.pages[p / ps], p % ps);
        }
        return out;
    }

    public void finish(Request r, String status, int httpStatus, int outputTokens, boolean delivered) {
        flush(r, tables.get(r.id()));
        if (log != null) {
            Instant ts = clock.get();
            emitter.submit(() -> log.finish(ts, r.name(), r.tenant(), status, httpStatus, outputTokens, delivered));
        }
        if (truth != null) {
            truth.finished(r, delivered);
        }
    }

    /**
     * Preemption (recompute): the request's decoded tokens are told, its pages freed ({@code EVICT}) and its table
     * dropped; re-admitted later, it recomputes its KV in a new table, whose first {@code ALLOC} or {@code SHARE} says
     * {@code restart}.
     */
    public void preempt(Request r) {
        free(r, "EVICT");
        restarting.add(r.id());
    }

    /**
     * Frees the pages the request owns here (not those it shared from the cache). With a prefix cache, its full
     * prompt pages of its own tokens stay in the cache instead of going back to the free list.
     */
    public void free(Request r, String reason) {
        Table t = tables.remove(r.id());
        if (t == null) {
            return;
        }
        flush(r, t);
        if (cache != null) {
            t.sharedEntries.forEach(cache::release);
        }
        if (t.count == t.shared) {
            return;
        }
        int ps = pool.pageSize();
        int full = r.prompt().length / ps;
        long[] keys = cache == null || !"FINISH".equals(reason) ? null
                : PrefixCache.keys(salt(r), r.prompt(), full, ps);
        for (int i = t.shared; i < t.count; i++) {
            int page = t.pages[i];
            if (keys != null && i < full && holdsOwnTokens(r, page, i) && ownedThrough(r, t, i)
                    && cache.get(keys[i]) == null) {
                pool.release(page);
                cache.put(keys[i], page, pool.generation(page), r.id());
            } else {
                pool.free(page);
            }
        }
        if (log != null) {
            // The table left the node: nothing changes its pages any more.
            Instant ts = clock.get();
            int[] pages = t.pages;
            int shared = t.shared;
            int count = t.count;
            emitter.submit(() -> log.free(ts, r.name(), KvPool.runs(pages, shared, count), reason));
        }
    }
}
