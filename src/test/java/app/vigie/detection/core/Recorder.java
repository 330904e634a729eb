package app.vigie.detection.core;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import app.vigie.auditlog.intake.RecordParser;
import app.vigie.auditlog.record.AuditRecord;

/** Collects what detectors conclude, deduplicated as the persistence does, for the core tests. */
final class Recorder implements DetectionSink {
    final Map<String, Finding> findings = new LinkedHashMap<>();
    final Map<String, ExposureRead> exposures = new TreeMap<>();
    final Map<String, ExposureRead> firstRead = new HashMap<>();
    final List<RequestFact> facts = new ArrayList<>();
    final List<String> invalid = new ArrayList<>();
    final Map<String, Boolean> delivered = new HashMap<>();
    final Provenance provenance = new Provenance();
    /** Every send told, in order: XFER_SEND's and, marked possible, XFER_DONE's writers in flight. */
    final List<TransferSend> sends = new ArrayList<>();

    @Override
    public void finding(Finding f) {
        findings.merge(f.rule() + "|" + f.deployment() + "|" + f.subject(), f, (a, b) -> Rule.earlier(b, a) ? b : a);
    }

    @Override
    public void exposure(ExposureRead e) {
        String key = e.readerRequest() + "|" + e.victimRequest();
        exposures.merge(key, e, ExposureRead::merge);
    }

    @Override
    public void requestFact(RequestFact f) {
        facts.add(f);
        if (f.kind() == RequestFact.Kind.FINISHED) {
            delivered.merge(f.request(), f.delivered(), Boolean::logicalOr);
        }
    }

    @Override
    public void transferRead(TransferRead read) {
        provenance.read(read, this);
    }

    @Override
    public void transferSend(TransferSend send) {
        sends.add(send);
        provenance.send(send, this);
    }

    @Override
    public void invalid(AuditRecord r, String reason) {
        invalid.add(r.seq() + ": " + reason);
    }

    /**
     * Parses {@code lines} and applies each stream's records in their order, the streams one after the other in
     * {@code order}, one detector per stream and boot: what they concluded.
     */
    static Recorder applied(List<String> lines, List<String> order) throws Exception {
        RecordParser parser = new RecordParser();
        List<AuditRecord> records = new ArrayList<>();
        for (String l : lines) {
            records.add(parser.parse(l));
        }
        Recorder rec = new Recorder();
        Map<String, StreamDetector> detectors = new LinkedHashMap<>();
        for (String stream : order) {
            for (AuditRecord r : records) {
                if (r.stream().equals(stream)) {
                    detectors.computeIfAbsent(r.stream() + "@" + r.boot(), k -> new StreamDetector(r.stream(),
                            r.boot())).apply(r, rec);
                }
            }
        }
        return rec;
    }

    /** rule -> count. */
    Map<String, Integer> counts() {
        Map<String, Integer> c = new TreeMap<>();
        findings.values().forEach(f -> c.merge(f.rule().name(), 1, Integer::sum));
        return c;
    }

    List<Rule> rules() {
        return findings.values().stream().map(Finding::rule).distinct().toList();
    }
}
