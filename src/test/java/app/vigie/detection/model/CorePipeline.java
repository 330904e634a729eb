package app.vigie.detection.model;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;

import app.vigie.auditlog.record.AuditRecord;
import app.vigie.detection.core.Provenance;
import app.vigie.detection.core.TransferRead;
import app.vigie.detection.core.TransferSend;
import app.vigie.detection.core.DetectionSink;
import app.vigie.detection.core.ExposureRead;
import app.vigie.detection.core.Finding;
import app.vigie.detection.core.RequestFact;
import app.vigie.detection.core.RequestFacts;
import app.vigie.detection.core.Rule;
import app.vigie.detection.core.StreamDetector;

/**
 * The production detector core ({@link StreamDetector}, {@link ExposureRead#merge}, {@link Rule#earlier},
 * {@link RequestFacts}) fed the way the intake feeds it: per (stream, boot) in seq order from seq 1, duplicates
 * ignored, conflicts and late records refused, a flush declaring the gaps before held records lost. Optionally
 * snapshots and restores a detector at random points, as a restart or an eviction does. Its {@link #result} has the
 * shape of {@link NaiveModel#result} so that the two can be compared.
 */
public final class CorePipeline implements DetectionSink {
    private final Map<String, Stream> streams = new LinkedHashMap<>();
    private final Map<String, Finding> findings = new TreeMap<>();
    private final Map<String, ExposureRead> exposures = new TreeMap<>();
    private final Map<String, RequestFacts> facts = new HashMap<>();
    private final TreeSet<String> late = new TreeSet<>();
    private final TreeSet<String> conflicts = new TreeSet<>();
    private final TreeSet<String> invalid = new TreeSet<>();
    private final Provenance provenance = new Provenance();
    private final Random restarts;
    private final double restartChance;
    private int restored;

    /** One (stream, boot): what was received, what was applied, the lost ranges. */
    private static final class Stream {
        StreamDetector detector;
        final Map<Long, AuditRecord> received = new HashMap<>();
        final TreeMap<Long, Long> lost = new TreeMap<>();
        long next = 1;
    }

    /** @param restartSeed seeds when detectors are snapshotted and restored; {@code restartChance} per record */
    public CorePipeline(long restartSeed, double restartChance) {
        this.restarts = new Random(restartSeed);
        this.restartChance = restartChance;
    }

    public void receive(AuditRecord r) {
        String key = r.stream() + "|" + r.boot();
        Stream s = streams.computeIfAbsent(key, k -> new Stream());
        Map.Entry<Long, Long> range = s.lost.floorEntry(r.seq());
        if (range != null && r.seq() <= range.getValue()) {
            late.add(key + "|" + r.seq());
            return;
        }
        AuditRecord known = s.received.get(r.seq());
        if (known != null) {
            if (!known.equals(r)) {
                conflicts.add(key + "|" + r.seq());
            }
            return;
        }
        s.received.put(r.seq(), r);
        walk(s, r);
    }

    /**
     * Declares lost every missing seq below a held record, and applies what waited; then (spec 1.3, amendment 5)
     * resolves the reads no send covers, as the service's flush does.
     */
    public void flush() {
        flushGaps();
        provenance.flush(this);
    }

    private void flushGaps() {
        for (Stream s : streams.values()) {
            Long held;
            while ((held = s.received.keySet().stream().filter(q -> q > s.next).min(Long::compare).orElse(null))
                    != null) {
                if (!s.received.containsKey(s.next)) {
                    AuditRecord any = s.received.get(held);
                    detector(s, any).gapLost(s.next, held - 1, any.ts(), this);
                    s.lost.put(s.next, held - 1);
                    s.next = held;
                }
                walk(s, s.received.get(held));
            }
        }
    }

    private void walk(Stream s, AuditRecord any) {
        AuditRecord r;
        while ((r = s.received.get(s.next)) != null) {
            StreamDetector d = detector(s, any);
            d.apply(r, this);
            s.next++;
            if (restartChance > 0 && restarts.nextDouble() < restartChance) {
                s.detector = snapshotAndRestore(d);
            }
        }
    }

    private StreamDetector detector(Stream s, AuditRecord any) {
        if (s.detector == null) {
            s.detector = new StreamDetector(any.stream(), any.boot());
        }
        return s.detector;
    }

    private StreamDetector snapshotAndRestore(StreamDetector d) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            d.snapshot(new DataOutputStream(bytes));
            restored++;
            return StreamDetector.restore(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** How many times a detector was snapshotted and restored. */
    public int restored() {
        return restored;
    }

    @Override
    public void finding(Finding f) {
        findings.merge(f.deployment() + "|" + f.rule() + "|" + f.subject(), f, (a, b) -> Rule.earlier(b, a) ? b : a);
    }

    @Override
    public void exposure(ExposureRead e) {
        exposures.merge(e.pairKey(), e, ExposureRead::merge);
    }

    @Override
    public void requestFact(RequestFact f) {
        facts.compute(f.request(), (request, known) -> (known == null ? RequestFacts.of(request) : known).with(f));
    }

    @Override
    public void transferRead(TransferRead read) {
        provenance.read(read, this);
    }

    @Override
    public void transferSend(TransferSend send) {
        provenance.send(send, this);
    }

    @Override
    public void invalid(AuditRecord r, String reason) {
        invalid.add(r.stream() + "|" + r.boot() + "|" + r.seq());
    }

    /** What the core concluded, in the naive model's terms. */
    public ModelResult result() {
        TreeMap<String, ModelFinding> out = new TreeMap<>();
        findings.forEach((k, f) -> out.put(k, new ModelFinding(f.deployment(), f.rule().name(), f.subject(), f.at(),
                f.evidence().stream(), f.evidence().boot(), f.evidence().firstSeq(), f.evidence().lastSeq())));
        facts.values().forEach(joined -> joined.finding().ifPresent(f -> out.put(
                f.deployment() + "|REJECTED_REQUEST_SERVED|" + f.subject(), new ModelFinding(f.deployment(),
                        f.rule().name(), f.subject(), f.at(), f.evidence().stream(), f.evidence().boot(),
                        f.evidence().firstSeq(), f.evidence().lastSeq()))));
        TreeMap<String, ModelExposure> exp = new TreeMap<>();
        exposures.forEach((k, e) -> exp.put(e.deployment() + "|" + e.readerRequest() + "|" + e.victimRequest(),
                new ModelExposure(e.deployment(), e.kind().name(), e.readerRequest(),
                e.readerTenant(), e.victimRequest(), e.victimTenant(), e.tokens(), e.firstSeenAt(),
                e.attachAt(), delivered(e.readerRequest()), e.possible())));
        return new ModelResult(out, exp, late, conflicts, invalid);
    }

    private Boolean delivered(String request) {
        RequestFacts f = facts.get(request);
        return f == null ? null : f.delivered();
    }
}
