package app.vigie.detection.core;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import app.vigie.auditlog.record.AuditRecord;
import app.vigie.auditlog.record.Body;
import app.vigie.auditlog.record.Extension;
import app.vigie.auditlog.record.PageFingerprint;
import app.vigie.auditlog.record.PageRun;
import app.vigie.auditlog.record.RecordType;

/**
 * The detector of one (stream, boot): replays its records in seq order over a model of its KV pool and judges every
 * position of every {@code ATTACH} as the spec says ("Judging a read"). Plain Java, deterministic, not thread-safe
 * (one stream is applied by one thread at a time).
 *
 * <p>State per pool slot is one int, the id of its last writer (0: never written), so a pool costs 4 bytes per slot
 * plus 16 bytes per page (owner, fingerprint, and the summary of its writers that lets whole pages be judged in one
 * step). Every request keeps its page table for the life of the boot (a table
 * never shrinks: {@code FREE} gives up ownership only, and a step in flight may still write and attend after it); a
 * table that owns no page any more is kept compactly, as page runs, and the oldest of those leave memory when they
 * exceed {@link #keptTablesBudget()}: a later record addressing one raises {@link Rule#TABLE_EVICTED}.
 */
public final class StreamDetector {
    static final byte ALLOCATED = 0;
    static final byte SHARED = 1;
    static final byte SHARED_WITH_FP = 2;
    private static final int EVIDENCE_RANGES = 8;
    /** How many of a read's writers its finding names one by one; the others are counted (WriterClauses). */
    static final int EVIDENCE_WRITERS = 8;
    static final int SNAPSHOT_VERSION = 9;
    /** The default memory for freed tables of one detector. */
    public static final long DEFAULT_KEPT_TABLES_BUDGET = 16L << 20;
    /** {@link #pageWriter} of a page whose slots do not all hold one writer (or may not). */
    static final int MIXED = -1;

    /** What a kept table costs beyond its runs, estimated: its objects, its map entry and its id. */
    static final int KEPT_TABLE_OVERHEAD = 176;

    final String stream;
    final String boot;
    String deployment;
    boolean configured;
    /** The extensions this boot's CONFIG declares (spec 1.3, amendment 1), one bit per {@link Extension} ordinal. */
    int declared;
    int pageSize;
    int poolPages;
    int[] slots;
    /**
     * Per pool page, the writer every one of its slots holds, or {@link #MIXED}: a summary of {@link #slots} that lets
     * a read of a page its reader wrote whole, and a write of a whole page, cost one step instead of one per slot. A
     * page may be {@code MIXED} although uniform (a partial write that completed it by several records), never the
     * other way round.
     */
    int[] pageWriter;
    int[] owner;
    long[] pageFp;
    BitSet fpKnown;
    Writer[] writers = new Writer[64];
    int[] freeIds = new int[64];
    int freeCount;
    int nextId = 1;
    final Map<String, RequestState> requests = new HashMap<>();
    final Map<String, Integer> tenants = new HashMap<>();
    String[] tenantNames = new String[8];
    long lostFrom = -1;
    long lostTo = -1;
    long lastSeq;
    long judged;
    /** Freed tables, oldest first: an intrusive list through {@link RequestState#older}/{@link RequestState#newer}. */
    RequestState oldestKept;
    RequestState newestKept;
    long keptBytes;
    int keptCount;
    long keptTablesBudget = DEFAULT_KEPT_TABLES_BUDGET;
    /** Hashes of evicted requests, in two generations: the older is forgotten when the newer fills up. */
    LongSet evicted = new LongSet();
    LongSet evictedBefore = new LongSet();
    /** Evicted requests forgotten with an old generation. */
    long forgottenEvictions;
    /** The table the record being applied used, if any. */
    RequestState touched;
    /** What this boot may make the detector hold ({@link DetectorLimits}). */
    DetectorLimits limits = DetectorLimits.DEFAULT;
    /** Spec 1.3, amendment 3: the sends in flight and what other requests wrote to their slots meanwhile. */
    final SendWindows windows = new SendWindows();
    /** Why this boot is not judged ({@link Rule#STREAM_UNSUPPORTED}), or null. */
    String unsupported;
    /** The finding that said so. */
    Finding unsupportedFinding;
    /** The logical pages the expanded tables have room for, together ({@link DetectorLimits#maxTableEntries()}). */
    long tableEntries;
    /**
     * What the received positions of live sent writers take, estimated (36 bytes a received page, 64 + 4 a slot for a
     * page received at two logical pages): charged with the tables to {@link DetectorLimits#maxTableEntries()}.
     */
    long receivedBytes;
    /** Bytes a table entry takes (its page, kind and expected fingerprint). */
    static final int ENTRY_BYTES = 13;
    /** Bytes a received page's entry is charged (the map's capacity is 2 to 4 times its size, 9 bytes a slot). */
    static final int RECEIVED_PAGE_BYTES = 36;

    public StreamDetector(String stream, String boot) {
        this.stream = stream;
        this.boot = boot;
    }

    /**
     * The last writer of some slots: a request of a tenant, kept while a slot or the request's table refers to it. A
     * {@link #sent} writer stands for what the request received by a transfer written with {@code sent: true} (spec
     * v1.1): its slots hold content whose origin the sender's {@code XFER_SEND} tells, so a read of them is reported
     * as a {@link TransferRead}, not judged here.
     */
    static final class Writer {
        final String request;
        final String tenant;
        final int tenantId;
        final boolean sent;
        /** Sent writers: the transfer whose received positions it stands for (spec 1.3, amendment 2). */
        final String transfer;
        long refs;
        /** The request's table on this stream; null once evicted (and always for a sent writer). */
        RequestState state;
        /** Sent writers: physical page -> the logical page of the request it was received at. */
        IntIntMap logicalPages;
        /**
         * Sent writers, pages received at two logical pages of the request (it held the page twice in its table): the
         * received position of each slot. Null until a page needs it.
         */
        Map<Integer, int[]> slotPositions;

        /** What the received positions take, estimated (arrays and map entries). */
        long receivedBytes(int pageSize) {
            if (!sent) {
                return 0;
            }
            long bytes = 48 + 9L * logicalPages.keys.length;
            if (slotPositions != null) {
                bytes += slotPositions.size() * (64L + 4L * pageSize);
            }
            return bytes;
        }

        Writer(String request, String tenant, int tenantId) {
            this(request, tenant, tenantId, null);
        }

        /** What {@link StreamDetector#receivedBytes} was charged for this writer. */
        long charged;

        /** @param transfer null for a request's own writes; a sent writer's transfer otherwise */
        Writer(String request, String tenant, int tenantId, String transfer) {
            this.request = request;
            this.tenant = tenant;
            this.tenantId = tenantId;
            this.sent = transfer != null;
            this.transfer = transfer;
            logicalPages = sent ? new IntIntMap() : null;
        }
    }

    /**
     * A request's page table on this stream. Expanded (one entry per logical page: physical page, how it came, the
     * expected fingerprint) while it owns pages; compact (page runs, kinds only when not all allocated, fingerprints
     * only of pages shared with one) once it owns none.
     */
    static final class RequestState {
        final String request;
        final String tenant;
        final int tenantId;
        final int id;
        /**
         * The writers of what this request received by sent transfers, one per transfer (spec 1.3, amendment 2; mostly
         * one); null until the first.
         */
        int[] sentIds;

        /** Whether writer {@code w} is one of {@link #sentIds}. */
        boolean receivedBy(int w) {
            if (sentIds != null) {
                for (int id : sentIds) {
                    if (id == w) {
                        return true;
                    }
                }
            }
            return false;
        }
        int[] table;
        byte[] kind;
        long[] expected;
        int pages;
        int owned;
        /** Freed (a FREE applied) or finished: once it owns no page, its table may be kept compactly. */
        boolean done;
        /** Compact form: runs as (first, count) pairs; kinds per run (null: all allocated); fingerprints in order. */
        int[] runs;
        byte[] runKinds;
        long[] runFps;
        int keptBytes;
        RequestState older;
        RequestState newer;

        RequestState(String request, String tenant, int tenantId, int id) {
            this.request = request;
            this.tenant = tenant;
            this.tenantId = tenantId;
            this.id = id;
            table = new int[8];
            kind = new byte[8];
            expected = new long[8];
        }

        boolean compact() {
            return table == null;
        }

        void append(int page, byte k, long fp) {
            if (pages == table.length) {
                table = Arrays.copyOf(table, pages * 2);
                kind = Arrays.copyOf(kind, pages * 2);
                expected = Arrays.copyOf(expected, pages * 2);
            }
            table[pages] = page;
            kind[pages] = k;
            expected[pages] = fp;
            pages++;
        }

        /** Turns the expanded table into runs; returns the bytes the compact form is estimated to take. */
        int shrink() {
            int[] r = new int[8];
            byte[] rk = new byte[4];
            int n = 0;
            int fps = 0;
            boolean allAllocated = true;
            for (int i = 0; i < pages; i++) {
                if (kind[i] == SHARED_WITH_FP) {
                    fps++;
                }
                allAllocated &= kind[i] == ALLOCATED;
                if (n > 0 && kind[i] == rk[n - 1] && table[i] == r[2 * n - 2] + r[2 * n - 1]) {
                    r[2 * n - 1]++;
                    continue;
                }
                if (2 * n + 2 > r.length) {
                    r = Arrays.copyOf(r, r.length * 2);
                    rk = Arrays.copyOf(rk, rk.length * 2);
                }
                r[2 * n] = table[i];
                r[2 * n + 1] = 1;
                rk[n] = kind[i];
                n++;
            }
            runs = Arrays.copyOf(r, 2 * n);
            runKinds = allAllocated ? null : Arrays.copyOf(rk, n);
            if (fps > 0) {
                runFps = new long[fps];
                for (int i = 0, k = 0; i < pages; i++) {
                    if (kind[i] == SHARED_WITH_FP) {
                        runFps[k++] = expected[i];
                    }
                }
            }
            table = null;
            kind = null;
            expected = null;
            return KEPT_TABLE_OVERHEAD + 2 * request.length() + 16 + 8 * n + (runKinds == null ? 0 : 16 + n)
                    + (runFps == null ? 0 : 16 + 8 * runFps.length);
        }

        /** Back to one entry per logical page. */
        void expand() {
            int capacity = Math.max(8, Integer.highestOneBit(Math.max(1, pages)) * 2);
            table = new int[capacity];
            kind = new byte[capacity];
            expected = new long[capacity];
            int i = 0;
            int f = 0;
            for (int r = 0; r < runs.length / 2; r++) {
                byte k = runKinds == null ? ALLOCATED : runKinds[r];
                for (int p = runs[2 * r]; p < runs[2 * r] + runs[2 * r + 1]; p++) {
                    table[i] = p;
                    kind[i] = k;
                    expected[i] = k == SHARED_WITH_FP ? runFps[f++] : 0;
                    i++;
                }
            }
            runs = null;
            runKinds = null;
            runFps = null;
        }
    }

    public String stream() {
        return stream;
    }

    public String boot() {
        return boot;
    }

    /** The next seq this detector expects (the one after the last applied or lost). */
    public long nextSeq() {
        return lastSeq + 1;
    }

    /** The memory freed tables may take before the oldest are evicted, estimated. */
    public long keptTablesBudget() {
        return keptTablesBudget;
    }

    /** Sets {@link #keptTablesBudget()}; evicts what is over it now. */
    public void keptTablesBudget(long bytes) {
        keptTablesBudget = bytes;
        evictKept(newestKept);
    }

    /** The limits this detector keeps to; {@link DetectorLimits#DEFAULT} until set. */
    public DetectorLimits limits() {
        return limits;
    }

    /** Sets {@link #limits()}; they hold from the next record on. */
    public void limits(DetectorLimits l) {
        limits = Objects.requireNonNull(l);
    }

    /** Why this boot is not judged (a limit it went over), or null when it is. */
    public String unsupported() {
        return unsupported;
    }

    /**
     * The {@link Rule#STREAM_UNSUPPORTED} finding of this boot, or null: a detector rebuilt from stored records without
     * a sink (a restart, an eviction) tells it again, since a budget may refuse at rebuild what it took before.
     */
    public Finding unsupportedFinding() {
        return unsupportedFinding;
    }

    /** Applies one record, in seq order. */
    public void apply(AuditRecord r, DetectionSink sink) {
        lastSeq = r.seq();
        deployment = r.deployment();
        if (lostFrom > 0) {
            raiseGap(sink, r);
        }
        Body body = r.body();
        if (body instanceof Body.Config c) {
            config(r, c, sink);
            return;
        }
        if (!configured) {
            if (unsupported == null) {
                sink.invalid(r, r.type() + ": no CONFIG before it in boot '" + boot + "' (seq 1 was lost); no effect");
            }
            return;  // a boot not judged: its records are kept, nothing of them is modelled
        }
        Extension needed = extensionOf(body);
        if (needed != null && (declared & 1 << needed.ordinal()) == 0) {
            sink.invalid(r, r.type() + ": extension not declared: '" + needed.wire() + "' (the CONFIG of boot '" + boot
                    + "' declares " + declaredNames() + "); no effect");
            return;
        }
        if (body instanceof Body.XferSend x && x.transfer() == null
                || body instanceof Body.XferDone d && d.transfer() == null
                || body instanceof Body.Write w && w.sent() && w.transfer() == null) {
            sink.invalid(r, r.type() + ": field 'transfer' is required under extension 'xfer-send' (the transfer's id,"
                    + " one per attempt); no effect");
            return;
        }
        if (body instanceof Body.Admit a) {
            if (a.verdict() == Body.Verdict.REJECT) {
                sink.requestFact(fact(RequestFact.Kind.ADMIT_REJECTED, r, a.request(), a.tenant(), false, 0));
            }
        } else if (body instanceof Body.Alloc a) {
            alloc(r, a, sink);
        } else if (body instanceof Body.Share s) {
            share(r, s, sink);
        } else if (body instanceof Body.Write w) {
            write(r, w, sink);
        } else if (body instanceof Body.Attach a) {
            attach(r, a, sink);
        } else if (body instanceof Body.Free f) {
            free(r, f, sink);
        } else if (body instanceof Body.XferCommit x) {
            xferCommit(r, x, sink);
        } else if (body instanceof Body.XferSend x) {
            xferSend(r, x, sink);
        } else if (body instanceof Body.XferDone x) {
            xferDone(r, x, sink);
        } else if (body instanceof Body.Finish f) {
            finish(r, f, sink);
        }
        if (touched != null) {
            // a freed table that a record of a step in flight used goes back to its compact form
            keepIfFreed(touched);
            touched = null;
        }
    }

    /** The extension a record uses (spec 1.3, amendment 1), or null: one at most per record. */
    private static Extension extensionOf(Body body) {
        if (body instanceof Body.XferSend || body instanceof Body.XferDone || body instanceof Body.Write w && w.sent()) {
            return Extension.XFER_SEND;
        }
        if (body instanceof Body.Alloc a && a.restart() || body instanceof Body.Share s && s.restart()) {
            return Extension.RESTART;
        }
        return null;
    }

    /** The extensions this boot declares, for messages: "'restart'", "none". */
    private String declaredNames() {
        List<String> names = new ArrayList<>();
        for (Extension e : Extension.values()) {
            if ((declared & 1 << e.ordinal()) != 0) {
                names.add("'" + e.wire() + "'");
            }
        }
        return names.isEmpty() ? "none" : String.join(", ", names);
    }

    /**
     * Seqs {@code [from, to]} were declared lost. {@code STREAM_GAP} is raised with the record that resumes
     * application after them (its ts and deployment), so that the finding is the same whenever the loss was declared.
     */
    public void gapLost(long from, long to, Instant at, DetectionSink sink) {
        lastSeq = Math.max(lastSeq, to);
        lostFrom = lostFrom > 0 ? Math.min(lostFrom, from) : from;
        lostTo = Math.max(lostTo, to);
    }

    private void raiseGap(DetectionSink sink, AuditRecord resumed) {
        sink.finding(new Finding(Rule.STREAM_GAP, resumed.deployment(), stream + "@" + boot, resumed.ts(),
                new Finding.Evidence(stream, boot, lostFrom, lostTo, "seq " + lostFrom
                        + (lostTo > lostFrom ? "-" + lostTo : "") + " declared lost; application resumed after it")));
        lostFrom = -1;
        lostTo = -1;
    }

    private void config(AuditRecord r, Body.Config c, DetectionSink sink) {
        long capacity = (long) c.pageSize() * c.poolPages();
        dropModel();
        unsupported = null;
        unsupportedFinding = null;
        declared = 0;
        List<String> unknown = new ArrayList<>();
        for (String name : c.extensions()) {
            Extension e = Extension.of(name);
            if (e == null) {
                unknown.add("'" + name + "'");
            } else {
                declared |= 1 << e.ordinal();
            }
        }
        if (!unknown.isEmpty()) {
            unsupported(r, "its CONFIG declares extension" + (unknown.size() > 1 ? "s " : " ")
                    + String.join(", ", unknown) + " that this Vigie does not know (it knows " + Extension.known()
                    + ")", sink);
            return;
        }
        if (capacity > limits.maxPoolSlots()) {
            unsupported(r, "its CONFIG declares a pool of " + capacity + " slots (" + c.poolPages() + " pages of "
                    + c.pageSize() + "), above the limit of " + limits.maxPoolSlots()
                    + " slots (vigie.detection.max-pool-slots)", sink);
            return;
        }
        int pages = c.poolPages();
        String refused = limits.budget().allocate(DetectorLimits.poolBytes(capacity, pages), () -> {
            slots = new int[(int) capacity];
            pageWriter = new int[pages];
            owner = new int[pages];
            pageFp = new long[pages];
            fpKnown = new BitSet(pages);
        });
        if (refused != null) {
            unsupported(r, "its pool of " + capacity + " slots does not fit in the detectors' memory budget: "
                    + refused + " (vigie.detection.memory-budget)", sink);
            return;
        }
        configured = true;  // every table and writer was dropped above (dropModel)
        pageSize = c.pageSize();
        poolPages = pages;
        if (c.contextWindow() > capacity) {
            sink.finding(new Finding(Rule.CONTEXT_EXCEEDS_POOL, r.deployment(), stream + "@" + boot, r.ts(),
                    evidence(r, "context window of " + c.contextWindow() + " tokens over a pool of " + capacity
                            + " tokens (" + c.poolPages() + " pages of " + c.pageSize() + ")")));
        }
    }

    /** Gives up the pool model and every table (a new CONFIG, or a boot no longer judged). */
    private void dropModel() {
        configured = false;
        slots = null;
        pageWriter = null;
        owner = null;
        pageFp = null;
        fpKnown = null;
        requests.clear();
        tenants.clear();
        tenantNames = new String[8];
        writers = new Writer[64];
        freeIds = new int[64];
        nextId = 1;
        freeCount = 0;
        oldestKept = null;
        newestKept = null;
        keptBytes = 0;
        keptCount = 0;
        evicted = new LongSet();
        evictedBefore = new LongSet();
        forgottenEvictions = 0;
        tableEntries = 0;
        receivedBytes = 0;
        touched = null;
        windows.clear();
    }

    /**
     * This boot is not judged from {@code r} on: it went over a limit ({@link DetectorLimits}). Its memory is given
     * back; its later records are kept and not modelled (a boot has one {@code CONFIG}, its seq 1).
     */
    private void unsupported(AuditRecord r, String why, DetectionSink sink) {
        dropModel();
        unsupported = why;
        unsupportedFinding = new Finding(Rule.STREAM_UNSUPPORTED, r.deployment(), stream + "@" + boot, r.ts(),
                evidence(r, "boot " + boot + " of stream " + stream + " is not judged from seq " + r.seq() + " ("
                        + r.type() + ") on: " + why + "; its records are kept"));
        sink.finding(unsupportedFinding);
    }

    /**
     * Whether the table of {@code request} may grow by {@code added} logical pages (a new table counts as a live
     * request) within the limits; when not, the boot is not judged any more and the finding says why.
     */
    private boolean room(AuditRecord r, String request, String tenant, long added, boolean restart,
            DetectionSink sink) {
        RequestState q = requests.get(request);
        if (q == null && tenants.size() >= DetectorLimits.MAX_TENANTS && !tenants.containsKey(tenant)) {
            unsupported(r, "more than " + DetectorLimits.MAX_TENANTS + " tenants in one boot", sink);
            return false;
        }
        if (q == null && liveRequests() >= limits.maxLiveRequests()) {
            unsupported(r, "more than " + limits.maxLiveRequests() + " requests would hold a page table at once"
                    + " (vigie.detection.max-live-requests)", sink);
            return false;
        }
        long before = q == null || q.compact() ? 0 : q.table.length;
        long pagesAfter = (q == null || restart ? 0 : q.pages) + added;
        long capacity = q == null ? 8 : q.compact() ? expandedCapacity(q.pages) : q.table.length;
        while (capacity < pagesAfter) {
            capacity *= 2;
        }
        if (pagesAfter > Integer.MAX_VALUE / 2 || tableEntries - before + capacity
                + (receivedBytes + ENTRY_BYTES - 1) / ENTRY_BYTES > limits.maxTableEntries()) {
            unsupported(r, "the page tables of its live requests would hold more than " + limits.maxTableEntries()
                    + " pages (" + r.type() + " of " + added + " pages for " + request + ", whose table would have "
                    + pagesAfter + "; vigie.detection.max-table-entries)", sink);
            return false;
        }
        return true;
    }

    static int expandedCapacity(int pages) {
        return Math.max(8, Integer.highestOneBit(Math.max(1, pages)) * 2);
    }

    private static long pagesOf(List<PageRun> runs) {
        long n = 0;
        for (PageRun run : runs) {
            n += run.count();
        }
        return n;
    }

    private void alloc(AuditRecord r, Body.Alloc a, DetectionSink sink) {
        String outside = outsidePool(a.pages());
        if (outside != null) {
            sink.invalid(r, "ALLOC: " + outside + "; no effect");
            return;
        }
        if (!room(r, a.request(), a.tenant(), pagesOf(a.pages()), a.restart(), sink)) {
            return;
        }
        // an ALLOC on any stream serves the request (REJECTED_REQUEST_SERVED), even one whose table left memory
        sink.requestFact(fact(RequestFact.Kind.SERVED, r, a.request(), a.tenant(), false, 0));
        RequestState q = table(r, a.request(), a.tenant(), true, sink);
        if (q == null || q == NO_TABLE) {
            return;
        }
        if (a.restart()) {
            giveUpBeforeRestart(r, q, "ALLOC", sink);
            restart(q);
        }
        int capacity = q.table.length;
        Positions taken = new Positions();
        for (PageRun run : a.pages()) {
            for (int page = run.first(); page < run.end(); page++) {
                int previous = owner[page];
                if (previous != 0 && previous != q.id) {
                    taken.add(page);
                    RequestState other = writers[previous].state;
                    if (other != null && --other.owned == 0) {
                        keepIfFreed(other);
                    }
                }
                if (previous != q.id) {
                    owner[page] = q.id;
                    q.owned++;
                }
                q.append(page, ALLOCATED, 0);
            }
        }
        tableEntries += q.table.length - capacity;
        if (taken.size() > 0) {
            sink.finding(new Finding(Rule.DOUBLE_ALLOC, r.deployment(), a.request(), r.ts(),
                    evidence(r, "pages " + taken.ranges(EVIDENCE_RANGES) + " allocated to " + a.request()
                            + " while still owned by another request")));
        }
    }

    private void share(AuditRecord r, Body.Share s, DetectionSink sink) {
        String outside = outsidePool(s.pages());
        if (outside != null) {
            sink.invalid(r, "SHARE: " + outside + "; no effect");
            return;
        }
        if (!room(r, s.request(), s.tenant(), pagesOf(s.pages()), s.restart(), sink)) {
            return;
        }
        RequestState q = table(r, s.request(), s.tenant(), true, sink);
        if (q == null || q == NO_TABLE) {
            return;
        }
        if (s.restart()) {
            giveUpBeforeRestart(r, q, "SHARE", sink);
            restart(q);
        }
        int capacity = q.table.length;
        int i = 0;
        for (PageRun run : s.pages()) {
            for (int page = run.first(); page < run.end(); page++) {
                if (s.fp() == null) {
                    q.append(page, SHARED, 0);
                } else {
                    q.append(page, SHARED_WITH_FP, hash(s.fp().get(i)));
                }
                i++;
            }
        }
        tableEntries += q.table.length - capacity;
    }

    /**
     * Spec v1.2: {@code restart} starts the request's table anew (a preempted request re-admitted to recompute its KV).
     * Spec 1.3, amendment 6: a restart while the request still owns pages here is applied, not refused: those pages
     * are given up first, as by {@code FREE} with reason {@code EVICT}, and the request raises
     * {@link Rule#RESTART_WHILE_OWNING} (a FREE missing from the log). What it wrote stays in the slots, with their
     * last writers; exposures already counted stay.
     */
    private void giveUpBeforeRestart(AuditRecord r, RequestState q, String type, DetectionSink sink) {
        String request = q.request;
        if (q.owned == 0 || q.compact()) {
            return;  // a table owns pages only while expanded
        }
        Positions given = new Positions();
        for (int i = 0; i < q.pages && q.owned > 0; i++) {
            int page = q.table[i];
            if (owner[page] == q.id) {
                owner[page] = 0;
                q.owned--;
                given.add(page);
            }
        }
        sink.finding(new Finding(Rule.RESTART_WHILE_OWNING, r.deployment(), request, r.ts(), evidence(r, type
                + " with restart of " + request + " while it still owned " + given.size() + " page(s) on this stream ("
                + given.ranges(EVIDENCE_RANGES) + "): given up first, as by a FREE with reason EVICT, which the log"
                + " does not have")));
    }

    private static void restart(RequestState q) {
        q.pages = 0;
        q.done = false;
    }

    private void write(AuditRecord r, Body.Write w, DetectionSink sink) {
        RequestState q = table(r, w.request(), w.tenant(), false, sink);
        if (q == NO_TABLE) {
            return;
        }
        long end = (long) w.from() + w.tokens();
        long tableTokens = q == null ? 0 : (long) q.pages * pageSize;
        if (end > tableTokens) {
            sink.invalid(r, "WRITE: positions " + w.from() + "-" + (end - 1) + " go beyond the request's page table of "
                    + tableTokens + " tokens; no effect" + forgotten(q));
            return;
        }
        int firstPage = w.from() / pageSize;
        int lastPage = (int) ((end - 1) / pageSize);
        if (w.sent() && !receivedRoom(r, lastPage - firstPage + 1L, sink)) {
            return;
        }
        int id = w.sent() ? sentWriter(q, w.transfer()) : q.id;
        Writer me = writers[id];
        for (int lp = firstPage; lp <= lastPage; lp++) {
            int page = q.table[lp];
            int base = page * pageSize;
            int from = Math.max(w.from(), lp * pageSize) - lp * pageSize;
            int to = (int) Math.min(end, (long) (lp + 1) * pageSize) - lp * pageSize;
            if (me.sent) {
                received(me, id, page, lp, from, to);
            }
            if (windows.watches(page)) {
                windows.written(page, from, to, me.request, me.tenant);  // a slot a transport is reading (amendment 3)
            }
            int before = pageWriter[page];
            if (before == id) {
                forgetFingerprint(page);
                continue;  // every slot is its own already
            }
            if (from == 0 && to == pageSize && before != MIXED) {
                if (before != 0) {
                    release(before, pageSize);
                }
                Arrays.fill(slots, base, base + pageSize, id);
                me.refs += pageSize;
            } else {
                for (int i = base + from; i < base + to; i++) {
                    int old = slots[i];
                    if (old != id) {
                        if (old != 0) {
                            release(old, 1);
                        }
                        slots[i] = id;
                        me.refs++;
                    }
                }
            }
            pageWriter[page] = from == 0 && to == pageSize ? id
                    : to == pageSize ? uniform(base, id) : MIXED;
            forgetFingerprint(page);
        }
        if (w.fp() != null) {
            for (PageFingerprint fp : w.fp()) {
                if (fp.logicalPage() >= firstPage && fp.logicalPage() <= lastPage) {
                    int page = q.table[fp.logicalPage()];
                    pageFp[page] = hash(fp.hex());
                    fpKnown.set(page);
                }
            }
        }
    }

    private void attach(AuditRecord r, Body.Attach a, DetectionSink sink) {
        RequestState q = table(r, a.request(), a.tenant(), false, sink);
        if (q == NO_TABLE) {
            if (unsupported == null) {
                sink.requestFact(fact(RequestFact.Kind.SERVED, r, a.request(), a.tenant(), false, 0));
            }
            return;
        }
        int n = a.tokens();
        long tableTokens = q == null ? 0 : (long) q.pages * pageSize;
        if (n > tableTokens) {
            sink.invalid(r, "ATTACH: " + n + " positions go beyond the request's page table of " + tableTokens
                    + " tokens; no effect" + forgotten(q));
            return;
        }
        sink.requestFact(fact(RequestFact.Kind.SERVED, r, a.request(), a.tenant(), false, 0));
        judged += n;
        if (n == 0) {
            return;
        }
        Judgement j = new Judgement();
        int rid = q.id;
        int lastPage = (n - 1) / pageSize;
        for (int lp = 0; lp <= lastPage; lp++) {
            int page = q.table[lp];
            if (pageWriter[page] == rid) {
                continue;  // the reader wrote every slot of the page
            }
            int base = page * pageSize;
            int limit = Math.min(pageSize, n - lp * pageSize);
            int pw = pageWriter[page];
            if (q.sentIds != null && pw > 0 && q.kind[lp] == ALLOCATED && q.receivedBy(pw)
                    && (writers[pw].slotPositions == null || !writers[pw].slotPositions.containsKey(page))) {
                // a page of its own that it received whole by a sent transfer: one read of it, in one step
                int received = writers[pw].logicalPages.get(page);
                if (received >= 0) {
                    j.transferred(writers[pw], received * pageSize, lp * pageSize, lp * pageSize + limit, false);
                    continue;
                }
            }
            int i = 0;
            while (i < limit && slots[base + i] == rid) {
                i++;
            }
            if (i == limit) {
                continue;
            }
            byte k = q.kind[lp];
            boolean fpMatch = k == SHARED_WITH_FP && fpKnown.get(page) && pageFp[page] == q.expected[lp];
            // slots [i, e) hold one writer: judged once, added as one run
            while (i < limit) {
                int w = slots[base + i];
                int e = i + 1;
                while (e < limit && slots[base + e] == w) {
                    e++;
                }
                judge(j, q, k, fpMatch, w, page, lp * pageSize + i, lp * pageSize + e);
                i = e;
            }
        }
        report(r, q, j, sink);
    }

    /** Judges the read of positions [from, to) of one physical page, whose slots all hold writer {@code w}. */
    private void judge(Judgement j, RequestState q, byte kind, boolean fpMatch, int w, int page, int from, int to) {
        if (w == q.id) {
            return;
        }
        if (fpMatch) {
            if (w != 0 && writers[w].tenantId != q.tenantId) {
                j.crossShare.add(page);
            }
            return;
        }
        if (kind != ALLOCATED && (w == 0 || !writers[w].request.equals(q.request)
                && !(kind == SHARED && writers[w].tenantId == q.tenantId))) {
            // a page of the prefix cache whose slot another request wrote (by the slot's own writer, before any
            // provenance): the cache did not hand over the prefix it stood for
            j.sharedForeign.addRun(from, to);
            j.sharedForeignPages.add(page);
        }
        if (w != 0 && writers[w].sent) {
            // content received by a sent transfer: judged against its origin once the sender's XFER_SEND is known
            Writer v = writers[w];
            int[] positions = v.slotPositions == null ? null : v.slotPositions.get(page);
            if (positions != null) {
                for (int p = from; p < to; p++) {
                    j.transferred(v, positions[p % pageSize], p, p + 1, kind == SHARED);
                }
                return;
            }
            int lp = v.logicalPages.get(page);
            if (lp >= 0) {
                j.transferred(v, lp * pageSize + from % pageSize, from, to, kind == SHARED);
                return;
            }
        }
        if (kind == SHARED && w != 0 && writers[w].tenantId == q.tenantId) {
            return;
        }
        if (w == 0) {
            j.uninitialized.addRun(from, to);
            return;
        }
        j.hit(w, from, to, page);
    }

    /** The position sent writer {@code v} received at slot {@code slot} of {@code page} (-1: none known). */
    private int receivedAt(Writer v, int page, int slot) {
        int[] positions = v.slotPositions == null ? null : v.slotPositions.get(page);
        if (positions != null) {
            return positions[slot];
        }
        int lp = v.logicalPages.get(page);
        return lp < 0 ? -1 : lp * pageSize + slot;
    }

    /**
     * Records that a sent write puts slots {@code [from, to)} of {@code page} at logical page {@code lp} of its request.
     * A page received at another logical page before, whose slots still hold some of it, keeps per slot where each was
     * received (spec: each slot's last writer is the received position it was written at).
     */
    private void received(Writer me, int id, int page, int lp, int from, int to) {
        int known = me.logicalPages.get(page);
        if (known < 0) {
            charge(me, RECEIVED_PAGE_BYTES);
        }
        int[] positions = me.slotPositions == null ? null : me.slotPositions.get(page);
        if (positions == null && known >= 0 && known != lp) {
            positions = new int[pageSize];
            charge(me, 64 + 4L * pageSize);
            Arrays.fill(positions, -1);
            for (int slot = 0; slot < pageSize; slot++) {
                if (slots[page * pageSize + slot] == id) {
                    positions[slot] = known * pageSize + slot;
                }
            }
            if (me.slotPositions == null) {
                me.slotPositions = new HashMap<>();
            }
            me.slotPositions.put(page, positions);
        }
        if (positions != null) {
            for (int slot = from; slot < to; slot++) {
                positions[slot] = lp * pageSize + slot;
            }
        }
        me.logicalPages.put(page, lp);
    }

    private void charge(Writer w, long bytes) {
        w.charged += bytes;
        receivedBytes += bytes;
    }

    /**
     * Whether a sent write of {@code pages} pages may add its received positions (at worst a map entry and a position
     * per slot for each page) within the limit the tables share; when not, the boot is not judged any more.
     */
    private boolean receivedRoom(AuditRecord r, long pages, DetectionSink sink) {
        long worst = pages * (RECEIVED_PAGE_BYTES + 64 + 4L * pageSize);
        if ((long) ENTRY_BYTES * tableEntries + receivedBytes + worst <= (long) ENTRY_BYTES * limits.maxTableEntries()) {
            return true;
        }
        unsupported(r, "the page tables and received positions of its requests would take more than "
                + DetectorLimits.mib((long) ENTRY_BYTES * limits.maxTableEntries()) + " MiB (a sent WRITE of " + pages
                + " pages; vigie.detection.max-table-entries)", sink);
        return false;
    }

    /** What the tables, received positions and tenants of this boot take, estimated (beyond the pool). */
    public long tableBytes() {
        return (long) ENTRY_BYTES * tableEntries + receivedBytes + 80L * tenants.size() + windows.bytes();
    }

    /** The id of the writer of what {@code q} receives by sent transfer {@code transfer}, made on first use. */
    private int sentWriter(RequestState q, String transfer) {
        if (q.sentIds != null) {
            for (int id : q.sentIds) {
                if (writers[id].transfer.equals(transfer)) {
                    return id;
                }
            }
        }
        int id = newWriter(new Writer(q.request, q.tenant, q.tenantId, transfer));
        q.sentIds = q.sentIds == null ? new int[] {id} : Arrays.copyOf(q.sentIds, q.sentIds.length + 1);
        q.sentIds[q.sentIds.length - 1] = id;
        return id;
    }

    /** What the received positions of {@code q}'s sent writers take, estimated. */
    private long receivedBytes(RequestState q) {
        long bytes = 0;
        if (q.sentIds != null) {
            for (int id : q.sentIds) {
                bytes += writers[id].receivedBytes(pageSize);
            }
        }
        return bytes;
    }

    /** What one ATTACH found. */
    private static final class Judgement {
        final Positions uninitialized = new Positions();
        final Positions crossShare = new Positions();
        final Positions sharedForeign = new Positions();
        final Positions sharedForeignPages = new Positions();
        final Map<Integer, Positions> byWriter = new LinkedHashMap<>();
        final Map<Integer, Positions> pagesByWriter = new HashMap<>();

        /** Reads of slots received by sent transfers: {via writer, via from, reader from, reader to, shared}. */
        final List<Object[]> transferred = new ArrayList<>();

        /** A run of slots received by {@code via}; one that continues the previous run in both tables extends it. */
        void transferred(Writer via, int viaFrom, int from, int to, boolean shared) {
            if (!transferred.isEmpty()) {
                Object[] last = transferred.get(transferred.size() - 1);
                int lastViaFrom = (int) last[1];
                int lastFrom = (int) last[2];
                int lastTo = (int) last[3];
                if (last[0] == via && (boolean) last[4] == shared && lastTo == from
                        && lastViaFrom + (lastTo - lastFrom) == viaFrom) {
                    last[3] = to;
                    return;
                }
            }
            transferred.add(new Object[] {via, viaFrom, from, to, shared});
        }

        /** The writer of the previous hit and its lists: a run of positions mostly has one writer. */
        int lastWriter = -1;
        Positions lastPositions;
        Positions lastPages;

        void hit(int writer, int from, int to, int page) {
            if (writer != lastWriter) {
                lastWriter = writer;
                lastPositions = byWriter.computeIfAbsent(writer, w -> new Positions());
                lastPages = pagesByWriter.computeIfAbsent(writer, w -> new Positions());
            }
            lastPositions.addRun(from, to);
            lastPages.add(page);
        }
    }

    /**
     * The writers of a read, as its finding's evidence words them: the first {@link #EVIDENCE_WRITERS} one by one, in
     * the order the read met them, the others counted (writers and positions, exact), since each has its own exposure
     * of the read. Uncapped, a read of 1,000 victims' content made a finding of 88 KB (issue 45).
     */
    private static final class WriterClauses {
        final List<String> clauses = new ArrayList<>();
        int moreWriters;
        long morePositions;

        void add(Positions ps, Writer v, Positions pages) {
            if (clauses.size() < EVIDENCE_WRITERS) {
                clauses.add(ps.size() + " positions (" + ps.ranges(EVIDENCE_RANGES) + ") last written by " + v.request
                        + " of tenant " + v.tenant + " on pages " + pages.ranges(EVIDENCE_RANGES));
            } else {
                moreWriters++;
                morePositions += ps.size();
            }
        }

        List<String> words() {
            if (moreWriters > 0) {
                clauses.add("and " + morePositions + " positions last written by " + moreWriters + " other requests,"
                        + " each in its own exposure of this read");
            }
            return clauses;
        }
    }

    private void report(AuditRecord r, RequestState q, Judgement j, DetectionSink sink) {
        WriterClauses cross = new WriterClauses();
        WriterClauses intra = new WriterClauses();
        for (Map.Entry<Integer, Positions> e : j.byWriter.entrySet()) {
            Writer v = writers[e.getKey()];
            boolean isCross = v.tenantId != q.tenantId;
            Positions ps = e.getValue();
            // positions are found in ascending order: logical pages in order, slots in order within each
            sink.exposure(new ExposureRead(r.deployment(), isCross ? ExposureKind.CROSS_TENANT
                    : ExposureKind.INTRA_TENANT, q.request, q.tenant, v.request, v.tenant, Ranges.ofAscending(ps),
                    r.ts(), r.ts(), stream, boot, r.seq()));
            (isCross ? cross : intra).add(ps, v, j.pagesByWriter.get(e.getKey()));
        }
        if (!cross.clauses.isEmpty()) {
            sink.finding(readFinding(Rule.CROSS_TENANT_READ, r, q, cross.words()));
        }
        if (!intra.clauses.isEmpty()) {
            sink.finding(readFinding(Rule.INTRA_TENANT_READ, r, q, intra.words()));
        }
        if (j.uninitialized.size() > 0) {
            sink.finding(readFinding(Rule.UNINITIALIZED_READ, r, q, List.of(j.uninitialized.size()
                    + " never-written positions (" + j.uninitialized.ranges(EVIDENCE_RANGES) + ")")));
        }
        if (j.crossShare.size() > 0) {
            sink.finding(readFinding(Rule.CROSS_TENANT_SHARE, r, q, List.of("shared pages "
                    + j.crossShare.ranges(EVIDENCE_RANGES) + " written by another tenant, with matching fingerprints")));
        }
        if (j.sharedForeign.size() > 0) {
            sink.finding(readFinding(Rule.SHARED_PAGE_FOREIGN, r, q, List.of(sharedForeignWords(j.sharedForeign,
                    j.sharedForeignPages))));
        }
        int attached = ((Body.Attach) r.body()).tokens();
        for (Object[] t : j.transferred) {
            Writer via = (Writer) t[0];
            int from = (int) t[2];
            sink.transferRead(new TransferRead(r.deployment(), q.request, q.tenant, from, via.request, via.transfer,
                    via.tenant, (int) t[1], (int) t[3] - from, (boolean) t[4], attached, r.ts(), stream, boot,
                    r.seq()));
        }
    }

    /**
     * Spec v1.1: the sender read positions [from, from + tokens) of the request's table to send them. Each takes as
     * origin the request itself when rules 1 and 2 would let it read the slot, else the slot's last writer. Spec 1.3,
     * amendment 4 (chains): a slot holding a received position (the request's own, or another request's that rule 2
     * does not make fine) takes as origin that received position, which {@link Provenance} resolves through the sends
     * of its transfer; it stays the request's own for TRANSFER_SENT_FOREIGN, decided here.
     */
    private void xferSend(AuditRecord r, Body.XferSend x, DetectionSink sink) {
        RequestState q = table(r, x.request(), x.tenant(), false, sink);
        if (q == NO_TABLE) {
            return;
        }
        long end = (long) x.from() + x.tokens();
        long tableTokens = q == null ? 0 : (long) q.pages * pageSize;
        if (end > tableTokens) {
            sink.invalid(r, "XFER_SEND: positions " + x.from() + "-" + (end - 1) + " go beyond the request's page table"
                    + " of " + tableTokens + " tokens; no effect" + forgotten(q));
            return;
        }
        List<TransferSend.Origin> foreign = new ArrayList<>();
        Positions sharedForeign = new Positions();
        Positions sharedForeignPages = new Positions();
        Positions other = new Positions();
        Positions never = new Positions();
        int p = x.from();
        while (p < end) {
            int lp = p / pageSize;
            int page = q.table[lp];
            int slot = page * pageSize + p % pageSize;
            int w = slots[slot];
            byte k = q.kind[lp];
            boolean fpOwn = k == SHARED_WITH_FP && fpKnown.get(page) && pageFp[page] == q.expected[lp];
            boolean own = w == q.id || w != 0 && writers[w].request.equals(q.request) || fpOwn
                    || k == SHARED && w != 0 && writers[w].tenantId == q.tenantId;
            Writer v = w == 0 ? null : writers[w];
            // amendment 4: a received position sent on keeps the origin it had where it was received
            int via = v != null && v.sent && !fpOwn && (!own || v.request.equals(q.request))
                    ? receivedAt(v, page, p % pageSize) : -1;
            int e = p + 1;
            int pageEnd = (int) Math.min(end, (long) (lp + 1) * pageSize);
            while (e < pageEnd && slots[page * pageSize + e % pageSize] == w
                    && (via < 0 || receivedAt(v, page, e % pageSize) == via + (e - p))) {
                e++;
            }
            if (!own && k != ALLOCATED) {
                sharedForeign.addRun(p, e);
                sharedForeignPages.add(page);
            }
            if (!own) {
                (w == 0 ? never : other).addRun(p, e);
            }
            if (via >= 0 || !own) {
                String request = w == 0 ? null : v.request;
                TransferSend.Origin o = via >= 0 ? new TransferSend.Origin(p, e, request, v.tenant, v.transfer, via)
                        : new TransferSend.Origin(p, e, request, w == 0 ? null : v.tenant);
                TransferSend.Origin last = foreign.isEmpty() ? null : foreign.get(foreign.size() - 1);
                if (last != null && last.to() == p && Objects.equals(last.request(), request)
                        && last.received() == o.received() && Objects.equals(last.viaTransfer(), o.viaTransfer())
                        && (!o.received() || last.viaFrom() + (p - last.from()) == via)) {
                    foreign.set(foreign.size() - 1, new TransferSend.Origin(last.from(), e, request, last.tenant(),
                            last.viaTransfer(), last.viaFrom()));
                } else {
                    foreign.add(o);
                }
            }
            p = e;
        }
        sink.transferSend(new TransferSend(r.deployment(), x.request(), x.transfer(), x.tenant(), x.from(), x.tokens(),
                foreign, r.ts(), stream, boot, r.seq()));
        // amendment 3: the slots are in flight until the send's XFER_DONE, if one comes
        for (int at = x.from(); at < end;) {
            int lp = at / pageSize;
            int to = (int) Math.min(end, (long) (lp + 1) * pageSize);
            windows.sent(x.request(), x.transfer(), poolPages, at, q.table[lp], at - lp * pageSize, to - at);
            at = to;
        }
        windows.bound((int) Math.min(SendWindows.MAX_ENTRIES, limits.maxTableEntries()));
        if (sharedForeign.size() > 0) {
            // the sender's prefix cache handed it pages that no longer held its prefix (read here to be sent)
            sink.finding(new Finding(Rule.SHARED_PAGE_FOREIGN, r.deployment(), x.request(), r.ts(), evidence(r,
                    "XFER_SEND of positions " + x.from() + "-" + (end - 1) + " of " + x.request() + " of tenant "
                            + x.tenant() + ": " + sharedForeignWords(sharedForeign, sharedForeignPages))));
        }
        if (other.size() > 0 || never.size() > 0) {
            sink.finding(new Finding(Rule.TRANSFER_SENT_FOREIGN, r.deployment(), x.request(), r.ts(), evidence(r,
                    "XFER_SEND of positions " + x.from() + "-" + (end - 1) + " of " + x.request() + " of tenant "
                            + x.tenant() + ": " + (other.size() > 0 ? other.size() + " positions ("
                            + other.ranges(EVIDENCE_RANGES) + ") held another request's content" : "")
                            + (other.size() > 0 && never.size() > 0 ? "; " : "")
                            + (never.size() > 0 ? never.size() + " positions (" + never.ranges(EVIDENCE_RANGES)
                                    + ") had never been written" : "") + " when they were read to be sent")));
        }
    }

    /**
     * Spec 1.3, amendment 3: the transport finished reading the slots of the send; what other requests wrote to them
     * meanwhile goes to the receiver's reads as possible origins (a {@link TransferSend} marked possible). Nothing
     * written meanwhile: nothing to tell, the XFER_SEND's judgement stands alone.
     */
    private void xferDone(AuditRecord r, Body.XferDone x, DetectionSink sink) {
        SendWindows.Window w = windows.close(x.request(), x.transfer());
        if (w == null) {
            if (windows.wasDropped(x.request(), x.transfer())) {
                sink.finding(new Finding(Rule.TABLE_EVICTED, r.deployment(), x.request(), r.ts(), evidence(r,
                        "XFER_DONE of transfer " + x.transfer() + " of " + x.request() + ": its send window was"
                                + " dropped to stay within memory (more than " + SendWindows.MAX_ENTRIES + " sent pages"
                                + " and writes in flight on this boot); writes to its slots while the transport read"
                                + " them were not all watched, so a possible exposure through it may be missed")));
            } else {
                sink.invalid(r, "XFER_DONE: no XFER_SEND of transfer '" + x.transfer() + "' of " + x.request()
                        + " is in flight on this stream; no effect");
            }
            return;
        }
        if (!w.writes.isEmpty()) {
            sink.transferSend(new TransferSend(r.deployment(), x.request(), x.transfer(), x.tenant(), w.from,
                    w.to - w.from, w.origins(), r.ts(), stream, boot, r.seq(), true));
        }
    }

    private Finding readFinding(Rule rule, AuditRecord r, RequestState q, List<String> what) {
        return new Finding(rule, r.deployment(), q.request, r.ts(), evidence(r, "ATTACH of "
                + ((Body.Attach) r.body()).tokens() + " positions by " + q.request + " of tenant " + q.tenant + ": "
                + String.join("; ", what)));
    }

    /** SHARED_PAGE_FOREIGN's evidence, at an ATTACH or an XFER_SEND: which positions, on which shared pages. */
    private static String sharedForeignWords(Positions positions, Positions pages) {
        return positions.size() + " positions (" + positions.ranges(EVIDENCE_RANGES) + ") on pages "
                + pages.ranges(EVIDENCE_RANGES) + " it got by SHARE held another request's content or had never been"
                + " written";
    }

    private void free(AuditRecord r, Body.Free f, DetectionSink sink) {
        RequestState q = requests.get(f.request());
        for (PageRun run : f.pages()) {
            for (long page = run.first(); page < run.end(); page++) {
                if (q == null || page >= poolPages || owner[(int) page] != q.id) {
                    sink.invalid(r, "FREE: page " + page + " is not owned by " + f.request() + "; no effect");
                    return;
                }
            }
        }
        for (PageRun run : f.pages()) {
            for (int page = run.first(); page < run.end(); page++) {
                if (owner[page] == q.id) {
                    owner[page] = 0;
                    q.owned--;
                }
            }
        }
        q.done = true;
        keepIfFreed(q);
    }

    private void xferCommit(AuditRecord r, Body.XferCommit x, DetectionSink sink) {
        if (x.coveredTokens() < x.claimedTokens()) {
            sink.finding(new Finding(Rule.TRANSFER_COVERAGE_GAP, r.deployment(), x.request(), r.ts(),
                    evidence(r, "transfer for " + x.request() + " claimed " + x.claimedTokens() + " tokens and covered "
                            + x.coveredTokens() + ": positions " + x.coveredTokens() + "-" + (x.claimedTokens() - 1)
                            + " are treated as written but hold stale content")));
        }
        if (Boolean.FALSE.equals(x.checksumOk())) {
            sink.finding(new Finding(Rule.TRANSFER_CHECKSUM_MISMATCH, r.deployment(), x.request(), r.ts(),
                    evidence(r, "transfer for " + x.request() + " failed its checksum")));
        }
    }

    private void finish(AuditRecord r, Body.Finish f, DetectionSink sink) {
        sink.requestFact(fact(RequestFact.Kind.FINISHED, r, f.request(), f.tenant(), f.delivered(),
                f.outputTokens()));
        RequestState q = requests.get(f.request());
        if (q != null) {
            q.done = true;
            keepIfFreed(q);
        }
    }

    /** When a request has no table here and evictions were forgotten, it may be one of them: the reason says so. */
    private String forgotten(RequestState q) {
        return q == null && forgottenEvictions > 0 ? " (or its freed table was evicted long ago: " + forgottenEvictions
                + " evicted requests of this boot are no longer remembered)" : "";
    }

    /** Marks "the request's table was evicted" for {@link #table}. */
    private static final RequestState NO_TABLE = new RequestState("", "", 0, 0);

    /**
     * The request's table, expanded. Created when {@code create} (ALLOC, SHARE); otherwise null when the request
     * never had one here. When its table was evicted, {@code TABLE_EVICTED} is raised and {@link #NO_TABLE} (or null
     * for a creating record) returned: the record cannot be judged.
     */
    private RequestState table(AuditRecord r, String request, String tenant, boolean create, DetectionSink sink) {
        RequestState q = requests.get(request);
        if (q != null) {
            if (q.compact()) {
                if (tableEntries + expandedCapacity(q.pages) > limits.maxTableEntries()) {
                    unsupported(r, "the page tables of its live requests would hold more than "
                            + limits.maxTableEntries() + " pages (" + r.type() + " of " + request + ", whose freed"
                            + " table of " + q.pages + " pages it used again; vigie.detection.max-table-entries)",
                            sink);
                    return NO_TABLE;
                }
                unkeep(q);
                q.expand();
                tableEntries += q.table.length;
            }
            touched = q;
            return q;
        }
        if (wasEvicted(request)) {
            sink.finding(new Finding(Rule.TABLE_EVICTED, r.deployment(), request, r.ts(), evidence(r, r.type()
                    + " of " + request + " after its freed page table left memory (over the budget of "
                    + (keptTablesBudget >> 10) + " KiB for freed tables on this stream): not applied, so its reads"
                    + " were not judged" + (r.type() == RecordType.WRITE
                            ? " and the slots it wrote keep their earlier last writer"
                            : r.type() == RecordType.XFER_SEND ? "; what it sent has no origin here, so the reads of"
                                    + " it on the receiver wait for a flush, then are judged as in version 1" : ""))));
            return create ? null : NO_TABLE;
        }
        if (!create) {
            return null;
        }
        Integer tenantId = tenants.get(tenant);
        if (tenantId == null) {
            tenantId = tenants.size() + 1;
            tenants.put(tenant, tenantId);
            if (tenantId >= tenantNames.length) {
                tenantNames = Arrays.copyOf(tenantNames, tenantNames.length * 2);
            }
            tenantNames[tenantId] = tenant;
        }
        Writer w = new Writer(request, tenantNames[tenantId], tenantId);
        int id = newWriter(w);
        q = new RequestState(request, w.tenant, tenantId, id);
        tableEntries += q.table.length;
        w.state = q;
        requests.put(request, q);
        touched = q;
        return q;
    }

    /**
     * A table of a request that was freed or finished and owns no page is kept compactly, as the newest freed one; the
     * oldest leave over the budget. A request still being served (shared pages only, before its ALLOC) is not.
     */
    private void keepIfFreed(RequestState q) {
        if (!q.done || q.owned > 0 || q.compact()) {
            return;
        }
        tableEntries -= q.table.length;
        q.keptBytes = (int) Math.min(Integer.MAX_VALUE, q.shrink() + receivedBytes(q));
        keptBytes += q.keptBytes;
        keptCount++;
        q.older = newestKept;
        q.newer = null;
        if (newestKept != null) {
            newestKept.newer = q;
        } else {
            oldestKept = q;
        }
        newestKept = q;
        evictKept(q);
    }

    private void unkeep(RequestState q) {
        if (q.older != null) {
            q.older.newer = q.newer;
        } else {
            oldestKept = q.newer;
        }
        if (q.newer != null) {
            q.newer.older = q.older;
        } else {
            newestKept = q.older;
        }
        q.older = null;
        q.newer = null;
        keptBytes -= q.keptBytes;
        keptCount--;
        q.keptBytes = 0;
    }

    /** Evicts the oldest freed tables while over the budget, never {@code keep} (the one just freed). */
    private void evictKept(RequestState keep) {
        while (keptBytes > keptTablesBudget && oldestKept != null && oldestKept != keep) {
            RequestState q = oldestKept;
            unkeep(q);
            requests.remove(q.request);
            remember(hash(q.request));
            writers[q.id].state = null;
            release(q.id, 1);
            if (q.sentIds != null) {
                for (int id : q.sentIds) {
                    release(id, 1);
                }
            }
        }
    }

    private boolean wasEvicted(String request) {
        if (evicted.isEmpty() && evictedBefore.isEmpty()) {
            return false;
        }
        long h = hash(request);
        return evicted.contains(h) || evictedBefore.contains(h);
    }

    /**
     * Remembers an evicted request. Each generation holds as many hashes as the budget has room for 64 bytes; when
     * the newer is full the older is forgotten, so that this memory stays within a quarter of the budget.
     */
    private void remember(long h) {
        if (evicted.size() >= Math.max(1024, keptTablesBudget / 64)) {
            forgottenEvictions += evictedBefore.size();
            evictedBefore = evicted;
            evicted = new LongSet();
        }
        evicted.add(h);
    }

    private int newWriter(Writer w) {
        int id = freeCount > 0 ? freeIds[--freeCount] : nextId++;
        if (id >= writers.length) {
            writers = Arrays.copyOf(writers, writers.length * 2);
        }
        w.refs = 1;
        writers[id] = w;
        return id;
    }

    /**
     * A written page's fingerprint is no longer known. Cleared only when set: {@link BitSet#clear(int)} always looks
     * for the highest word in use again, a scan down the set that showed in the profile of the leaking workload.
     */
    private void forgetFingerprint(int page) {
        if (fpKnown.get(page)) {
            fpKnown.clear(page);
        }
    }

    /** {@code id} when every slot of the page at {@code base} holds it, else {@link #MIXED}. */
    private int uniform(int base, int id) {
        for (int i = base; i < base + pageSize; i++) {
            if (slots[i] != id) {
                return MIXED;
            }
        }
        return id;
    }

    /** {@link #pageWriter} worked out from {@link #slots} (a restored snapshot). */
    void summarizePages() {
        pageWriter = new int[poolPages];
        for (int page = 0; page < poolPages; page++) {
            pageWriter[page] = uniform(page * pageSize, slots[page * pageSize]);
        }
    }

    private void release(int id, long n) {
        Writer w = writers[id];
        w.refs -= n;
        if (w.refs == 0) {
            receivedBytes -= w.charged;
            writers[id] = null;
            if (freeCount == freeIds.length) {
                freeIds = Arrays.copyOf(freeIds, freeCount * 2);
            }
            freeIds[freeCount++] = id;
        }
    }

    private String outsidePool(List<PageRun> runs) {
        for (PageRun run : runs) {
            if (run.end() > poolPages) {
                return "pages " + run.first() + "-" + (run.end() - 1) + " lie outside the pool of " + poolPages
                        + " pages";
            }
        }
        return null;
    }

    private Finding.Evidence evidence(AuditRecord r, String detail) {
        return new Finding.Evidence(stream, boot, r.seq(), r.seq(), detail);
    }

    private RequestFact fact(RequestFact.Kind kind, AuditRecord r, String request, String tenant, boolean delivered,
            int outputTokens) {
        return new RequestFact(kind, request, tenant, r.deployment(), r.ts(), stream, boot, r.seq(), delivered,
                outputTokens);
    }

    /** A 64-bit hash of a string (a fingerprint in lower-case hex, a request id, a record): FNV-1a. */
    public static long hash(String s) {
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < s.length(); i++) {
            h ^= s.charAt(i);
            h *= 0x100000001b3L;
        }
        return h;
    }

    /** Ints to ints (non-negative values), open addressing: a sent writer's physical to logical pages. */
    static final class IntIntMap {
        int[] keys = new int[8];
        int[] values = new int[8];
        boolean[] used = new boolean[8];
        int size;

        /** The value of {@code k}, or -1. */
        int get(int k) {
            int mask = keys.length - 1;
            for (int i = mix(k) & mask;; i = (i + 1) & mask) {
                if (!used[i]) {
                    return -1;
                }
                if (keys[i] == k) {
                    return values[i];
                }
            }
        }

        void put(int k, int v) {
            if ((size + 1) * 2 > keys.length) {
                int[] oldKeys = keys;
                int[] oldValues = values;
                boolean[] oldUsed = used;
                keys = new int[oldKeys.length * 2];
                values = new int[oldKeys.length * 2];
                used = new boolean[oldKeys.length * 2];
                size = 0;
                for (int i = 0; i < oldKeys.length; i++) {
                    if (oldUsed[i]) {
                        put(oldKeys[i], oldValues[i]);
                    }
                }
            }
            int mask = keys.length - 1;
            for (int i = mix(k) & mask;; i = (i + 1) & mask) {
                if (!used[i]) {
                    used[i] = true;
                    keys[i] = k;
                    values[i] = v;
                    size++;
                    return;
                }
                if (keys[i] == k) {
                    values[i] = v;
                    return;
                }
            }
        }

        static int mix(int k) {
            int h = k * 0x9E3779B9;
            return h ^ (h >>> 16);
        }
    }

    /** A set of longs, open addressing: the hashes of evicted requests, 8 to 16 bytes each. */
    static final class LongSet {
        long[] table = new long[0];
        int size;
        boolean hasZero;

        boolean isEmpty() {
            return size == 0 && !hasZero;
        }

        void clear() {
            table = new long[0];
            size = 0;
            hasZero = false;
        }

        int size() {
            return size + (hasZero ? 1 : 0);
        }

        boolean contains(long v) {
            if (v == 0) {
                return hasZero;
            }
            if (table.length == 0) {
                return false;
            }
            int mask = table.length - 1;
            for (int i = mix(v) & mask;; i = (i + 1) & mask) {
                if (table[i] == v) {
                    return true;
                }
                if (table[i] == 0) {
                    return false;
                }
            }
        }

        void add(long v) {
            if (v == 0) {
                hasZero = true;
                return;
            }
            if ((size + 1) * 2 > table.length) {
                long[] old = table;
                table = new long[Math.max(16, old.length * 2)];
                size = 0;
                for (long x : old) {
                    if (x != 0) {
                        insert(x);
                    }
                }
            }
            insert(v);
        }

        void insert(long v) {
            int mask = table.length - 1;
            for (int i = mix(v) & mask;; i = (i + 1) & mask) {
                if (table[i] == v) {
                    return;
                }
                if (table[i] == 0) {
                    table[i] = v;
                    size++;
                    return;
                }
            }
        }

        long[] values() {
            long[] out = new long[size() ];
            int k = 0;
            for (long x : table) {
                if (x != 0) {
                    out[k++] = x;
                }
            }
            if (hasZero) {
                out[k] = 0;
            }
            return out;
        }

        long bytes() {
            return 16 + 8L * table.length;
        }

        static int mix(long v) {
            long h = v * 0x9E3779B97F4A7C15L;
            return (int) (h ^ (h >>> 32));
        }
    }

    /** Writes the whole state, so that {@link #restore} continues exactly where this detector is. */
    public void snapshot(DataOutputStream out) throws IOException {
        DetectorSnapshotCodec.write(this, out);
    }

    /** A detector in the state a {@link #snapshot} wrote; a snapshot of another version is refused. */
    public static StreamDetector restore(DataInputStream in) throws IOException {
        return DetectorSnapshotCodec.read(in, DetectorLimits.PoolBudget.HEAP);
    }

    /**
     * Like {@link #restore(DataInputStream)}, its pool taken from {@code budget} first: a refusal is an
     * {@link IOException} (the caller replays the boot's records instead, whose {@code CONFIG} then decides).
     */
    public static StreamDetector restore(DataInputStream in, DetectorLimits.PoolBudget budget) throws IOException {
        return DetectorSnapshotCodec.read(in, budget);
    }

    /** Bytes held for the pool model (slots, page summaries, owners, fingerprints), excluding requests. */
    public long poolBytes() {
        if (!configured) {
            return 0;
        }
        return (long) slots.length * Integer.BYTES + (long) pageWriter.length * Integer.BYTES
                + (long) owner.length * Integer.BYTES
                + (long) pageFp.length * Long.BYTES + fpKnown.size() / 8;
    }

    /** Bytes held for freed tables (estimated) and the hashes of evicted ones. */
    public long keptTableBytes() {
        return keptBytes + evicted.bytes() + evictedBefore.bytes();
    }

    /** Slots of the pool. */
    public long poolSlots() {
        return configured ? slots.length : 0;
    }

    /** Positions judged so far (the sum of the ATTACH sizes). */
    public long judgedSlots() {
        return judged;
    }

    /** Requests whose table is in use (they own pages). */
    public int liveRequests() {
        return requests.size() - keptCount;
    }

    /** Freed tables kept. */
    public int keptTables() {
        return keptCount;
    }

    /** Freed tables evicted over the budget in this boot. */
    public long evictedTables() {
        return evicted.size() + evictedBefore.size() + forgottenEvictions;
    }
}
