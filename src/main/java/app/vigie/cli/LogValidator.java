package app.vigie.cli;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import app.vigie.detection.core.TransferSend;
import app.vigie.detection.core.TransferRead;
import app.vigie.detection.core.Provenance;
import app.vigie.auditlog.intake.IncomingLine;
import app.vigie.auditlog.intake.LineParser;
import app.vigie.auditlog.record.AuditRecord;
import app.vigie.detection.core.DetectionSink;
import app.vigie.detection.core.ExposureRead;
import app.vigie.detection.core.Finding;
import app.vigie.detection.core.RequestFact;
import app.vigie.detection.core.RequestFacts;
import app.vigie.detection.core.Rule;
import app.vigie.detection.core.StreamDetector;

/**
 * Judges a page audit log as the service would, without a database and without storing anything
 * ({@code validate LOG...}, docs/integrating-an-engine.md): every line through the intake's parser, every (stream,
 * boot) through its own detector in seq order (records out of order held back until their turn, as the intake's
 * sequencer does), the request facts of every stream merged as the service merges them. What the service would
 * reject or declare lost is a conformance problem; what its detectors conclude (findings, exposures) is reported as
 * the service would record it. Memory: the detectors, the records held back, and 8 bytes per record (a hash of each
 * accepted record, to tell a duplicate from a conflicting one).
 */
public final class LogValidator {
    private final LineParser parser = new LineParser();
    private final Map<String, Stream> streams = new LinkedHashMap<>();
    private final Collector collector = new Collector();
    private final List<Problem> problems = new ArrayList<>();
    private long lines;
    private long records;
    private long duplicates;

    /** A line the service would reject, or a record it would never apply or judge impossible. */
    public record Problem(String kind, String source, long line, String stream, String boot, Long seq,
            String message) {
    }

    /** One (stream, boot) as read. */
    public record StreamSummary(String stream, String boot, String deployment, long records, long lastSeq) {
    }

    /** A finding, as the service would record it in its incident. */
    public record FindingLine(String rule, String deployment, String subject, String stream, String boot,
            long firstSeq, long lastSeq, String detail, Instant at) {
    }

    /** An exposure, one per (reader, victim), as the service would record it. */
    public record ExposureLine(String deployment, String kind, String readerTenant, String readerRequest,
            String victimTenant, String victimRequest, int tokens, Boolean delivered, boolean possible) {
    }

    /** What was read and concluded. */
    public record Report(long lines, long records, long duplicates, List<StreamSummary> streams,
            List<Problem> problems, Map<String, Integer> findingCounts, List<FindingLine> findings,
            List<ExposureLine> exposures) {

        /** Whether the service would take every line and apply every record. */
        public boolean conforms() {
            return problems.isEmpty();
        }

        /** 0: conforms, nothing found; 1: conforms, findings (a leak or a fault); 2: does not conform. */
        public int exitCode() {
            return !conforms() ? 2 : findings.isEmpty() ? 0 : 1;
        }
    }

    /** Takes one line ({@code line.position()} is its line number in {@code line.sourceName()}). */
    public void line(IncomingLine line) {
        lines++;
        LineParser.Parsed p = parser.parse(line);
        if (p.rejection() != null) {
            problems.add(new Problem("rejected", line.sourceName(), line.position(), null, null, null,
                    p.rejection()));
            return;
        }
        AuditRecord r = p.record();
        Stream s = streams.computeIfAbsent(r.stream() + "\u0000" + r.boot(), k -> new Stream(r));
        long hash = StreamDetector.hash(p.canonical());
        if (r.seq() < s.next || s.held.containsKey(r.seq())) {
            long known = r.seq() < s.next ? s.hashOf(r.seq()) : s.held.get(r.seq()).hash;
            if (known == hash) {
                duplicates++;
            } else {
                problems.add(new Problem("conflicting-duplicate", line.sourceName(), line.position(), r.stream(),
                        r.boot(), r.seq(), "a record with the same (stream, boot, seq) and different content came"
                        + " before; the service rejects this one"));
            }
            return;
        }
        records++;
        s.held.put(r.seq(), new Held(r, hash, line.sourceName(), line.position()));
        s.applyReady(collector);
    }

    /**
     * Ends the log: each stream's records still held behind a missing seq are applied after it is declared lost,
     * as the service does once the gap's timeout passes (a {@code STREAM_GAP} finding), and the report is made.
     */
    public Report finish() {
        for (Stream s : streams.values()) {
            while (!s.held.isEmpty()) {
                long first = s.held.firstKey();
                Held h = s.held.get(first);
                problems.add(new Problem("gap", h.source, h.line, s.stream, s.boot, s.next,
                        "seq " + s.next + (first - 1 > s.next ? " to " + (first - 1) : "") + " missing: the service"
                        + " holds the records after it until the gap times out, then declares it lost"));
                s.detector.gapLost(s.next, first - 1, h.record.ts(), collector);
                s.next = first;  // the lost seqs keep no hash: a record of them later would conflict
                s.applyReady(collector);
            }
        }
        // spec v1.1: a sent write promises the sender's XFER_SEND; a read of positions none covered is a problem, and
        // (spec 1.3, amendment 5) the end of the log is a flush: those positions are judged as in version 1
        for (TransferRead r : collector.provenance.unresolved()) {
            Held h = collector.readAt.get(r.key());
            String transfer = r.viaTransfer() == null ? "" : " (transfer " + r.viaTransfer() + ")";
            Provenance.Resolution held = collector.provenance.heldOf(r);
            String missing;
            if (!held.viaRanges().isEmpty()) {
                missing = "no XFER_SEND of " + r.via() + transfer + " covers them all";
            } else {
                // spec 1.3, amendment 4: the sends of the read's transfer are there; a hop further down is not
                Set<String> hops = new TreeSet<>();
                held.hops().forEach(x -> hops.add(x.request() + (x.transfer() == null ? "" : " (transfer "
                        + x.transfer() + ")")));
                missing = "the XFER_SEND of " + r.via() + transfer + " sent on positions received by a transfer"
                        + " of " + String.join(", ", hops) + ", and no XFER_SEND of that transfer covers them all";
            }
            problems.add(new Problem("unsent", h.source, h.line, r.stream(), r.boot(), r.seq(), "ATTACH of "
                    + r.reader() + " read positions " + r.readerFrom() + "-" + (r.readerFrom() + r.tokens() - 1)
                    + " received by a sent transfer of " + r.via() + transfer + " (its positions " + r.viaFrom() + "-"
                    + (r.viaFrom() + r.tokens() - 1) + "), and " + missing + ": the service holds such reads until a"
                    + " flush or the stream-gap timeout, then judges those positions as in version 1"
                    + " (TRANSFER_SEND_MISSING)"));
        }
        collector.provenance.flush(collector);
        for (Collector.Impossible i : collector.impossible) {
            Held h = i.where;
            problems.add(new Problem("impossible", h.source, h.line, h.record.stream(), h.record.boot(),
                    h.record.seq(), i.reason));
        }
        Map<String, Finding> findings = new LinkedHashMap<>(collector.findings);
        collector.facts.values().forEach(f -> f.finding().ifPresent(x -> findings.merge(
                x.rule() + "\u0000" + x.deployment() + "\u0000" + x.subject(), x, (a, b) -> a)));
        List<FindingLine> findingLines = findings.values().stream()
                .sorted(Comparator.comparing((Finding f) -> f.rule().name()).thenComparing(Finding::deployment)
                        .thenComparing(Finding::subject))
                .map(f -> new FindingLine(f.rule().name(), f.deployment(), f.subject(), f.evidence().stream(),
                        f.evidence().boot(), f.evidence().firstSeq(), f.evidence().lastSeq(), f.evidence().detail(),
                        f.at()))
                .toList();
        Map<String, Integer> counts = new TreeMap<>();
        findingLines.forEach(f -> counts.merge(f.rule(), 1, Integer::sum));
        List<ExposureLine> exposures = collector.exposures.values().stream()
                .sorted(Comparator.comparing(ExposureRead::deployment).thenComparing(ExposureRead::readerRequest)
                        .thenComparing(ExposureRead::victimRequest))
                .map(e -> new ExposureLine(e.deployment(), e.kind().name(), e.readerTenant(), e.readerRequest(),
                        e.victimTenant(), e.victimRequest(), e.tokens(), delivered(e.readerRequest()), e.possible()))
                .toList();
        List<StreamSummary> summaries = streams.values().stream()
                .map(s -> new StreamSummary(s.stream, s.boot, s.deployment, s.count, s.next - 1)).toList();
        List<Problem> sorted = new ArrayList<>(problems);
        sorted.sort(Comparator.comparing(Problem::source).thenComparingLong(Problem::line));
        return new Report(lines, records, duplicates, summaries, sorted, counts, findingLines, exposures);
    }

    private Boolean delivered(String request) {
        RequestFacts f = collector.facts.get(request);
        return f == null ? null : f.delivered();
    }

    /** A record held until its seq's turn, and where it was read. */
    private record Held(AuditRecord record, long hash, String source, long line) {
    }

    /** One (stream, boot): its detector, the next seq to apply, the records held back, the hashes applied. */
    private static final class Stream {
        final String stream;
        final String boot;
        final String deployment;
        final StreamDetector detector;
        final TreeMap<Long, Held> held = new TreeMap<>();
        final Hashes hashes = new Hashes();
        long next = 1;
        long count;

        Stream(AuditRecord first) {
            stream = first.stream();
            boot = first.boot();
            deployment = first.deployment();
            detector = new StreamDetector(stream, boot);
        }

        long hashOf(long seq) {
            return hashes.get(seq - 1);
        }

        void applyReady(Collector sink) {
            Held h;
            while ((h = held.get(next)) != null) {
                held.remove(next);
                sink.where = h;
                detector.apply(h.record, sink);
                hashes.set(next - 1, h.hash);
                count++;
                next++;
            }
        }
    }

    /** A growable array of longs, indexed by seq - 1. */
    private static final class Hashes {
        private long[] values = new long[64];

        long get(long i) {
            return i < values.length ? values[(int) i] : 0;
        }

        void set(long i, long v) {
            if (i >= values.length) {
                values = Arrays.copyOf(values, (int) Math.max(values.length * 2L, i + 1));
            }
            values[(int) i] = v;
        }
    }

    /** What the detectors conclude, merged as the service's store merges it. */
    private static final class Collector implements DetectionSink {
        final Map<String, Finding> findings = new HashMap<>();
        final Map<String, ExposureRead> exposures = new HashMap<>();
        final Map<String, RequestFacts> facts = new HashMap<>();
        final List<Impossible> impossible = new ArrayList<>();
        final Provenance provenance = new Provenance();
        /** Where each read of received positions was first made. */
        final Map<String, Held> readAt = new HashMap<>();
        Held where;

        record Impossible(Held where, String reason) {
        }

        @Override
        public void finding(Finding f) {
            findings.merge(f.rule() + "\u0000" + f.deployment() + "\u0000" + f.subject(), f,
                    (a, b) -> Rule.earlier(b, a) ? b : a);
        }

        @Override
        public void exposure(ExposureRead e) {
            exposures.merge(e.pairKey(), e, ExposureRead::merge);
        }

        @Override
        public void requestFact(RequestFact f) {
            facts.compute(f.request(), (r, known) -> (known == null ? RequestFacts.of(r) : known).with(f));
        }

        @Override
        public void transferRead(TransferRead read) {
            readAt.putIfAbsent(read.key(), where);
            provenance.read(read, this);
        }

        @Override
        public void transferSend(TransferSend send) {
            provenance.send(send, this);
        }

        @Override
        public void invalid(AuditRecord r, String reason) {
            impossible.add(new Impossible(where, reason));
        }
    }
}
