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
 * {@code TABLE_EVICTED} (what was written to its slots in flight was not watched to the end). An engine that never
 * writes {@code XFER_DONE} costs one array lookup per write and this bounded memory.
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
        /** Sent pieces, each within one pool page: {first position, pool page, first offset in the page, length}. */
        final List<int[]> pieces = new ArrayList<>();
        /** Writes by other requests to the sent slots while in flight, as positions of the send. */
        final List<TransferSend.Origin> writes = new ArrayList<>();
        int from = Integer.MAX_VALUE;
        int to;

        Window(String request, String transfer) {
            this.request = request;
            this.transfer = transfer;
        }

        int entries() {
            return pieces.size() + writes.size();
        }
    }

    final LinkedHashMap<String, Window> open = new LinkedHashMap<>();
    /** Per pool page, how many open windows' pieces are on it (null until the first send). */
    int[] watched;
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
        if (watched == null) {
            watched = new int[poolPages];
        }
        Window w = open.computeIfAbsent(key(request, transfer), k -> new Window(request, transfer));
        w.pieces.add(new int[] {from, page, offset, len});
        w.from = Math.min(w.from, from);
        w.to = Math.max(w.to, from + len);
        watched[page]++;
        entries++;
    }

    /** Whether page {@code page} holds slots of a send in flight. */
    boolean watches(int page) {
        return watched != null && watched[page] > 0;
    }

    /** Request {@code writer} of {@code tenant} wrote offsets [from, to) of page {@code page}. */
    void written(int page, int from, int to, String writer, String tenant) {
        for (Window w : open.values()) {
            if (w.request.equals(writer)) {
                continue;  // the sender's own write: its content, whatever the transport read
            }
            for (int[] p : w.pieces) {
                if (p[1] != page) {
                    continue;
                }
                int x = Math.max(from, p[2]);
                int y = Math.min(to, p[2] + p[3]);
                if (x < y) {
                    record(w, p[0] + x - p[2], p[0] + y - p[2], writer, tenant);
                }
            }
        }
    }

    private void record(Window w, int from, int to, String writer, String tenant) {
        if (!w.writes.isEmpty()) {
            TransferSend.Origin last = w.writes.get(w.writes.size() - 1);
            if (last.request().equals(writer) && last.from() <= to && from <= last.to()) {
                w.writes.set(w.writes.size() - 1, new TransferSend.Origin(Math.min(from, last.from()),
                        Math.max(to, last.to()), writer, tenant));
                return;
            }
        }
        w.writes.add(new TransferSend.Origin(from, to, writer, tenant));
        entries++;
    }

    /** Closes the window of (request, transfer): returns it, or null when none is open. */
    Window close(String request, String transfer) {
        Window w = open.remove(key(request, transfer));
        if (w != null) {
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
        for (int[] p : w.pieces) {
            watched[p[1]]--;
        }
        entries -= w.entries();
    }

    /** Everything forgotten (a new CONFIG). */
    void clear() {
        open.clear();
        watched = null;
        entries = 0;
        dropped = new StreamDetector.LongSet();
        droppedBefore = new StreamDetector.LongSet();
    }

    /** What the open windows take, estimated. */
    long bytes() {
        return (long) ENTRY_BYTES * entries + (watched == null ? 0 : 4L * watched.length);
    }
}
