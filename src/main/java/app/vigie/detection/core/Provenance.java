package app.vigie.detection.core;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

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
    /** Reads resolved at a flush (amendment 5), by key: what no send covered then. */
    private final Map<String, Resolution> resolved = new HashMap<>();
    /** Amendment 4: by transfer key, the keys of the transfers whose sends hold positions received by it. */
    private final Map<String, Set<String>> referencedBy = new HashMap<>();

    /** A chain may pass through at most this many transfers; past them, the v1 meaning (amendment 4). */
    public static final int MAX_HOPS = 32;

    /**
     * Reader positions {@code [from, to)} whose chain stops at positions received by {@code request} (of {@code
     * tenant}) through its transfer {@code transfer}, which no send of that transfer covers (yet).
     */
    public record Hop(String request, String tenant, String transfer, int from, int to) {
    }

    /**
     * What a flush judged as in version 1 for one read (amendment 5): the via positions no send of its own transfer
     * covered, and the reader positions whose chain stopped further on (amendment 4), at a hop no send covered.
     */
    public record Resolution(List<int[]> viaRanges, List<Hop> hops) {
        public Resolution {
            viaRanges = List.copyOf(viaRanges);
            hops = List.copyOf(hops);
        }

        public boolean isEmpty() {
            return viaRanges.isEmpty() && hops.isEmpty();
        }
    }

    /** The sends of a transfer, by {@link TransferSend#transferKey()}. */
    private List<TransferSend> sendsOf(String key) {
        return sendsByRequest.getOrDefault(key, List.of());
    }

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
        for (TransferSend s : sendsOf(r.transferKey())) {
            join(merged, s, this::sendsOf, sink);
        }
        Resolution fellBack = resolved.get(r.key());
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
                Resolution held = held(r, this::sendsOf);
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
     * What read {@code r} would leave unjudged now, given the sends {@code sends} knows: the via positions no send of
     * its transfer covers, and the positions whose chain stops at a hop no send covers (amendment 4).
     */
    public static Resolution held(TransferRead r, Function<String, List<TransferSend>> sends) {
        List<TransferSend> own = sends.apply(r.transferKey());
        List<Hop> hops = new ArrayList<>();
        for (TransferSend s : own) {
            int a = Math.max(r.viaFrom(), s.from());
            int b = Math.min(r.viaFrom() + r.tokens(), s.end());
            if (a < b && !s.possible() && r.transferKey().equals(s.transferKey())) {
                walk(s, a, b, r.readerFrom() - r.viaFrom(), sends, path(r), new Walk() {
                    @Override
                    public void leaf(Victim v, int from, int to) {
                    }

                    @Override
                    public void held(Hop h) {
                        hops.add(h);
                    }
                }, 1);
            }
        }
        return new Resolution(uncoveredRanges(r, own), hops);
    }

    /**
     * Spec 1.3, amendment 5: via positions {@code viaRanges} of read {@code r} ([from, to) pairs), which no send of its
     * transfer covered when the log was flushed, judged as in version 1: the receiving request is their last writer
     * (its own content back to it, or a cache shared within its tenant without fingerprint, is fine; otherwise an
     * exposure of the receiving request to the reader), and the receiving request raises TRANSFER_SEND_MISSING at the
     * reader's ATTACH.
     */
    public static void fallback(TransferRead r, List<int[]> viaRanges, DetectionSink sink) {
        fallback(r, new Resolution(viaRanges, List.of()), sink);
    }

    /**
     * {@link #fallback(TransferRead, List, DetectionSink)}, and at each hop of a chain no send covered (amendment 4),
     * the same at that hop: the request that received the positions there is their last writer, and it raises
     * TRANSFER_SEND_MISSING.
     */
    public static void fallback(TransferRead r, Resolution held, DetectionSink sink) {
        int delta = r.readerFrom() - r.viaFrom();
        if (!held.viaRanges().isEmpty()) {
            List<int[]> readerRanges = new ArrayList<>();
            for (int[] range : held.viaRanges()) {
                readerRanges.add(new int[] {range[0] + delta, range[1] + delta});
            }
            fallbackAt(r, r.via(), r.viaTenant(), r.viaTransfer(), readerRanges, sink);
        }
        Map<String, List<Hop>> byHop = new TreeMap<>();
        for (Hop h : held.hops()) {
            byHop.computeIfAbsent(h.request() + "\u0000" + h.transfer(), k -> new ArrayList<>()).add(h);
        }
        for (List<Hop> hops : byHop.values()) {
            List<int[]> readerRanges = new ArrayList<>();
            hops.forEach(h -> readerRanges.add(new int[] {h.from(), h.to()}));
            Hop h = hops.get(0);
            fallbackAt(r, h.request(), h.tenant(), h.transfer(), readerRanges, sink);
        }
    }

    /**
     * Reader positions {@code readerRanges} of {@code r}, received by {@code via} (of {@code viaTenant}) through its
     * transfer {@code viaTransfer} where no send covered them, judged as in version 1 ({@link #fallback}).
     */
    private static void fallbackAt(TransferRead r, String via, String viaTenant, String viaTransfer,
            List<int[]> readerRanges, DetectionSink sink) {
        Positions positions = new Positions();
        int missing = 0;
        for (int[] range : readerRanges) {
            positions.addRun(range[0], range[1]);
            missing += range[1] - range[0];
        }
        boolean first = via.equals(r.via()) && Objects.equals(viaTransfer, r.viaTransfer());
        String transfer = viaTransfer == null ? "" : " (transfer " + viaTransfer + ")";
        String where = first ? "received by a transfer of " + via + transfer : "received by " + r.via()
                + " through a chain of transfers that passes by a transfer of " + via + transfer;
        boolean fine = via.equals(r.reader()) || r.shared() && viaTenant.equals(r.readerTenant());
        if (!fine && positions.size() > 0) {
            boolean cross = !viaTenant.equals(r.readerTenant());
            sink.exposure(new ExposureRead(r.deployment(), cross ? ExposureKind.CROSS_TENANT
                    : ExposureKind.INTRA_TENANT, r.reader(), r.readerTenant(), via, viaTenant,
                    Ranges.ofAscending(positions), r.at(), r.lastAt(), r.stream(), r.boot(), r.seq()));
            sink.finding(new Finding(cross ? Rule.CROSS_TENANT_READ : Rule.INTRA_TENANT_READ, r.deployment(),
                    r.reader(), r.at(), new Finding.Evidence(r.stream(), r.boot(), r.seq(), r.seq(), "ATTACH of "
                            + r.attachTokens() + " positions by " + r.reader() + " of tenant " + r.readerTenant()
                            + ": some of positions " + r.readerFrom() + "-" + (r.readerFrom() + r.tokens() - 1)
                            + ", " + where + " whose sender's XFER_SEND had not"
                            + " come when the log was flushed, were judged as in version 1: written by " + via
                            + " of tenant " + viaTenant + (cross ? ", another tenant" : ", another request of the"
                            + " same tenant"))));
        }
        sink.finding(new Finding(Rule.TRANSFER_SEND_MISSING, r.deployment(), via, r.at(), new Finding.Evidence(
                r.stream(), r.boot(), r.seq(), r.seq(), "ATTACH of " + r.attachTokens() + " positions by " + r.reader()
                        + " of tenant " + r.readerTenant() + " read positions " + r.readerFrom() + "-"
                        + (r.readerFrom() + r.tokens() - 1) + ", " + where
                        + " marked sent; no XFER_SEND of it covered " + missing + " of them when the log was flushed:"
                        + " those were judged as in version 1, " + via + " as their last writer (a record lost,"
                        + " or an engine that marks transfers sent without writing the sender's record)")));
    }

    /** A send: every read of its request known so far is judged against it. */
    public void send(TransferSend s, DetectionSink sink) {
        sendsByRequest.computeIfAbsent(s.transferKey(), k -> new ArrayList<>()).add(s);
        if (!s.possible()) {
            for (Origin o : s.foreign()) {
                if (o.received()) {
                    referencedBy.computeIfAbsent(o.viaKey(), k -> new HashSet<>()).add(s.transferKey());
                }
            }
        }
        for (TransferRead r : readsByVia.getOrDefault(s.transferKey(), List.of())) {
            join(r, s, this::sendsOf, sink);
        }
        // amendment 4: a read through a transfer whose sends hold positions this one brought is judged again
        for (String key : referrers(s.transferKey(), k -> referencedBy.getOrDefault(k, Set.of()))) {
            for (TransferRead r : readsByVia.getOrDefault(key, List.of())) {
                for (TransferSend via : sendsOf(key)) {
                    join(r, via, this::sendsOf, sink);
                }
            }
        }
    }

    /**
     * The transfers whose sends hold, through any number of hops, positions received by transfer {@code key} (itself
     * excluded), given each transfer's direct referrers.
     */
    public static Set<String> referrers(String key, Function<String, Set<String>> direct) {
        Set<String> out = new LinkedHashSet<>();
        ArrayDeque<String> todo = new ArrayDeque<>(direct.apply(key));
        while (!todo.isEmpty()) {
            String k = todo.poll();
            if (!k.equals(key) && out.add(k)) {
                todo.addAll(direct.apply(k));
            }
        }
        return out;
    }

    /** What read {@code r} would leave unjudged now, given the sends known so far. */
    public Resolution heldOf(TransferRead r) {
        return held(r, this::sendsOf);
    }

    /** Reads with positions that no send covers (yet): they are not judged. */
    public List<TransferRead> unresolved() {
        List<TransferRead> out = new ArrayList<>();
        readsByVia.values().forEach(list -> list.forEach(r -> {
            if (!held(r, this::sendsOf).isEmpty()) {
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
        return gaps(from, to, spans);
    }

    private record Victim(String request, String tenant) {
    }

    /** What a walk along a chain finds, in reader positions. */
    private interface Walk {
        /** Positions whose origin is {@code v} (null: never written). */
        void leaf(Victim v, int from, int to);

        /** Positions whose chain stops at a hop no send covers (yet). */
        void held(Hop h);

        /**
         * Positions another request ({@code v}) wrote on a hop's sender while its transfer was reading them (amendment
         * 3, further down a chain): a possible origin.
         */
        default void possible(Victim v, int from, int to) {
        }
    }

    /** The transfers a chain from read {@code r} has passed through: its own first. */
    private static Set<String> path(TransferRead r) {
        Set<String> path = new HashSet<>();
        path.add(r.transferKey());
        return path;
    }

    /**
     * The origins of send {@code s} over its positions [a, b) (reader positions: those plus {@code delta}), through
     * any number of hops (amendment 4): a received origin is resolved by the sends of its transfer; {@code path} holds
     * the transfers passed through, {@code depth} their number.
     */
    private static void walk(TransferSend s, int a, int b, int delta, Function<String, List<TransferSend>> sends,
            Set<String> path, Walk w, int depth) {
        int at = a;
        for (Origin o : s.foreign()) {
            int x = Math.max(a, o.from());
            int y = Math.min(b, o.to());
            if (x >= y) {
                continue;
            }
            if (at < x) {
                w.leaf(new Victim(s.request(), s.tenant()), at + delta, x + delta);
            }
            if (o.received()) {
                int hopFrom = o.viaFrom() + (x - o.from());
                hop(o, hopFrom, hopFrom + (y - x), delta + (x - hopFrom), sends, path, w, depth);
            } else {
                w.leaf(o.request() == null ? null : new Victim(o.request(), o.tenant()), x + delta, y + delta);
            }
            at = y;
        }
        if (at < b) {
            w.leaf(new Victim(s.request(), s.tenant()), at + delta, b + delta);
        }
    }

    /**
     * Positions [from, to) that {@code o.request()} received by transfer {@code o.viaTransfer()} (reader positions:
     * those plus {@code delta}): their origins are those the sends of that transfer gave them. A cycle, or a chain past
     * {@link #MAX_HOPS}, stops here with the version 1 meaning (the request that received them wrote them); positions
     * no send covers are held at this hop.
     */
    private static void hop(Origin o, int from, int to, int delta, Function<String, List<TransferSend>> sends,
            Set<String> path, Walk w, int depth) {
        String key = o.viaKey();
        if (depth >= MAX_HOPS || path.contains(key)) {
            w.leaf(new Victim(o.request(), o.tenant()), from + delta, to + delta);
            return;
        }
        List<TransferSend> list = sends.apply(key);
        path.add(key);
        List<int[]> spans = new ArrayList<>();
        for (TransferSend s : list) {
            int a = Math.max(from, s.from());
            int b = Math.min(to, s.end());
            if (a >= b || !key.equals(s.transferKey())) {
                continue;
            }
            if (s.possible()) {
                for (Origin p : s.foreign()) {
                    int x = Math.max(a, p.from());
                    int y = Math.min(b, p.to());
                    if (x < y && p.request() != null) {
                        w.possible(new Victim(p.request(), p.tenant()), x + delta, y + delta);
                    }
                }
                continue;  // covers nothing
            }
            walk(s, a, b, delta, sends, path, w, depth + 1);
            spans.add(new int[] {a, b});
        }
        path.remove(key);
        for (int[] gap : gaps(from, to, spans)) {
            w.held(new Hop(o.request(), o.tenant(), o.viaTransfer(), gap[0] + delta, gap[1] + delta));
        }
    }

    /** The parts of [from, to) that none of {@code spans} covers, ascending. */
    private static List<int[]> gaps(int from, int to, List<int[]> spans) {
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

    /**
     * Judges read {@code r} against send {@code s} (of the request {@code r} read through), where they overlap, the
     * sends of other transfers told by {@code sends} (for chains, amendment 4: positions whose chain stops at a hop no
     * send covers yet are left for that send or a flush); returns whether it found anything (an exposure or a finding).
     */
    public static boolean join(TransferRead r, TransferSend s, Function<String, List<TransferSend>> sends,
            DetectionSink sink) {
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
        Map<String, Positions> byPossibleVictim = new TreeMap<>(Rule::compareIds);
        Positions none = new Positions();
        walk(s, a, b, r.readerFrom() - r.viaFrom(), sends, path(r), new Walk() {
            @Override
            public void leaf(Victim v, int from, int to) {
                piece(r, v, from, to, byVictim, victims, uninitialized);
            }

            @Override
            public void held(Hop h) {
                // judged when a send of that hop comes, or at a flush
            }

            @Override
            public void possible(Victim v, int from, int to) {
                piece(r, v, from, to, byPossibleVictim, victims, none);
            }
        }, 1);
        boolean possible = possibleExposures(r, byPossibleVictim, victims, sink);
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
        return cross || intra || uninitialized.size() > 0 || possible;
    }

    /**
     * Emits the possible exposures of read {@code r} (by victim request) and, when there is one,
     * TRANSFER_OVERWRITTEN_IN_FLIGHT on the reader; returns whether there was one.
     */
    private static boolean possibleExposures(TransferRead r, Map<String, Positions> byVictim,
            Map<String, Victim> victims, DetectionSink sink) {
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
                int delta = r.readerFrom() - r.viaFrom();
                piece(r, new Victim(o.request(), o.tenant()), x + delta, y + delta, byVictim, victims, none);
            }
        }
        return possibleExposures(r, byVictim, victims, sink);
    }

    /** Reader positions [from, to), whose origin is {@code v} (null: never written). */
    private static void piece(TransferRead r, Victim v, int from, int to, Map<String, Positions> byVictim,
            Map<String, Victim> victims, Positions uninitialized) {
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
