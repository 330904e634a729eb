package app.vigie.detection.core;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import app.vigie.detection.core.TransferSend.Origin;

/**
 * Spec v1.1, "Provenance through transfers": a read of slots a transfer wrote is judged against the origin of each
 * position as its sender saw it when it sent it, not against the receiving request. {@link #join} judges one read
 * against one send of the same request and transfer (spec 1.3, amendment 2: a retry, or a send to another receiver,
 * is another transfer and names no victim here); joining every read with every such send, in any order, gives the same exposures and
 * findings (they merge by union and by earliest occurrence), so the two streams may be read in any order.
 *
 * <p>An instance holds reads and sends in memory and joins each newcomer with what it has: the {@code validate}
 * command and the tests use it; the service keeps both in PostgreSQL and joins there ({@code TransferStore}).
 */
public final class Provenance {
    /** By {@link TransferRead#transferKey()} and {@link TransferSend#transferKey()}: request and transfer id. */
    private final Map<String, List<TransferRead>> readsByVia = new HashMap<>();
    private final Map<String, List<TransferSend>> sendsByRequest = new HashMap<>();
    private final Map<String, TransferRead> seenReads = new HashMap<>();
    /** Reads resolved at a flush (amendment 5), by key: the via positions no send covered then. */
    private final Map<String, List<int[]>> resolved = new HashMap<>();

    /**
     * A read: judged against every send of its request known so far. The same read made again (a later ATTACH,
     * another tensor-parallel rank) is one read, at its earliest occurrence and until its latest: an occurrence that
     * moves either end is judged again, so that first sight, last sight and evidence do not depend on the order
     * streams are read in.
     */
    public void read(TransferRead r, DetectionSink sink) {
        TransferRead known = seenReads.get(r.key());
        TransferRead merged = known == null ? r : known.merge(r);
        if (merged.equals(known)) {
            return;
        }
        seenReads.put(r.key(), merged);
        List<TransferRead> list = readsByVia.computeIfAbsent(r.transferKey(), k -> new ArrayList<>());
        if (known != null) {
            list.remove(known);
        }
        list.add(merged);
        for (TransferSend s : sendsByRequest.getOrDefault(r.transferKey(), List.of())) {
            join(merged, s, sink);
        }
        List<int[]> fellBack = resolved.get(r.key());
        if (fellBack != null) {
            fallback(merged, fellBack, sink);  // a later ATTACH of a read resolved at a flush counts too (Q18)
        }
    }

    /**
     * Spec 1.3, amendment 5: a flush (explicit, or the stream-gap timeout) resolves every read that some position no
     * send of its transfer covers yet, once: those positions are judged as in version 1 ({@link #fallback}). A send
     * that comes later still joins: exposures only grow. Returns how many reads were resolved.
     */
    public int flush(DetectionSink sink) {
        int n = 0;
        for (List<TransferRead> list : readsByVia.values()) {
            for (TransferRead r : list) {
                if (resolved.containsKey(r.key())) {
                    continue;
                }
                List<int[]> held = uncoveredRanges(r, sendsByRequest.getOrDefault(r.transferKey(), List.of()));
                if (!held.isEmpty()) {
                    resolved.put(r.key(), held);
                    fallback(r, held, sink);
                    n++;
                }
            }
        }
        return n;
    }

    /**
     * Spec 1.3, amendment 5: via positions {@code viaRanges} of read {@code r} ([from, to) pairs), which no send of its
     * transfer covered when the log was flushed, judged as in version 1: the receiving request is their last writer
     * (its own content back to it, or a cache shared within its tenant without fingerprint, is fine; otherwise an
     * exposure of the receiving request to the reader), and the receiving request raises TRANSFER_SEND_MISSING at the
     * reader's ATTACH.
     */
    public static void fallback(TransferRead r, List<int[]> viaRanges, DetectionSink sink) {
        Positions positions = new Positions();
        int missing = 0;
        for (int[] range : viaRanges) {
            positions.addRun(r.readerFrom() + (range[0] - r.viaFrom()), r.readerFrom() + (range[1] - r.viaFrom()));
            missing += range[1] - range[0];
        }
        String transfer = r.viaTransfer() == null ? "" : " (transfer " + r.viaTransfer() + ")";
        boolean fine = r.via().equals(r.reader()) || r.shared() && r.viaTenant().equals(r.readerTenant());
        if (!fine && positions.size() > 0) {
            boolean cross = !r.viaTenant().equals(r.readerTenant());
            sink.exposure(new ExposureRead(r.deployment(), cross ? ExposureKind.CROSS_TENANT
                    : ExposureKind.INTRA_TENANT, r.reader(), r.readerTenant(), r.via(), r.viaTenant(),
                    Ranges.ofAscending(positions), r.at(), r.lastAt(), r.stream(), r.boot(), r.seq()));
            sink.finding(new Finding(cross ? Rule.CROSS_TENANT_READ : Rule.INTRA_TENANT_READ, r.deployment(),
                    r.reader(), r.at(), new Finding.Evidence(r.stream(), r.boot(), r.seq(), r.seq(), "ATTACH of "
                            + r.attachTokens() + " positions by " + r.reader() + " of tenant " + r.readerTenant()
                            + ": some of positions " + r.readerFrom() + "-" + (r.readerFrom() + r.tokens() - 1)
                            + ", received by a transfer of " + r.via() + transfer + " whose sender's XFER_SEND had not"
                            + " come when the log was flushed, were judged as in version 1: written by " + r.via()
                            + " of tenant " + r.viaTenant() + (cross ? ", another tenant" : ", another request of the"
                            + " same tenant"))));
        }
        sink.finding(new Finding(Rule.TRANSFER_SEND_MISSING, r.deployment(), r.via(), r.at(), new Finding.Evidence(
                r.stream(), r.boot(), r.seq(), r.seq(), "ATTACH of " + r.attachTokens() + " positions by " + r.reader()
                        + " of tenant " + r.readerTenant() + " read positions " + r.readerFrom() + "-"
                        + (r.readerFrom() + r.tokens() - 1) + ", received by a transfer of " + r.via() + transfer
                        + " marked sent; no XFER_SEND of it covered " + missing + " of them when the log was flushed:"
                        + " those were judged as in version 1, " + r.via() + " as their last writer (a record lost,"
                        + " or an engine that marks transfers sent without writing the sender's record)")));
    }

    /** A send: every read of its request known so far is judged against it. */
    public void send(TransferSend s, DetectionSink sink) {
        sendsByRequest.computeIfAbsent(s.transferKey(), k -> new ArrayList<>()).add(s);
        for (TransferRead r : readsByVia.getOrDefault(s.transferKey(), List.of())) {
            join(r, s, sink);
        }
    }

    /** Reads with positions that no send covers (yet): they are not judged. */
    public List<TransferRead> unresolved() {
        List<TransferRead> out = new ArrayList<>();
        readsByVia.values().forEach(list -> list.forEach(r -> {
            if (uncovered(r, sendsByRequest.getOrDefault(r.transferKey(), List.of())) > 0) {
                out.add(r);
            }
        }));
        return out;
    }

    /** How many of the read's positions no send of its transfer covers (sends of other transfers are skipped). */
    public static int uncovered(TransferRead r, List<TransferSend> sends) {
        int n = 0;
        for (int[] range : uncoveredRanges(r, sends)) {
            n += range[1] - range[0];
        }
        return n;
    }

    /** The read's via positions no send of its transfer covers, as ascending [from, to) pairs. */
    public static List<int[]> uncoveredRanges(TransferRead r, List<TransferSend> sends) {
        int from = r.viaFrom();
        int to = r.viaFrom() + r.tokens();
        List<int[]> spans = new ArrayList<>();
        for (TransferSend s : sends) {
            if (s.possible() || !r.transferKey().equals(s.transferKey())) {
                continue;  // a send window's close covers nothing (amendment 3); another transfer, nothing of this
            }
            int a = Math.max(from, s.from());
            int b = Math.min(to, s.end());
            if (a < b) {
                spans.add(new int[] {a, b});
            }
        }
        spans.sort((x, y) -> Integer.compare(x[0], y[0]));
        List<int[]> gaps = new ArrayList<>();
        int done = from;
        for (int[] span : spans) {
            if (span[0] > done) {
                gaps.add(new int[] {done, span[0]});
            }
            done = Math.max(done, span[1]);
        }
        if (done < to) {
            gaps.add(new int[] {done, to});
        }
        return gaps;
    }

    private record Victim(String request, String tenant) {
    }

    /**
     * Judges read {@code r} against send {@code s} (of the request {@code r} read through), where they overlap;
     * returns whether it found anything (an exposure or a finding).
     */
    public static boolean join(TransferRead r, TransferSend s, DetectionSink sink) {
        int a = Math.max(r.viaFrom(), s.from());
        int b = Math.min(r.viaFrom() + r.tokens(), s.end());
        if (a >= b || !r.transferKey().equals(s.transferKey())) {
            return false;  // another request, or another transfer of it (a retry, another receiver)
        }
        if (s.possible()) {
            return joinPossible(r, s, a, b, sink);
        }
        // victims in code point order of their request, so that evidence reads the same whatever the order
        Map<String, Positions> byVictim = new TreeMap<>(Rule::compareIds);
        Map<String, Victim> victims = new HashMap<>();
        Positions uninitialized = new Positions();
        int at = a;
        for (Origin o : s.foreign()) {
            int x = Math.max(a, o.from());
            int y = Math.min(b, o.to());
            if (x >= y) {
                continue;
            }
            if (at < x) {
                piece(r, new Victim(s.request(), s.tenant()), at, x, byVictim, victims, uninitialized);
            }
            piece(r, o.request() == null ? null : new Victim(o.request(), o.tenant()), x, y, byVictim, victims,
                    uninitialized);
            at = y;
        }
        if (at < b) {
            piece(r, new Victim(s.request(), s.tenant()), at, b, byVictim, victims, uninitialized);
        }
        boolean cross = false;
        boolean intra = false;
        for (Map.Entry<String, Positions> e : byVictim.entrySet()) {
            Victim v = victims.get(e.getKey());
            boolean isCross = !v.tenant().equals(r.readerTenant());
            sink.exposure(new ExposureRead(r.deployment(), isCross ? ExposureKind.CROSS_TENANT
                    : ExposureKind.INTRA_TENANT, r.reader(), r.readerTenant(), v.request(), v.tenant(),
                    Ranges.ofAscending(e.getValue()), r.at(), r.lastAt(), r.stream(), r.boot(), r.seq()));
            cross |= isCross;
            intra |= !isCross;
        }
        // The evidence's words depend on the read alone, not on the sends it met (one or several, merged or not,
        // before or after it): whatever the order, one ATTACH gives one set of texts. The exposures name each victim.
        if (cross) {
            sink.finding(finding(Rule.CROSS_TENANT_READ, r, "held another tenant's tokens on the sender when it read"
                    + " them (each victim and its positions are in the exposures)"));
        }
        if (intra) {
            sink.finding(finding(Rule.INTRA_TENANT_READ, r, "held tokens of another request of the same tenant on the"
                    + " sender when it read them (each victim and its positions are in the exposures)"));
        }
        if (uninitialized.size() > 0) {
            sink.finding(finding(Rule.UNINITIALIZED_READ, r, "had never been written on the sender when it read"
                    + " them"));
        }
        return cross || intra || uninitialized.size() > 0;
    }

    /**
     * Spec 1.3, amendment 3: read {@code r} against the writes other requests made to the sent slots while the
     * transport was reading them ({@code s} is the send's XFER_DONE), over via positions [a, b): each writer the rules
     * would not let the reader read gives a possible exposure, and the reader raises TRANSFER_OVERWRITTEN_IN_FLIGHT.
     * What the slots held at the XFER_SEND is judged by the certain send, apart.
     */
    private static boolean joinPossible(TransferRead r, TransferSend s, int a, int b, DetectionSink sink) {
        Map<String, Positions> byVictim = new TreeMap<>(Rule::compareIds);
        Map<String, Victim> victims = new HashMap<>();
        Positions none = new Positions();
        for (Origin o : s.foreign()) {
            int x = Math.max(a, o.from());
            int y = Math.min(b, o.to());
            if (x < y && o.request() != null) {
                piece(r, new Victim(o.request(), o.tenant()), x, y, byVictim, victims, none);
            }
        }
        for (Map.Entry<String, Positions> e : byVictim.entrySet()) {
            Victim v = victims.get(e.getKey());
            boolean isCross = !v.tenant().equals(r.readerTenant());
            sink.exposure(new ExposureRead(r.deployment(), isCross ? ExposureKind.CROSS_TENANT
                    : ExposureKind.INTRA_TENANT, r.reader(), r.readerTenant(), v.request(), v.tenant(),
                    Ranges.ofAscending(e.getValue()), r.at(), r.lastAt(), r.stream(), r.boot(), r.seq(), true));
        }
        if (byVictim.isEmpty()) {
            return false;
        }
        // words of the read alone, as for a certain send: one ATTACH gives one text whatever sends it met
        sink.finding(finding(Rule.TRANSFER_OVERWRITTEN_IN_FLIGHT, r, "were written by another request on the sender"
                + " while the transfer was reading them (between its XFER_SEND and its XFER_DONE): what was read may"
                + " be that request's content, or what was sent (each possible victim and its positions are in the"
                + " exposures, marked possible)"));
        return true;
    }

    /** Reader positions for via positions [x, y), whose origin is {@code v} (null: never written). */
    private static void piece(TransferRead r, Victim v, int x, int y, Map<String, Positions> byVictim,
            Map<String, Victim> victims, Positions uninitialized) {
        int from = r.readerFrom() + (x - r.viaFrom());
        int to = r.readerFrom() + (y - r.viaFrom());
        if (v == null) {
            uninitialized.addRun(from, to);
            return;
        }
        if (v.request().equals(r.reader()) || r.shared() && v.tenant().equals(r.readerTenant())) {
            return;  // rule 1 (its own content back) or rule 2 (a cache shared within its tenant)
        }
        victims.putIfAbsent(v.request(), v);
        byVictim.computeIfAbsent(v.request(), k -> new Positions()).addRun(from, to);
    }

    private static Finding finding(Rule rule, TransferRead r, String what) {
        return new Finding(rule, r.deployment(), r.reader(), r.at(), new Finding.Evidence(r.stream(), r.boot(),
                r.seq(), r.seq(), "ATTACH of " + r.attachTokens() + " positions by " + r.reader() + " of tenant "
                        + r.readerTenant() + ": some of positions " + r.readerFrom() + "-"
                        + (r.readerFrom() + r.tokens() - 1) + ", received by a transfer of " + r.via() + " whose"
                        + " sender wrote XFER_SEND, " + what));
    }
}
