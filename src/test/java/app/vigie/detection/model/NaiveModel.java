package app.vigie.detection.model;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import app.vigie.auditlog.record.AuditRecord;
import app.vigie.auditlog.record.Body;
import app.vigie.auditlog.record.PageFingerprint;
import app.vigie.auditlog.record.PageRun;
import app.vigie.detection.core.DetectorLimits;

/**
 * A deliberately naive second reading of the page audit log spec (docs: page-audit-log.md), used as the oracle of a
 * differential test. Everything is kept in plain maps keyed by full tuples; page tables never shrink; every exposure
 * position judged is remembered in a list and the answer is recomputed from scratch by {@link #result()}. Slow on
 * purpose, obvious on purpose. Not thread-safe.
 */
public final class NaiveModel {

    // ------------------------------------------------------------------ keys and small values

    private record StreamBoot(String stream, String boot) {
    }

    private record SlotKey(String stream, String boot, int page, int slot) {
    }

    private record PageKey(String stream, String boot, int page) {
    }

    private record TableKey(String stream, String boot, String request) {
    }

    /**
     * {@code received}: not null when the slot holds the request's received position (v1.1, a sent write), received by
     * its transfer {@code transfer} (1.3 amendment 2).
     */
    private record Writer(String request, String tenant, Integer received, String transfer) {
        Writer(String request, String tenant) {
            this(request, tenant, null, null);
        }
    }

    /** v1.1: a read of a received position, held until sends tell its origins. */
    private record Held(String deployment, String reader, String readerTenant, boolean sharedWithoutFp, int position,
            String via, String viaTransfer, String viaTenant, int viaPosition, Instant at, String stream, String boot, long seq) {
    }

    /**
     * v1.1: the origin of one sent position (null request: never written); 1.3 amendment 3: {@code possible}, a
     * request that wrote the position's slot while the send was in flight.
     */
    private record Sent(String request, String transfer, int position, String originRequest, String originTenant,
            boolean possible, String viaTransfer, Integer viaPosition) {
        Sent(String request, String transfer, int position, String originRequest, String originTenant) {
            this(request, transfer, position, originRequest, originTenant, false, null, null);
        }

        Sent(String request, String transfer, int position, String originRequest, String originTenant,
                boolean possible) {
            this(request, transfer, position, originRequest, originTenant, possible, null, null);
        }
    }

    /** One origin of a received position, found through any number of hops (1.3 amendment 4). */
    private record Origin(String request, String tenant, boolean possible, int hops) {
    }

    /** How many positions the last {@link #result()} judged exposed through at least one forwarding (amendment 4). */
    private int chained;
    /** How many of them through two forwardings at least (three transfers). */
    private int chainedTwice;
    /** The streams on which the last {@link #result()} judged a received position possibly exposed (amendment 3). */
    private final Set<String> possiblyExposedOn = new TreeSet<>();

    public int chained() {
        return chained;
    }

    public int chainedTwice() {
        return chainedTwice;
    }

    public Set<String> possiblyExposedOn() {
        return possiblyExposedOn;
    }

    /** A hop no certain send covers: the request that received the position there, its tenant, its transfer. */
    private record Hop(String request, String tenant, String transfer) {
    }

    private static String sentKey(String request, String transfer, int position) {
        return request + "|" + transfer + "|" + position;
    }

    private Map<String, List<Sent>> sentByKey() {
        Map<String, List<Sent>> out = new HashMap<>();
        for (Sent x : sent) {
            out.computeIfAbsent(sentKey(x.request(), x.transfer(), x.position()), k -> new ArrayList<>()).add(x);
        }
        return out;
    }

    /**
     * The origins of position {@code q} that {@code request} (of {@code tenant}) received by {@code transfer}: "each
     * origin of q given by any XFER_SEND of S on any stream" (1.1), of the same transfer (1.3 amendment 2); a received
     * position sent on "has, as origin, the origin it had where it was received, through any number of hops" (1.3
     * amendment 4); a writer in flight is a possible origin (amendment 3). Vigie's bound (docs/detection.md): a cycle,
     * or a chain past 32 transfers, stops with the version 1 meaning (the request that received q wrote it). A hop no
     * certain send covers goes to {@code held}.
     */
    private static void originsOf(String request, String tenant, String transfer, int q, Map<String, List<Sent>> byKey,
            List<String> path, List<Origin> out, List<Hop> held) {
        String key = request + "|" + transfer;
        int hops = path.size();
        if (path.contains(key) || path.size() >= 32) {
            out.add(new Origin(request, tenant, false, hops));
            return;
        }
        path.add(key);
        boolean covered = false;
        for (Sent x : byKey.getOrDefault(sentKey(request, transfer, q), List.of())) {
            if (x.possible()) {
                out.add(new Origin(x.originRequest(), x.originTenant(), true, hops));
                continue;
            }
            covered = true;
            if (x.viaPosition() != null) {
                originsOf(x.originRequest(), x.originTenant(), x.viaTransfer(), x.viaPosition(), byKey, path, out,
                        held);
            } else {
                out.add(new Origin(x.originRequest(), x.originTenant(), false, hops));
            }
        }
        path.remove(path.size() - 1);
        if (!covered) {
            held.add(new Hop(request, tenant, transfer));
        }
    }

    /** 1.3 amendment 3: a send of (request, transfer) on (stream, boot) in flight, from XFER_SEND to XFER_DONE. */
    private record WindowKey(String stream, String boot, String request, String transfer) {
    }

    /** One slot a send in flight reads: its physical place and the sent position. */
    private record InFlight(int page, int slot, int position) {
    }

    private enum How { ALLOC, SHARE }

    /** One logical page of a request's table: the physical page, how it got there, and (SHARE only) the expected fp. */
    private record TableEntry(int page, How how, String expectedFp) {
    }

    /** One position judged (4) or (5) at one ATTACH; {@code possible}: against a writer in flight only. */
    private record Judged(String deployment, String reader, String readerTenant, String victim, String victimTenant,
            int position, Instant at, String stream, String boot, long seq, boolean possible) {
        Judged(String deployment, String reader, String readerTenant, String victim, String victimTenant,
                int position, Instant at, String stream, String boot, long seq) {
            this(deployment, reader, readerTenant, victim, victimTenant, position, at, stream, boot, seq, false);
        }
    }

    private static final Comparator<Judged> JUDGED_ORDER = Comparator.comparing(Judged::at)
            .thenComparing(Judged::stream).thenComparing(Judged::boot).thenComparingLong(Judged::seq)
            .thenComparingInt(Judged::position);

    private static final Comparator<ModelFinding> EVIDENCE_ORDER = Comparator.comparing(ModelFinding::at)
            .thenComparing(ModelFinding::stream).thenComparing(ModelFinding::boot)
            .thenComparingLong(ModelFinding::firstSeq);

    private static final Comparator<AuditRecord> RECORD_ORDER = Comparator.comparing(AuditRecord::ts)
            .thenComparing(AuditRecord::stream).thenComparing(AuditRecord::boot)
            .thenComparingLong(AuditRecord::seq);

    // ------------------------------------------------------------------ intake state

    /** Every record accepted at intake (applied or waiting), by its idempotency key. */
    private final Map<AuditRecord.Key, AuditRecord> received = new HashMap<>();
    /** The next seq to apply, per (stream, boot); absent means 1. */
    private final Map<StreamBoot, Long> nextSeq = new HashMap<>();
    /** Records received but not yet applied because a smaller seq is missing. */
    private final Map<StreamBoot, TreeMap<Long, AuditRecord>> waiting = new HashMap<>();
    /** Ranges [from, to] declared lost, per (stream, boot). */
    private final Map<StreamBoot, List<long[]>> lost = new HashMap<>();

    // ------------------------------------------------------------------ replay state (per stream and boot, by key)

    /** The applied, valid CONFIG of each (stream, boot); absent means the boot is unconfigured. */
    private final Map<StreamBoot, Body.Config> configs = new HashMap<>();
    /** 1.3 amendment 1: boots not judged (their CONFIG declares an extension this model does not know). */
    private final Set<StreamBoot> unsupported = new HashSet<>();
    /** The last writer of each slot; absent means never written in this boot. */
    private final Map<SlotKey, Writer> lastWriter = new HashMap<>();
    /** The current fingerprint of each physical page (lower case); absent means unknown. */
    private final Map<PageKey, String> fingerprint = new HashMap<>();
    /** The request owning each page; absent means nobody. */
    private final Map<PageKey, String> owner = new HashMap<>();
    /** Page tables; they only ever grow. */
    private final Map<TableKey, List<TableEntry>> tables = new HashMap<>();

    // ------------------------------------------------------------------ outcomes

    private final Map<String, ModelFinding> findings = new HashMap<>();
    private final List<Judged> judged = new ArrayList<>();
    private final List<Held> held = new ArrayList<>();
    /** 1.3 amendment 5: held reads resolved at a flush (judged as version 1 there). */
    private final Set<Held> resolvedAtFlush = new HashSet<>();
    private final List<Sent> sent = new ArrayList<>();
    /** 1.3 amendment 3: the sends in flight, the slots each reads, and what other requests wrote there meanwhile. */
    private final Map<WindowKey, List<InFlight>> inFlight = new HashMap<>();
    private final Map<WindowKey, List<Sent>> writtenInFlight = new HashMap<>();
    /** Applied ADMIT REJECT records. */
    private final List<AuditRecord> rejections = new ArrayList<>();
    /** Requests with an applied valid ALLOC or ATTACH, or an applied FINISH delivered with output tokens. */
    private final Set<String> served = new HashSet<>();
    /** Reader request -> whether any applied FINISH of it said delivered=true. */
    private final Map<String, Boolean> deliveredByRequest = new HashMap<>();
    private final Set<String> late = new TreeSet<>();
    private final Set<String> conflicts = new TreeSet<>();
    private final Set<String> invalid = new TreeSet<>();

    /** The largest pool this reader is configured to hold, in slots (amendment 1): Vigie's default. */
    private final long maxPoolSlots = DetectorLimits.DEFAULT_MAX_POOL_SLOTS;

    /** An empty model: no stream, no record. */
    public NaiveModel() {
    }

    // ================================================================== intake

    /**
     * One record arrives (already valid at intake). Handles duplicates, conflicts, late records, holding back after a
     * missing seq, and applies every record that becomes contiguous, in seq order per (stream, boot).
     */
    public void receive(AuditRecord r) {
        AuditRecord.Key key = r.key();
        AuditRecord earlier = received.get(key);
        if (earlier != null) {
            // "A record whose key was already accepted is a duplicate and is ignored; if its content differs from
            // the accepted one it is rejected as a conflict."
            if (!earlier.equals(r)) {
                conflicts.add(name(r));
            }
            return;
        }
        StreamBoot sb = new StreamBoot(r.stream(), r.boot());
        // "A record of a (stream, boot) whose seq lies in a range already declared lost is not applied: it is kept
        // with the reason late."
        for (long[] range : lost.getOrDefault(sb, List.of())) {
            if (r.seq() >= range[0] && r.seq() <= range[1]) {
                late.add(name(r));
                return;
            }
        }
        received.put(key, r);
        // "Records may arrive out of order and more than once: they must be applied in seq order per (stream, boot).
        // A missing seq holds back the records after it until it arrives or the gap is declared lost."
        waiting.computeIfAbsent(sb, k -> new TreeMap<>()).put(r.seq(), r);
        applyContiguous(sb);
    }

    /**
     * Declares lost every missing seq of each (stream, boot) that lies below a held-back record, applies what waited,
     * and raises STREAM_GAP for each lost range. A missing tail (nothing received after it) is not a gap.
     */
    public void flush() {
        for (StreamBoot sb : new ArrayList<>(waiting.keySet())) {
            TreeMap<Long, AuditRecord> held = waiting.get(sb);
            while (!held.isEmpty()) {
                long next = nextSeq.getOrDefault(sb, 1L);
                long firstHeld = held.firstKey();
                // firstHeld > next here, otherwise applyContiguous would have applied it.
                long from = next;
                long to = firstHeld - 1;
                lost.computeIfAbsent(sb, k -> new ArrayList<>()).add(new long[] {from, to});
                AuditRecord resuming = held.get(firstHeld);
                // "a lost gap raises a STREAM_GAP finding and application resumes after it"; brief: at/deployment of
                // the first record applied after the range; subject stream@boot.
                raise(new ModelFinding(resuming.deployment(), "STREAM_GAP", sb.stream() + "@" + sb.boot(),
                        resuming.ts(), sb.stream(), sb.boot(), from, to));
                nextSeq.put(sb, firstHeld);
                applyContiguous(sb);
            }
        }
        resolveHeld();
    }

    /**
     * Spec 1.3, amendment 5: "A held read (no XFER_SEND of its request and transfer covers the position yet) is
     * resolved at the next flush: it is judged as in version 1 (the receiving request is the last writer) and the
     * receiving request raises TRANSFER_SEND_MISSING. A send that arrives later adds its judgement: exposures only
     * grow."
     */
    private void resolveHeld() {
        Map<String, List<Sent>> byKey = sentByKey();  // a send window's writers cover nothing (originsOf)
        for (Held h : held) {
            List<Hop> hops = new ArrayList<>();
            originsOf(h.via(), h.viaTenant(), h.viaTransfer(), h.viaPosition(), byKey, new ArrayList<>(),
                    new ArrayList<>(), hops);
            if (hops.isEmpty() || !resolvedAtFlush.add(h)) {
                continue;
            }
            // amendment 4 with 5, Vigie's reading (docs/detection.md; the spec does not say it): a chain is held at its
            // first uncovered hop, and judged there
            for (Hop hop : new LinkedHashSet<>(hops)) {
                ModelFinding place = new ModelFinding(h.deployment(), "", hop.request(), h.at(), h.stream(), h.boot(),
                        h.seq(), h.seq());
                raiseInto(findings, place, "TRANSFER_SEND_MISSING");
                // version 1, the last writer being the receiving request (rules 1, 2, 4 and 5 of "Judging a read", in
                // short: R itself is fine, so is a writer of tenant T on a SHARE without fingerprint; otherwise an
                // exposure)
                if (hop.request().equals(h.reader()) || h.sharedWithoutFp() && hop.tenant().equals(h.readerTenant())) {
                    continue;
                }
                boolean cross = !hop.tenant().equals(h.readerTenant());
                raiseInto(findings, new ModelFinding(h.deployment(), "", h.reader(), h.at(), h.stream(), h.boot(),
                        h.seq(), h.seq()), cross ? "CROSS_TENANT_READ" : "INTRA_TENANT_READ");
                judged.add(new Judged(h.deployment(), h.reader(), h.readerTenant(), hop.request(), hop.tenant(),
                        h.position(), h.at(), h.stream(), h.boot(), h.seq()));
            }
        }
    }

    private void applyContiguous(StreamBoot sb) {
        TreeMap<Long, AuditRecord> held = waiting.get(sb);
        while (true) {
            long next = nextSeq.getOrDefault(sb, 1L);
            AuditRecord r = held.remove(next);
            if (r == null) {
                return;
            }
            apply(r);
            nextSeq.put(sb, next + 1);
        }
    }

    // ================================================================== replay

    private void apply(AuditRecord r) {
        StreamBoot sb = new StreamBoot(r.stream(), r.boot());
        Body body = r.body();
        if (body instanceof Body.Config c) {
            applyConfig(r, sb, c);
            return;
        }
        if (unsupported.contains(sb)) {
            // 1.3 amendment 1: "its boot is not judged ... and keeps the boot's records" (kept, not refused)
            return;
        }
        Body.Config config = configs.get(sb);
        if (config == null) {
            // "A record that is well-formed but impossible in its stream's state when it is applied (... no CONFIG
            // before it) has no effect and is kept the same way."
            invalid.add(name(r));
            return;
        }
        // 1.3 amendment 1: "A record that uses an extension its boot's CONFIG did not declare is invalid": xfer-send
        // is "XFER_SEND, XFER_DONE, the sent and transfer fields", restart is version 1.2's restart
        boolean xferSend = body instanceof Body.XferSend || body instanceof Body.XferDone
                || body instanceof Body.Write w && w.sent();
        boolean restart = body instanceof Body.Alloc a && a.restart() || body instanceof Body.Share s && s.restart();
        if (xferSend && !config.extensions().contains("xfer-send")
                || restart && !config.extensions().contains("restart")) {
            invalid.add(name(r));
            return;
        }
        // amendment 2: "Under xfer-send, XFER_SEND, XFER_DONE and a WRITE with sent: true carry transfer": one without
        // it cannot be joined (Vigie keeps it as invalid, docs/detection.md)
        if (xferSend && (body instanceof Body.XferSend x && x.transfer() == null
                || body instanceof Body.XferDone d && d.transfer() == null
                || body instanceof Body.Write w && w.transfer() == null)) {
            invalid.add(name(r));
            return;
        }
        if (body instanceof Body.Admit a) {
            applyAdmit(r, a);
        } else if (body instanceof Body.Alloc a) {
            applyAlloc(r, config, a);
        } else if (body instanceof Body.Write w) {
            applyWrite(r, config, w);
        } else if (body instanceof Body.Share s) {
            applyShare(r, config, s);
        } else if (body instanceof Body.Attach a) {
            applyAttach(r, config, a);
        } else if (body instanceof Body.Free f) {
            applyFree(r, config, f);
        } else if (body instanceof Body.XferCommit x) {
            applyXferCommit(r, x);
        } else if (body instanceof Body.XferSend x) {
            applyXferSend(r, config, x);
        } else if (body instanceof Body.XferDone x) {
            // 1.3 amendment 3: XFER_DONE "when the transport reports the read finished": the writers in flight become
            // origins; one with no send in flight is impossible (Vigie's reading of "no effect": docs/detection.md)
            WindowKey window = new WindowKey(r.stream(), r.boot(), x.request(), x.transfer());
            if (inFlight.remove(window) == null) {
                invalid.add(name(r));
            } else {
                sent.addAll(writtenInFlight.getOrDefault(window, List.of()));
                writtenInFlight.remove(window);
            }
        } else if (body instanceof Body.Finish f) {
            applyFinish(f);
        } else if (body instanceof Body.Heartbeat) {
            // "HEARTBEAT: Liveness; lets the detector see that a stream is alive and complete up to seq." No effect.
            return;
        } else {
            throw new IllegalStateException("unknown body " + body);
        }
    }

    private void applyConfig(AuditRecord r, StreamBoot sb, Body.Config c) {
        long capacity = (long) c.poolPages() * c.pageSize();
        // 1.3 amendment 1: "A CONFIG that declares ... a pool larger than the reader is configured to hold (pool_pages
        // × page_size above its limit), is accepted but its boot is not judged: the reader raises STREAM_UNSUPPORTED"
        if (capacity > maxPoolSlots) {
            unsupported.add(sb);
            raise(single(r, "STREAM_UNSUPPORTED", r.stream() + "@" + r.boot()));
            return;
        }
        // 1.3 amendment 1: "A CONFIG that declares an extension the reader does not know ... is accepted but its boot
        // is not judged: the reader raises STREAM_UNSUPPORTED for that (stream, boot) ... and keeps the boot's records"
        for (String e : c.extensions()) {
            if (!e.equals("xfer-send") && !e.equals("restart")) {
                unsupported.add(sb);
                raise(single(r, "STREAM_UNSUPPORTED", r.stream() + "@" + r.boot()));
                return;
            }
        }
        // "CONFIG: First record of a boot. Clears all state of the stream." / "A new boot starts with every slot
        // never written." State is keyed by (stream, boot), so a new boot's maps are already empty.
        configs.put(sb, c);
        // "CONTEXT_EXCEEDS_POOL: CONFIG with context_window > pool_pages * page_size", counted per (stream, boot).
        if (c.contextWindow() > capacity) {
            raise(single(r, "CONTEXT_EXCEEDS_POOL", r.stream() + "@" + r.boot()));
        }
    }

    private void applyAdmit(AuditRecord r, Body.Admit a) {
        // "ADMIT: The admission decision as made, whatever the HTTP status later says." ACCEPT has no effect.
        if (a.verdict() == Body.Verdict.REJECT) {
            rejections.add(r);
        }
    }

    private void applyAlloc(AuditRecord r, Body.Config config, Body.Alloc a) {
        // "Pages outside the pool make the record invalid."
        if (!allInPool(a.pages(), config)) {
            invalid.add(name(r));
            return;
        }
        List<TableEntry> table = tableOf(r, a.request(), a.restart());
        if (table == null) {
            return;
        }
        for (int page : pagesOf(a.pages())) {
            PageKey pk = new PageKey(r.stream(), r.boot(), page);
            String previous = owner.get(pk);
            // "a page still owned by another request changes owner and raises DOUBLE_ALLOC" (per allocating request)
            if (previous != null && !previous.equals(a.request())) {
                raise(single(r, "DOUBLE_ALLOC", a.request()));
            }
            // "the request owns them until FREE"
            owner.put(pk, a.request());
            // "Appends the pages to the request's table" (a page it already owns is simply appended again).
            table.add(new TableEntry(page, How.ALLOC, null));
        }
        // REJECTED_REQUEST_SERVED: "... and also an ALLOC or ATTACH on any stream"
        served.add(a.request());
    }

    private void applyShare(AuditRecord r, Body.Config config, Body.Share s) {
        // Pages outside the pool make the record invalid (brief: ALLOC/SHARE alike).
        if (!allInPool(s.pages(), config)) {
            invalid.add(name(r));
            return;
        }
        List<Integer> pages = pagesOf(s.pages());
        // "fp, if present, has one entry per shared page (another count makes the record invalid)" (already checked
        // at intake; checked again in case a test builds records by hand).
        if (s.fp() != null && s.fp().size() != pages.size()) {
            invalid.add(name(r));
            return;
        }
        List<TableEntry> table = tableOf(r, s.request(), s.restart());
        if (table == null) {
            return;
        }
        // "A prefix-cache hit: appends cached pages to the request's table without owning or writing them."
        for (int i = 0; i < pages.size(); i++) {
            String expected = s.fp() == null ? null : s.fp().get(i);
            table.add(new TableEntry(pages.get(i), How.SHARE, expected));
        }
    }

    /**
     * The request's table on the record's stream, for an ALLOC or a SHARE. v1.2: restart "starts the request's page
     * table on this stream anew with these pages". 1.3, amendment 6: "A restart whose request still owns pages on that stream is
     * applied, not invalid: those pages are given up first (as by FREE with reason: EVICT), then the table starts
     * anew, and the request raises RESTART_WHILE_OWNING".
     */
    private List<TableEntry> tableOf(AuditRecord r, String request, boolean restart) {
        if (restart && ownsAny(r, request)) {
            owner.entrySet().removeIf(e -> e.getValue().equals(request) && e.getKey().stream().equals(r.stream())
                    && e.getKey().boot().equals(r.boot()));
            raise(single(r, "RESTART_WHILE_OWNING", request));
        }
        TableKey key = new TableKey(r.stream(), r.boot(), request);
        if (restart) {
            tables.put(key, new ArrayList<>());
        }
        return tables.computeIfAbsent(key, k -> new ArrayList<>());
    }

    /** Whether the request owns a page on the record's stream and boot. */
    private boolean ownsAny(AuditRecord r, String request) {
        for (Map.Entry<PageKey, String> e : owner.entrySet()) {
            if (e.getValue().equals(request) && e.getKey().stream().equals(r.stream())
                    && e.getKey().boot().equals(r.boot())) {
                return true;
            }
        }
        return false;
    }

    private void applyWrite(AuditRecord r, Body.Config config, Body.Write w) {
        int pageSize = config.pageSize();
        List<TableEntry> table = tables.get(new TableKey(r.stream(), r.boot(), w.request()));
        long tableSize = table == null ? 0 : (long) table.size() * pageSize;
        long end = (long) w.from() + w.tokens();
        // "Positions beyond the table make the record invalid."
        if (end > tableSize) {
            invalid.add(name(r));
            return;
        }
        // "Logical positions [from, from+tokens) of the request's table are written: each mapped slot's last writer
        // becomes this request." Logical position p maps to page table[p / page_size], slot p % page_size.
        Set<Integer> touchedLogical = new TreeSet<>();
        for (long p = w.from(); p < end; p++) {
            int logical = (int) (p / pageSize);
            int slot = (int) (p % pageSize);
            TableEntry entry = table.get(logical);
            // v1.1: "A WRITE with sent: true of request S makes each written slot's last writer S's received position
            // q, q being the logical position it wrote."
            lastWriter.put(new SlotKey(r.stream(), r.boot(), entry.page(), slot),
                    new Writer(w.request(), w.tenant(), w.sent() ? (int) p : null, w.sent() ? w.transfer() : null));
            touchedLogical.add(logical);
            // 1.3 amendment 3: "A WRITE by another request to an in-flight slot makes that position's content
            // uncertain: a read of it at the receiver is judged ... against each such writer"
            for (Map.Entry<WindowKey, List<InFlight>> e : inFlight.entrySet()) {
                WindowKey k = e.getKey();
                if (!k.stream().equals(r.stream()) || !k.boot().equals(r.boot()) || k.request().equals(w.request())) {
                    continue;
                }
                for (InFlight f : e.getValue()) {
                    if (f.page() == entry.page() && f.slot() == slot) {
                        writtenInFlight.computeIfAbsent(k, x -> new ArrayList<>()).add(new Sent(k.request(),
                                k.transfer(), f.position(), w.request(), w.tenant(), true));
                    }
                }
            }
        }
        // "a write to a page without an fp entry for it makes the page's fingerprint unknown": every touched
        // physical page first becomes unknown ...
        for (int logical : touchedLogical) {
            fingerprint.remove(new PageKey(r.stream(), r.boot(), table.get(logical).page()));
        }
        // ... then "fp gives, for logical pages of this request that this write leaves complete, the content
        // fingerprint of that page" (entries for logical pages this write does not touch are ignored).
        if (w.fp() != null) {
            for (PageFingerprint f : w.fp()) {
                if (touchedLogical.contains(f.logicalPage())) {
                    fingerprint.put(new PageKey(r.stream(), r.boot(), table.get(f.logicalPage()).page()),
                            f.hex().toLowerCase(Locale.ROOT));
                }
            }
        }
    }

    private void applyAttach(AuditRecord r, Body.Config config, Body.Attach a) {
        int pageSize = config.pageSize();
        List<TableEntry> table = tables.get(new TableKey(r.stream(), r.boot(), a.request()));
        long tableSize = table == null ? 0 : (long) table.size() * pageSize;
        // "Positions beyond the table make the record invalid."
        if (a.tokens() > tableSize) {
            invalid.add(name(r));
            return;
        }
        // REJECTED_REQUEST_SERVED: "... an ALLOC or ATTACH on any stream" (an ATTACH of 0 tokens counts too).
        served.add(a.request());
        String reader = a.request();
        String readerTenant = a.tenant();
        // "At each ATTACH of request R (tenant T) over [0, n), every position p < n is judged against the state after
        // all earlier records of that stream"
        for (int p = 0; p < a.tokens(); p++) {
            TableEntry entry = table.get(p / pageSize);
            int slot = p % pageSize;
            Writer writer = lastWriter.get(new SlotKey(r.stream(), r.boot(), entry.page(), slot));
            if (writer != null && writer.received() != null) {
                // v1.1: "rule 2 with an expected fingerprint comes first, as before"
                if (entry.how() == How.SHARE && entry.expectedFp() != null) {
                    String current = fingerprint.get(new PageKey(r.stream(), r.boot(), entry.page()));
                    if (current != null && current.equalsIgnoreCase(entry.expectedFp())) {
                        // "(if fine, it counts toward CROSS_TENANT_SHARE when S's tenant is not T)"
                        if (!writer.tenant().equals(readerTenant)) {
                            raise(single(r, "CROSS_TENANT_SHARE", reader));
                        }
                        continue;
                    }
                }
                // Vigie's SHARED_PAGE_FOREIGN (docs/detection.md): a shared page whose slot another request wrote,
                // taking the receiving request S as the writer (before provenance), and not fine by rule 2
                if (entry.how() == How.SHARE && !writer.request().equals(reader)
                        && !(entry.expectedFp() == null && writer.tenant().equals(readerTenant))) {
                    raise(single(r, "SHARED_PAGE_FOREIGN", reader));
                }
                // "otherwise ... p is judged against each origin of q given by any XFER_SEND of S on any stream";
                // "Until one covers q, a read of p is held, not judged" (judged in result(), from every send)
                held.add(new Held(r.deployment(), reader, readerTenant,
                        entry.how() == How.SHARE && entry.expectedFp() == null, p, writer.request(),
                        writer.transfer(), writer.tenant(), writer.received(), r.ts(), r.stream(), r.boot(), r.seq()));
                continue;
            }
            // "1. the last writer of p's slot is R itself: fine;"
            if (writer != null && writer.request().equals(reader)) {
                continue;
            }
            // "2. p lies on a page that R got by SHARE:"
            if (entry.how() == How.SHARE) {
                if (entry.expectedFp() != null) {
                    String current = fingerprint.get(new PageKey(r.stream(), r.boot(), entry.page()));
                    // "with an expected fingerprint, and the page's current fingerprint is known and equal to it:
                    // fine (the content is R's own tokens); if the page's last writer is of another tenant, it counts
                    // toward CROSS_TENANT_SHARE"
                    if (current != null && current.equalsIgnoreCase(entry.expectedFp())) {
                        if (writer != null && !writer.tenant().equals(readerTenant)) {
                            raise(single(r, "CROSS_TENANT_SHARE", reader));
                        }
                        continue;
                    }
                } else if (writer != null && writer.tenant().equals(readerTenant)) {
                    // "without an expected fingerprint, and the last writer is of tenant T: fine (a prefix cache
                    // shared inside one tenant)"
                    continue;
                }
                // "otherwise it is judged by 3 to 5, like any other slot"; and Vigie raises SHARED_PAGE_FOREIGN
                raise(single(r, "SHARED_PAGE_FOREIGN", reader));
            }
            // "3. the slot was never written in this boot: UNINITIALIZED_READ"
            if (writer == null) {
                raise(single(r, "UNINITIALIZED_READ", reader));
                continue;
            }
            // "4. the last writer V is of another tenant: a cross-tenant exposure of V's token at p to R;"
            // "5. otherwise (V is another request of tenant T): an intra-tenant exposure."
            boolean cross = !writer.tenant().equals(readerTenant);
            raise(single(r, cross ? "CROSS_TENANT_READ" : "INTRA_TENANT_READ", reader));
            judged.add(new Judged(r.deployment(), reader, readerTenant, writer.request(), writer.tenant(), p, r.ts(),
                    r.stream(), r.boot(), r.seq()));
        }
    }

    private void applyFree(AuditRecord r, Body.Config config, Body.Free f) {
        // A page outside the pool is owned by nobody, so the record is invalid; checked first so that a huge run is
        // never expanded page by page.
        if (!allInPool(f.pages(), config)) {
            invalid.add(name(r));
            return;
        }
        List<Integer> pages = pagesOf(f.pages());
        // "The request gives up ownership of pages it owns (others make the record invalid)." All pages are checked
        // before anything changes.
        for (int page : pages) {
            if (!f.request().equals(owner.get(new PageKey(r.stream(), r.boot(), page)))) {
                invalid.add(name(r));
                return;
            }
        }
        // "FREE gives up ownership and nothing else: the request's page table on that stream keeps every run it had."
        // "Content is untouched."
        for (int page : pages) {
            owner.remove(new PageKey(r.stream(), r.boot(), page));
        }
    }

    private void applyXferCommit(AuditRecord r, Body.XferCommit x) {
        // "TRANSFER_COVERAGE_GAP: XFER_COMMIT with covered_tokens < claimed_tokens" (per request)
        if (x.coveredTokens() < x.claimedTokens()) {
            raise(single(r, "TRANSFER_COVERAGE_GAP", x.request()));
        }
        // "TRANSFER_CHECKSUM_MISMATCH: XFER_COMMIT with checksum_ok: false" (per request)
        if (Boolean.FALSE.equals(x.checksumOk())) {
            raise(single(r, "TRANSFER_CHECKSUM_MISMATCH", x.request()));
        }
        // No effect on slots.
    }

    private void applyXferSend(AuditRecord r, Body.Config config, Body.XferSend x) {
        int pageSize = config.pageSize();
        List<TableEntry> table = tables.get(new TableKey(r.stream(), r.boot(), x.request()));
        long tableSize = table == null ? 0 : (long) table.size() * pageSize;
        long end = (long) x.from() + x.tokens();
        // "Positions beyond the table make the record invalid."
        if (end > tableSize) {
            invalid.add(name(r));
            return;
        }
        // "Each position q of an XFER_SEND of request S (tenant U) on stream A has an origin, taken from A's state
        // after all earlier records of A, as if S attended q"
        boolean foreign = false;
        boolean sharedForeign = false;
        WindowKey window = new WindowKey(r.stream(), r.boot(), x.request(), x.transfer());
        for (int q = x.from(); q < end; q++) {
            TableEntry entry = table.get(q / pageSize);
            // 1.3 amendment 3: "Between the two [XFER_SEND and XFER_DONE], the sent slots are in flight"
            inFlight.computeIfAbsent(window, k -> new ArrayList<>()).add(new InFlight(entry.page(), q % pageSize, q));
            Writer writer = lastWriter.get(new SlotKey(r.stream(), r.boot(), entry.page(), q % pageSize));
            // "A slot that S itself received by a sent write counts here as written by S, and one another request
            // received by a sent write counts as written by that request": the writer's request, whatever it holds
            boolean own = writer != null && writer.request().equals(x.request());  // rule 1
            boolean fpMatch = false;  // "rule 2 with an expected fingerprint comes first"
            if (entry.how() == How.SHARE && entry.expectedFp() != null) {
                String current = fingerprint.get(new PageKey(r.stream(), r.boot(), entry.page()));
                fpMatch = current != null && current.equalsIgnoreCase(entry.expectedFp());
            }
            if (!own && entry.how() == How.SHARE) {
                own = entry.expectedFp() != null ? fpMatch : writer != null && writer.tenant().equals(x.tenant());
            }
            if (writer != null && writer.received() != null && !fpMatch
                    && (!own || writer.request().equals(x.request()))) {
                // 1.3 amendment 4: "A position received and sent on again has, as origin, the origin it had where it
                // was received, through any number of hops" (S's own received slot, or another request's that rule 2
                // does not make fine; for TRANSFER_SENT_FOREIGN it stays as 1.1 says, below)
                sent.add(new Sent(x.request(), x.transfer(), q, writer.request(), writer.tenant(), false,
                        writer.transfer(), writer.received()));
            } else if (own) {
                // "the origin is S itself"
                sent.add(new Sent(x.request(), x.transfer(), q, x.request(), x.tenant()));
            } else if (writer == null) {
                sent.add(new Sent(x.request(), x.transfer(), q, null, null));  // "or never written"
            } else {
                // "the slot's last writer"
                sent.add(new Sent(x.request(), x.transfer(), q, writer.request(), writer.tenant()));
            }
            foreign |= !own;
            // Vigie's SHARED_PAGE_FOREIGN, on the sender: a position on a page it got by SHARE that is not its own
            sharedForeign |= !own && entry.how() == How.SHARE;
        }
        if (sharedForeign) {
            raise(single(r, "SHARED_PAGE_FOREIGN", x.request()));
        }
        // "TRANSFER_SENT_FOREIGN: an XFER_SEND with a position whose origin is not its request" (per request)
        if (foreign) {
            raise(single(r, "TRANSFER_SENT_FOREIGN", x.request()));
        }
    }

    private void applyFinish(Body.Finish f) {
        // "It is delivered when the reader's FINISH says delivered: true, not delivered when it says false, and
        // unknown until a FINISH is seen." Brief: TRUE if any applied FINISH says true.
        deliveredByRequest.merge(f.request(), f.delivered(), (x, y) -> x || y);
        // REJECTED_REQUEST_SERVED: "... or a FINISH with delivered: true and output_tokens > 0"
        if (f.delivered() && f.outputTokens() > 0) {
            served.add(f.request());
        }
    }

    // ================================================================== answer

    /** The findings, exposures and refused records so far, recomputed from scratch. */
    public ModelResult result() {
        TreeMap<String, ModelFinding> allFindings = new TreeMap<>(findings);
        // "REJECTED_REQUEST_SERVED: a request has ADMIT REJECT on any stream and also an ALLOC or ATTACH on any
        // stream, or a FINISH with delivered: true and output_tokens > 0" (per request).
        // "The finding carries the deployment of the request's ADMIT REJECT with the smallest (ts, stream, boot, seq)."
        Map<String, AuditRecord> smallestRejection = new HashMap<>();
        for (AuditRecord admit : rejections) {
            String request = ((Body.Admit) admit.body()).request();
            AuditRecord current = smallestRejection.get(request);
            if (current == null || RECORD_ORDER.compare(admit, current) < 0) {
                smallestRejection.put(request, admit);
            }
        }
        for (Map.Entry<String, AuditRecord> e : smallestRejection.entrySet()) {
            if (served.contains(e.getKey())) {
                ModelFinding f = single(e.getValue(), "REJECTED_REQUEST_SERVED", e.getKey());
                allFindings.put(findingKey(f), f);
            }
        }

        // v1.1: every held read against every origin its position was sent with, whatever the order they came in
        List<Judged> allJudged = new ArrayList<>(judged);
        Map<String, List<Sent>> byKey = sentByKey();
        chained = 0;
        chainedTwice = 0;
        possiblyExposedOn.clear();
        for (Held h : held) {
            List<Origin> origins = new ArrayList<>();
            originsOf(h.via(), h.viaTenant(), h.viaTransfer(), h.viaPosition(), byKey, new ArrayList<>(), origins,
                    new ArrayList<>());
            for (Origin x : origins) {
                ModelFinding where = new ModelFinding(h.deployment(), "", h.reader(), h.at(), h.stream(), h.boot(),
                        h.seq(), h.seq());
                // "1. the origin is R: fine; 2. ... SHARE without expected fingerprint, and the origin is of tenant
                // T: fine"
                if (h.reader().equals(x.request()) || x.request() != null && h.sharedWithoutFp()
                        && x.tenant().equals(h.readerTenant())) {
                    continue;
                }
                if (x.request() == null) {
                    // "3. the origin is never written: UNINITIALIZED_READ"
                    raiseInto(allFindings, where, "UNINITIALIZED_READ");
                    continue;
                }
                // "4. the origin V is of another tenant: a cross-tenant exposure ...; 5. otherwise: intra-tenant";
                // 1.3: "An exposure that only such a writer gives is possible ...: its reader request raises
                // TRANSFER_OVERWRITTEN_IN_FLIGHT ... CROSS_TENANT_READ and INTRA_TENANT_READ are raised by certain
                // exposures only"
                boolean cross = !x.tenant().equals(h.readerTenant());
                raiseInto(allFindings, where, x.possible() ? "TRANSFER_OVERWRITTEN_IN_FLIGHT"
                        : cross ? "CROSS_TENANT_READ" : "INTRA_TENANT_READ");
                allJudged.add(new Judged(h.deployment(), h.reader(), h.readerTenant(), x.request(),
                        x.tenant(), h.position(), h.at(), h.stream(), h.boot(), h.seq(), x.possible()));
                if (x.hops() > 0) {
                    chained++;
                }
                if (x.hops() > 1) {
                    chainedTwice++;
                }
                if (x.possible()) {
                    possiblyExposedOn.add(h.stream());
                }
            }
        }

        // "An exposure is the set of positions judged (4) or (5) for one (reader, victim) pair, over every ATTACH of
        // the reader, each position counted once: tokens = its size." Clarification: "the size of the union over all
        // streams and all ATTACHes". Brief: keyed by (deployment of the ATTACH, reader, victim).
        Map<String, List<Judged>> byPair = new TreeMap<>();
        for (Judged j : allJudged) {
            byPair.computeIfAbsent(j.deployment() + "|" + j.reader() + "|" + j.victim(), k -> new ArrayList<>()).add(j);
        }
        TreeMap<String, ModelExposure> exposures = new TreeMap<>();
        for (Map.Entry<String, List<Judged>> e : byPair.entrySet()) {
            List<Judged> list = e.getValue();
            Set<Integer> positions = new HashSet<>();
            Judged first = list.get(0);
            // "a reader's exposure of a victim is certain as soon as one position of it is"
            boolean possible = true;
            // amendment 7: "every ATTACH that judges at least one received position an exposure counts, not only the
            // first" (last_exposure_at, api.md)
            Instant last = list.get(0).at();
            for (Judged j : list) {
                positions.add(j.position());
                possible &= j.possible();
                last = j.at().isAfter(last) ? j.at() : last;
                if (JUDGED_ORDER.compare(j, first) < 0) {
                    first = j;
                }
            }
            // kind: CROSS_TENANT when the victim's tenant differs from the reader's.
            String kind = first.victimTenant().equals(first.readerTenant()) ? "INTRA_TENANT" : "CROSS_TENANT";
            // "Unknown delivery is null. Until a FINISH of the reader has been applied, delivered is null."
            Boolean delivered = deliveredByRequest.get(first.reader());
            exposures.put(e.getKey(), new ModelExposure(first.deployment(), kind, first.reader(),
                    first.readerTenant(), first.victim(), first.victimTenant(), positions.size(), first.at(),
                    last, delivered, possible));
        }
        return new ModelResult(allFindings, exposures, new TreeSet<>(late), new TreeSet<>(conflicts),
                new TreeSet<>(invalid));
    }

    // ================================================================== helpers

    /** A finding raised by one record: firstSeq = lastSeq = its seq, at = its ts, deployment = its deployment. */
    private static ModelFinding single(AuditRecord r, String rule, String subject) {
        return new ModelFinding(r.deployment(), rule, subject, r.ts(), r.stream(), r.boot(), r.seq(), r.seq());
    }

    /** Findings are unique per (deployment, rule, subject); the smallest (at, stream, boot, firstSeq) is kept. */
    private void raise(ModelFinding f) {
        String key = findingKey(f);
        ModelFinding current = findings.get(key);
        if (current == null || EVIDENCE_ORDER.compare(f, current) < 0) {
            findings.put(key, f);
        }
    }

    /** {@link #raise} into a result being built: the place of {@code where}, the rule given. */
    private static void raiseInto(Map<String, ModelFinding> into, ModelFinding where, String rule) {
        ModelFinding f = new ModelFinding(where.deployment(), rule, where.subject(), where.at(), where.stream(),
                where.boot(), where.firstSeq(), where.lastSeq());
        ModelFinding current = into.get(findingKey(f));
        if (current == null || EVIDENCE_ORDER.compare(f, current) < 0) {
            into.put(findingKey(f), f);
        }
    }

    private static String findingKey(ModelFinding f) {
        return f.deployment() + "|" + f.rule() + "|" + f.subject();
    }

    private static boolean allInPool(List<PageRun> runs, Body.Config config) {
        for (PageRun run : runs) {
            if (run.end() > config.poolPages()) {
                return false;
            }
        }
        return true;
    }

    /** The pages of the runs, one by one, in logical order. */
    private static List<Integer> pagesOf(List<PageRun> runs) {
        List<Integer> pages = new ArrayList<>();
        for (PageRun run : runs) {
            for (long page = run.first(); page < run.end(); page++) {
                pages.add((int) page);
            }
        }
        return pages;
    }

    private static String name(AuditRecord r) {
        return r.stream() + "|" + r.boot() + "|" + r.seq();
    }
}
