package app.vigie.detection.core;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link StreamDetector}'s whole state as bytes and back, so that a detector rebuilt after a restart or an eviction
 * continues exactly where it was. The format has a version; a snapshot of another version is refused (the detector
 * is then rebuilt from the stored records).
 */
public final class DetectorSnapshotCodec {
    private DetectorSnapshotCodec() {
    }

    /** Writes the whole state of {@code d}, so that {@link #read} continues exactly where it is. */
    static void write(StreamDetector d, DataOutputStream out) throws IOException {
        out.writeInt(StreamDetector.SNAPSHOT_VERSION);
        out.writeUTF(d.stream);
        out.writeUTF(d.boot);
        writeNullable(out, d.deployment);
        out.writeLong(d.lastSeq);
        out.writeLong(d.judged);
        out.writeLong(d.lostFrom);
        out.writeLong(d.lostTo);
        Finding u = d.unsupportedFinding;
        out.writeBoolean(u != null);
        if (u != null) {
            out.writeUTF(d.unsupported);
            writeNullable(out, u.deployment());
            out.writeLong(u.at().getEpochSecond());
            out.writeInt(u.at().getNano());
            out.writeLong(u.evidence().firstSeq());
            out.writeUTF(u.evidence().detail());
        }
        out.writeBoolean(d.configured);
        if (!d.configured) {
            return;
        }
        out.writeInt(d.declared);
        out.writeInt(d.pageSize);
        out.writeInt(d.poolPages);
        writeInts(out, d.slots, d.slots.length);
        writeInts(out, d.owner, d.owner.length);
        for (long fp : d.pageFp) {
            out.writeLong(fp);
        }
        writeLongs(out, d.fpKnown.toLongArray());
        out.writeInt(d.tenants.size());
        for (Map.Entry<String, Integer> t : d.tenants.entrySet()) {
            out.writeUTF(t.getKey());
            out.writeInt(t.getValue());
        }
        out.writeInt(d.nextId);
        writeInts(out, d.freeIds, d.freeCount);
        int live = 0;
        for (int id = 1; id < d.nextId && id < d.writers.length; id++) {
            live += d.writers[id] == null ? 0 : 1;
        }
        out.writeInt(live);
        for (int id = 1; id < d.nextId && id < d.writers.length; id++) {
            StreamDetector.Writer w = d.writers[id];
            if (w != null) {
                out.writeInt(id);
                out.writeUTF(w.request);
                out.writeInt(w.tenantId);
                out.writeLong(w.refs);
                out.writeBoolean(w.sent);
                if (w.sent) {
                    out.writeUTF(w.transfer);
                    StreamDetector.IntIntMap m = w.logicalPages;
                    out.writeInt(m.size);
                    for (int i = 0; i < m.keys.length; i++) {
                        if (m.used[i]) {
                            out.writeInt(m.keys[i]);
                            out.writeInt(m.values[i]);
                        }
                    }
                    Map<Integer, int[]> positions = w.slotPositions == null ? Map.of() : w.slotPositions;
                    out.writeInt(positions.size());
                    for (Map.Entry<Integer, int[]> e : positions.entrySet()) {
                        out.writeInt(e.getKey());
                        writeInts(out, e.getValue(), e.getValue().length);
                    }
                }
            }
        }
        // tables in use first (any order), then the freed ones oldest first, so that restoring keeps the eviction order
        List<StreamDetector.RequestState> inUse = new ArrayList<>();
        for (StreamDetector.RequestState q : d.requests.values()) {
            if (!q.compact()) {
                inUse.add(q);
            }
        }
        out.writeInt(inUse.size());
        for (StreamDetector.RequestState q : inUse) {
            out.writeInt(q.id);
            writeInts(out, q.table, q.pages);
            out.write(q.kind, 0, q.pages);
            for (int i = 0; i < q.pages; i++) {
                out.writeLong(q.expected[i]);
            }
            out.writeInt(q.owned);
            out.writeBoolean(q.done);
            int[] sent = q.sentIds == null ? new int[0] : q.sentIds;
            writeInts(out, sent, sent.length);
        }
        out.writeInt(d.keptCount);
        for (StreamDetector.RequestState q = d.oldestKept; q != null; q = q.newer) {
            out.writeInt(q.id);
            out.writeInt(q.pages);
            writeInts(out, q.runs, q.runs.length);
            out.writeBoolean(q.runKinds != null);
            if (q.runKinds != null) {
                out.write(q.runKinds);
            }
            writeLongs(out, q.runFps == null ? new long[0] : q.runFps);
            out.writeInt(q.keptBytes);
            int[] sent = q.sentIds == null ? new int[0] : q.sentIds;
            writeInts(out, sent, sent.length);
        }
        out.writeLong(d.keptTablesBudget);
        writeLongs(out, d.evicted.values());
        writeLongs(out, d.evictedBefore.values());
        out.writeLong(d.forgottenEvictions);
        writeWindows(d.windows, out);
    }

    private static int[] sentIds(int[] ids) {
        return ids.length == 0 ? null : ids;
    }

    /** A detector in the state {@link #write} wrote; a snapshot of another version is refused. */
    static StreamDetector read(DataInputStream in, DetectorLimits.PoolBudget budget) throws IOException {
        int version = in.readInt();
        if (version != StreamDetector.SNAPSHOT_VERSION) {
            throw new IOException("snapshot version " + version + " is not " + StreamDetector.SNAPSHOT_VERSION);
        }
        StreamDetector d = new StreamDetector(in.readUTF(), in.readUTF());
        d.deployment = readNullable(in);
        d.lastSeq = in.readLong();
        d.judged = in.readLong();
        d.lostFrom = in.readLong();
        d.lostTo = in.readLong();
        if (in.readBoolean()) {
            d.unsupported = in.readUTF();
            String deployment = readNullable(in);
            Instant at = Instant.ofEpochSecond(in.readLong(), in.readInt());
            long seq = in.readLong();
            d.unsupportedFinding = new Finding(Rule.STREAM_UNSUPPORTED, deployment, d.stream + "@" + d.boot, at,
                    new Finding.Evidence(d.stream, d.boot, seq, seq, in.readUTF()));
        }
        d.configured = in.readBoolean();
        if (!d.configured) {
            return d;
        }
        d.declared = in.readInt();
        d.pageSize = in.readInt();
        d.poolPages = in.readInt();
        int slotCount = in.readInt();
        if (d.pageSize <= 0 || d.poolPages <= 0 || slotCount != (long) d.pageSize * d.poolPages) {
            throw new IOException("snapshot of " + slotCount + " slots for " + d.poolPages + " pages of "
                    + d.pageSize);
        }
        String refused = budget.allocate(DetectorLimits.poolBytes(slotCount, d.poolPages),
                () -> d.slots = new int[slotCount]);
        if (refused != null) {
            throw new IOException("its pool is refused: " + refused);
        }
        for (int i = 0; i < slotCount; i++) {
            d.slots[i] = in.readInt();
        }
        d.summarizePages();
        d.owner = readInts(in);
        d.pageFp = new long[d.poolPages];
        for (int i = 0; i < d.poolPages; i++) {
            d.pageFp[i] = in.readLong();
        }
        d.fpKnown = BitSet.valueOf(readLongs(in));
        int tenantCount = in.readInt();
        for (int i = 0; i < tenantCount; i++) {
            String t = in.readUTF();
            int id = in.readInt();
            d.tenants.put(t, id);
            if (id >= d.tenantNames.length) {
                d.tenantNames = Arrays.copyOf(d.tenantNames, Integer.highestOneBit(id) * 2);
            }
            d.tenantNames[id] = t;
        }
        d.nextId = in.readInt();
        d.freeIds = readInts(in);
        d.freeCount = d.freeIds.length;
        d.freeIds = Arrays.copyOf(d.freeIds, Math.max(64, d.freeCount));
        d.writers = new StreamDetector.Writer[Math.max(64, Integer.highestOneBit(Math.max(1, d.nextId)) * 2)];
        int live = in.readInt();
        for (int i = 0; i < live; i++) {
            int id = in.readInt();
            String request = in.readUTF();
            int tenantId = in.readInt();
            long refs = in.readLong();
            boolean sent = in.readBoolean();
            StreamDetector.Writer w = new StreamDetector.Writer(request, d.tenantNames[tenantId], tenantId,
                    sent ? in.readUTF() : null);
            w.refs = refs;
            if (sent) {
                int pages = in.readInt();
                for (int k = 0; k < pages; k++) {
                    w.logicalPages.put(in.readInt(), in.readInt());
                }
                int ambiguous = in.readInt();
                if (ambiguous > 0) {
                    w.slotPositions = new HashMap<>();
                    for (int k = 0; k < ambiguous; k++) {
                        w.slotPositions.put(in.readInt(), readInts(in));
                    }
                }
                w.charged = (long) StreamDetector.RECEIVED_PAGE_BYTES * pages
                        + ambiguous * (64 + 4L * d.pageSize);
                d.receivedBytes += w.charged;
            }
            d.writers[id] = w;
        }
        int inUse = in.readInt();
        for (int i = 0; i < inUse; i++) {
            StreamDetector.RequestState q = state(d, in.readInt());
            int[] table = readInts(in);
            q.pages = table.length;
            q.table = Arrays.copyOf(table, Math.max(8, table.length));
            q.kind = Arrays.copyOf(in.readNBytes(table.length), Math.max(8, table.length));
            q.expected = new long[Math.max(8, table.length)];
            for (int k = 0; k < table.length; k++) {
                q.expected[k] = in.readLong();
            }
            q.owned = in.readInt();
            q.done = in.readBoolean();
            q.sentIds = sentIds(readInts(in));
            d.tableEntries += q.table.length;
        }
        int kept = in.readInt();
        for (int i = 0; i < kept; i++) {
            StreamDetector.RequestState q = state(d, in.readInt());
            q.pages = in.readInt();
            q.table = null;
            q.kind = null;
            q.expected = null;
            q.runs = readInts(in);
            q.runKinds = in.readBoolean() ? in.readNBytes(q.runs.length / 2) : null;
            long[] fps = readLongs(in);
            q.runFps = fps.length == 0 ? null : fps;
            q.keptBytes = in.readInt();
            q.sentIds = sentIds(readInts(in));
            q.done = true;
            d.keptBytes += q.keptBytes;
            d.keptCount++;
            q.older = d.newestKept;
            if (d.newestKept != null) {
                d.newestKept.newer = q;
            } else {
                d.oldestKept = q;
            }
            d.newestKept = q;
        }
        d.keptTablesBudget = in.readLong();
        for (long h : readLongs(in)) {
            d.evicted.add(h);
        }
        for (long h : readLongs(in)) {
            d.evictedBefore.add(h);
        }
        d.forgottenEvictions = in.readLong();
        readWindows(d, in);
        return d;
    }

    /** The send windows in flight (spec 1.3, amendment 3), oldest first, and the dropped ones remembered. */
    private static void writeWindows(SendWindows sw, DataOutputStream out) throws IOException {
        out.writeInt(sw.open.size());
        for (SendWindows.Window w : sw.open.values()) {
            out.writeUTF(w.request);
            out.writeUTF(w.transfer);
            out.writeInt(w.from);
            out.writeInt(w.to);
            out.writeInt(w.pieces.size());
            for (SendWindows.Piece p : w.pieces) {
                out.writeInt(p.from);
                out.writeInt(p.page);
                out.writeInt(p.offset);
                out.writeInt(p.len);
                out.writeLong(p.since);
            }
            out.writeInt(w.writes.size());
            for (SendWindows.Write o : w.writes) {
                out.writeInt(o.from);
                out.writeInt(o.to);
                out.writeUTF(o.request);
                out.writeUTF(o.tenant);
            }
        }
        // the writes logged on watched pages, not matched yet (format 9)
        out.writeLong(sw.stamp);
        int logged = 0;
        for (int page = 0; sw.logs != null && page < sw.logs.length; page++) {
            logged += sw.logs[page] == null ? 0 : 1;
        }
        out.writeInt(logged);
        for (int page = 0; sw.logs != null && page < sw.logs.length; page++) {
            if (sw.logs[page] != null) {
                out.writeInt(page);
                out.writeInt(sw.logs[page].size());
                for (SendWindows.Logged l : sw.logs[page]) {
                    out.writeLong(l.stamp());
                    out.writeInt(l.from());
                    out.writeInt(l.to());
                    out.writeUTF(l.writer());
                    out.writeUTF(l.tenant());
                }
            }
        }
        writeLongs(out, sw.dropped.values());
        writeLongs(out, sw.droppedBefore.values());
    }

    private static void readWindows(StreamDetector d, DataInputStream in) throws IOException {
        SendWindows sw = d.windows;
        int count = in.readInt();
        for (int i = 0; i < count; i++) {
            SendWindows.Window w = new SendWindows.Window(in.readUTF(), in.readUTF());
            w.from = in.readInt();
            w.to = in.readInt();
            int pieces = in.readInt();
            for (int k = 0; k < pieces; k++) {
                int from = in.readInt();
                int page = in.readInt();
                int offset = in.readInt();
                int len = in.readInt();
                if (page < 0 || page >= d.poolPages) {
                    throw new IOException("send window on page " + page + " of a pool of " + d.poolPages);
                }
                SendWindows.Piece piece = new SendWindows.Piece(w, from, page, offset, len);
                sw.add(piece, d.poolPages);
                piece.since = in.readLong();
            }
            int writes = in.readInt();
            for (int k = 0; k < writes; k++) {
                w.writes.add(new SendWindows.Write(in.readInt(), in.readInt(), in.readUTF(), in.readUTF()));
            }
            sw.entries += writes;
            sw.open.put(SendWindows.key(w.request, w.transfer), w);
        }
        sw.stamp = in.readLong();
        int logged = in.readInt();
        for (int i = 0; i < logged; i++) {
            int page = in.readInt();
            if (page < 0 || page >= d.poolPages) {
                throw new IOException("logged write on page " + page + " of a pool of " + d.poolPages);
            }
            int n = in.readInt();
            List<SendWindows.Logged> log = new ArrayList<>(n);
            for (int k = 0; k < n; k++) {
                log.add(new SendWindows.Logged(in.readLong(), in.readInt(), in.readInt(), in.readUTF(), in.readUTF()));
            }
            sw.restoreLog(page, log, d.poolPages);
        }
        for (long h : readLongs(in)) {
            sw.dropped.add(h);
        }
        for (long h : readLongs(in)) {
            sw.droppedBefore.add(h);
        }
    }

    /** The table of writer {@code id} of {@code d}, created while restoring. */
    private static StreamDetector.RequestState state(StreamDetector d, int id) {
        StreamDetector.Writer w = d.writers[id];
        StreamDetector.RequestState q = new StreamDetector.RequestState(w.request, w.tenant, w.tenantId, id);
        w.state = q;
        d.requests.put(q.request, q);
        return q;
    }

    private static void writeInts(DataOutputStream out, int[] values, int count) throws IOException {
        out.writeInt(count);
        for (int i = 0; i < count; i++) {
            out.writeInt(values[i]);
        }
    }

    private static int[] readInts(DataInputStream in) throws IOException {
        int[] values = new int[in.readInt()];
        for (int i = 0; i < values.length; i++) {
            values[i] = in.readInt();
        }
        return values;
    }

    private static void writeLongs(DataOutputStream out, long[] values) throws IOException {
        out.writeInt(values.length);
        for (long v : values) {
            out.writeLong(v);
        }
    }

    private static long[] readLongs(DataInputStream in) throws IOException {
        long[] values = new long[in.readInt()];
        for (int i = 0; i < values.length; i++) {
            values[i] = in.readLong();
        }
        return values;
    }

    private static void writeNullable(DataOutputStream out, String s) throws IOException {
        out.writeBoolean(s != null);
        if (s != null) {
            out.writeUTF(s);
        }
    }

    private static String readNullable(DataInputStream in) throws IOException {
        return in.readBoolean() ? in.readUTF() : null;
    }
}
