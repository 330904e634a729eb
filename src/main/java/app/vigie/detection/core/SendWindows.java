package app.vigie.detection.core;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Spec 1.3, amendment 3, on one (stream, boot): the sends in flight, each from its {@code XFER_SEND} to its
 * {@code XFER_DONE} (a send window per request and transfer), and the writes other requests made to their slots
 * meanwhile. Plain data, driven by {@link StreamDetector}.
 *
 * <p>A log cannot say in advance whether its engine writes {@code XFER_DONE} (an engine whose transport sends at the
 * {@code XFER_SEND} never does), so every send opens a window and the windows are bounded: past {@link #MAX_ENTRIES}
 * sent pieces and recorded writes, the oldest windows are dropped, and a later {@code XFER_DONE} of one raises
 * {@code TABLE_EVICTED} (what was written to its slots in flight was not watched to the end).
 *
 * <p>A write to a watched page is logged on that page (stamped), not matched against the page's sends: an engine that
 * never writes {@code XFER_DONE} leaves every page watched by many old windows, and matching each write against all of
 * them was most of spec 1.3's cost on such logs (JFR, 2026-12-07). The matching happens once per window, when it
 * closes ({@link #close}), in the writes' order, so that a window's writes are what matching at each write gave.
 * The logs are part of a snapshot (format 9), so that a detector restored from one holds the same entries as the one
 * that took it and bounds its windows the same way. An engine that never writes {@code XFER_DONE} costs one array
 * lookup and one appended entry per write to a sent page, and this bounded memory.
 */
final class SendWindows {
    /** The most sent pieces (one per page a send covers) and recorded writes all open windows of a boot may hold. */
    static final int MAX_ENTRIES = 1 << 16;
    /** Bytes one entry is estimated to take (an int[] of 4 or an Origin, and the list's slot). */
    static final int ENTRY_BYTES = 48;
    /** How many dropped windows are remembered (their keys' hashes), in two generations. */
    private static final int REMEMBERED = 1 << 14;

    /** One transfer of one request in flight. */
    static final class Window {
        final String request;
        final String transfer;
        /** Sent pieces, each within one pool page. */
        final List<Piece> pieces = new ArrayList<>();
        /** Writes by other requests to the sent slots while in flight, as positions of the send. */
        final List<Write> writes = new ArrayList<>();
        int from = Integer.MAX_VALUE;
        int to;

        Window(String request, String transfer) {
            this.request = request;
            this.transfer = transfer;
        }

        int entries() {
            return pieces.size() + writes.size();
        }

        /** The writes as origins, in position order (then writer): what {@code XFER_DONE} tells. */
        List<TransferSend.Origin> origins() {
            List<TransferSend.Origin> out = new ArrayList<>(writes.size());
            for (Write x : writes) {
                out.add(new TransferSend.Origin(x.from, x.to, x.request, x.tenant));
            }
            out.sort((a, b) -> a.from() != b.from() ? Integer.compare(a.from(), b.from())
                    : Rule.compareIds(a.request(), b.request()));
            return out;
        }
    }

    /** Positions [from, from + len) of a window, at offsets [offset, offset + len) of pool page {@code page}. */
    static final class Piece {
        final Window window;
        final int from;
        final int page;
        final int offset;
        final int len;
        /** The {@link #stamp} when it was sent: its page's writes logged after it count. */
        long since;

        Piece(Window window, int from, int page, int offset, int len) {
            this.window = window;
            this.from = from;
            this.page = page;
            this.offset = offset;
            this.len = len;
        }
    }

    /** Positions [from, to) of a window written by {@code request} while in flight (grows while it writes on). */
    static final class Write {
        int from;
        int to;
        final String request;
        final String tenant;

        Write(int from, int to, String request, String tenant) {
            this.from = from;
            this.to = to;
            this.request = request;
            this.tenant = tenant;
        }
    }

    /** One write to a watched page: offsets [from, to) by {@code writer}, the {@code stamp}-th such write. */
    record Logged(long stamp, int from, int to, String writer, String tenant) {
    }

    final LinkedHashMap<String, Window> open = new LinkedHashMap<>();
    /** How many writes to watched pages were logged in this boot. */
    long stamp;
    /** Per pool page, the writes to it while watched, in stamp order (null when none is kept). */
    List<Logged>[] logs;
    /** Per pool page, the pieces of open windows on it (null until the first send; an entry null when none). */
    List<Piece>[] byPage;
    int entries;
    StreamDetector.LongSet dropped = new StreamDetector.LongSet();
    StreamDetector.LongSet droppedBefore = new StreamDetector.LongSet();

    static String key(String request, String transfer) {
        return request + "\u0000" + transfer;
    }

    boolean isEmpty() {
        return open.isEmpty();
    }

    /** Positions [from, from + len) of a send of {@code request} by {@code transfer} are on page {@code page}. */
    void sent(String request, String transfer, int poolPages, int from, int page, int offset, int len) {
        Window w = open.computeIfAbsent(key(request, transfer), k -> new Window(request, transfer));
        add(new Piece(w, from, page, offset, len), poolPages);
        w.from = Math.min(w.from, from);
        w.to = Math.max(w.to, from + len);
    }

    /** Adds a piece to its window and to its page's list. */
    void add(Piece p, int poolPages) {
        pages(poolPages);
        p.since = stamp;
        p.window.pieces.add(p);
        List<Piece> on = byPage[p.page];
        if (on == null) {
            on = new ArrayList<>(2);
            byPage[p.page] = on;
        }
        on.add(p);
        entries++;
    }

    /** The per-page arrays, made at the first send (or restored log) of the boot. */
    @SuppressWarnings("unchecked")
    private void pages(int poolPages) {
        if (byPage == null) {
            byPage = new List[poolPages];
            logs = new List[poolPages];
        }
    }

    /** Whether page {@code page} holds slots of a send in flight. */
    boolean watches(int page) {
        return byPage != null && byPage[page] != null;
    }

    /** Request {@code writer} of {@code tenant} wrote offsets [from, to) of page {@code page}. */
    void written(int page, int from, int to, String writer, String tenant) {
        List<Logged> log = logs[page];
        if (log == null) {
            log = new ArrayList<>(4);
            logs[page] = log;
        }
        log.add(new Logged(++stamp, from, to, writer, tenant));
        entries++;
    }

    /**
     * Moves into {@code w}'s writes what other requests wrote to its slots since each piece was sent, in the order they
     * wrote, each write's pieces in the window's order.
     */
    private void settle(Window w) {
        List<long[]> hits = new ArrayList<>();  // stamp, piece index, log index
        for (int i = 0; i < w.pieces.size(); i++) {
            Piece p = w.pieces.get(i);
            List<Logged> log = logs[p.page];
            if (log == null) {
                continue;
            }
            for (int k = log.size() - 1; k >= 0 && log.get(k).stamp() > p.since; k--) {
                Logged l = log.get(k);
                if (!l.writer().equals(w.request)
                        && Math.max(l.from(), p.offset) < Math.min(l.to(), p.offset + p.len)) {
                    hits.add(new long[] {l.stamp(), i, k});  // another request's write: what the transport may read
                }
            }
        }
        hits.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        for (long[] h : hits) {
            Piece p = w.pieces.get((int) h[1]);
            Logged l = logs[p.page].get((int) h[2]);
            int x = Math.max(l.from(), p.offset);
            int y = Math.min(l.to(), p.offset + p.len);
            record(w, p.from + x - p.offset, p.from + y - p.offset, l.writer(), l.tenant());
        }
    }

    /** Restores the log of {@code page} from a snapshot. */
    void restoreLog(int page, List<Logged> log, int poolPages) {
        pages(poolPages);
        logs[page] = new ArrayList<>(log);
        entries += log.size();
    }

    private void record(Window w, int from, int to, String writer, String tenant) {
        if (!w.writes.isEmpty()) {
            Write last = w.writes.get(w.writes.size() - 1);
            if (last.request.equals(writer) && last.from <= to && from <= last.to) {
                last.from = Math.min(from, last.from);
                last.to = Math.max(to, last.to);
                return;
            }
        }
        w.writes.add(new Write(from, to, writer, tenant));
        entries++;
    }

    /** Closes the window of (request, transfer): returns it, or null when none is open. */
    Window close(String request, String transfer) {
        Window w = open.remove(key(request, transfer));
        if (w != null) {
            settle(w);
            release(w);
        }
        return w;
    }

    /** Whether a window of (request, transfer) was dropped to stay within {@link #MAX_ENTRIES}. */
    boolean wasDropped(String request, String transfer) {
        long h = StreamDetector.hash(key(request, transfer));
        return dropped.contains(h) || droppedBefore.contains(h);
    }

    /** Drops the oldest windows until the open ones hold at most {@code limit} entries. */
    void bound(int limit) {
        Iterator<Map.Entry<String, Window>> it = open.entrySet().iterator();
        while (entries > limit && it.hasNext()) {
            Window w = it.next().getValue();
            it.remove();
            release(w);
            if (dropped.size() >= REMEMBERED) {
                droppedBefore = dropped;
                dropped = new StreamDetector.LongSet();
            }
            dropped.add(StreamDetector.hash(key(w.request, w.transfer)));
        }
    }

    private void release(Window w) {
        for (Piece p : w.pieces) {
            List<Piece> on = byPage[p.page];
            on.remove(p);
            if (on.isEmpty()) {
                byPage[p.page] = null;
            }
        }
        entries -= w.entries();
        for (Piece p : w.pieces) {
            prune(p.page);
        }
    }

    /** Forgets the writes logged on {@code page} that no piece still on it can count (logged before all of them). */
    private void prune(int page) {
        List<Logged> log = logs[page];
        if (log == null) {
            return;
        }
        long oldest = Long.MAX_VALUE;
        if (byPage[page] != null) {
            for (Piece p : byPage[page]) {
                oldest = Math.min(oldest, p.since);
            }
        }
        int n = 0;
        while (n < log.size() && log.get(n).stamp() <= oldest) {
            n++;
        }
        if (n == log.size()) {
            logs[page] = null;
        } else if (n > 0) {
            log.subList(0, n).clear();
        }
        entries -= n;
    }

    /** Everything forgotten (a new CONFIG). */
    void clear() {
        open.clear();
        byPage = null;
        logs = null;
        stamp = 0;
        entries = 0;
        dropped = new StreamDetector.LongSet();
        droppedBefore = new StreamDetector.LongSet();
    }

    /** What the open windows take, estimated. */
    long bytes() {
        return (long) ENTRY_BYTES * entries + (byPage == null ? 0 : 16L * byPage.length);
    }
}
