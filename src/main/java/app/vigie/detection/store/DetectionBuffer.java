package app.vigie.detection.store;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import app.vigie.auditlog.record.AuditRecord;
import app.vigie.detection.core.DetectionSink;
import app.vigie.detection.core.ExposureRead;
import app.vigie.detection.core.Finding;
import app.vigie.detection.core.RequestFact;
import app.vigie.detection.core.RequestFacts;
import app.vigie.detection.core.Rule;
import app.vigie.detection.core.TransferRead;
import app.vigie.detection.core.TransferSend;

/** What the detectors concluded in one transaction, merged, waiting to be written before it commits. */
public final class DetectionBuffer implements DetectionSink {
    final Map<String, Finding> findings = new LinkedHashMap<>();
    final Map<String, ExposureRead> exposures = new LinkedHashMap<>();
    final Map<String, ExposureSpan> spans = new LinkedHashMap<>();
    /** The facts of each request seen in this transaction, merged. */
    final Map<String, RequestFacts> facts = new LinkedHashMap<>();
    final List<Invalid> invalid = new ArrayList<>();
    /** Every (deployment, stream, boot) where a read of an exposure was judged: evidence of its incident. */
    final Set<ExposureBoot> exposureBoots = new HashSet<>();
    /** Where each request of this transaction was first served: {stream, boot}. */
    final Map<String, String[]> servedAt = new HashMap<>();
    /** Spec v1.1: reads of content received by sent transfers (by key: a read judged again is one), and sends. */
    final Map<String, TransferRead> transferReads = new LinkedHashMap<>();
    final List<TransferSend> transferSends = new ArrayList<>();
    /** The index in {@link #transferSends} of the last send of each (stream, boot, request). */
    private final Map<String, Integer> lastSend = new HashMap<>();

    /** An impossible record and why. */
    record Invalid(AuditRecord record, String reason) {
    }

    /** A (stream, boot) where a read of an exposure of {@code deployment} was judged. */
    record ExposureBoot(String deployment, String stream, String boot) {
    }

    /** The earliest and latest ATTACH that judged an exposure, per deployment. */
    record ExposureSpan(Instant first, Instant last) {
    }

    /** How many findings, merged per (deployment, rule, subject). */
    public int findingCount() {
        return findings.size();
    }

    public boolean isEmpty() {
        return findings.isEmpty() && exposures.isEmpty() && facts.isEmpty() && invalid.isEmpty()
                && transferReads.isEmpty() && transferSends.isEmpty();
    }

    @Override
    public void finding(Finding f) {
        findings.merge(f.deployment() + "\u0000" + f.rule() + "\u0000" + f.subject(), f,
                (a, b) -> Rule.earlier(b, a) ? b : a);
    }

    @Override
    public void exposure(ExposureRead e) {
        exposures.merge(e.pairKey(), e, ExposureRead::merge);
        exposureBoots.add(new ExposureBoot(e.deployment(), e.stream(), e.boot()));
        // from the first sight to the latest ATTACH: a read of received positions spans its ATTACHes (amendment 7)
        spans.merge(e.deployment(), new ExposureSpan(e.firstSeenAt(), e.attachAt()),
                (a, b) -> new ExposureSpan(a.first().isBefore(b.first()) ? a.first() : b.first(),
                        a.last().isAfter(b.last()) ? a.last() : b.last()));
    }

    @Override
    public void requestFact(RequestFact f) {
        facts.compute(f.request(), (request, known) -> (known == null ? RequestFacts.of(request) : known).with(f));
        if (f.serves()) {
            servedAt.putIfAbsent(f.request(), new String[] {f.stream(), f.boot()});
        }
    }

    @Override
    public void transferRead(TransferRead read) {
        transferReads.merge(read.key(), read, TransferRead::merge);
    }

    /**
     * A send that continues the previous one of its transfer on its (stream, boot) joins it: the chunks of one transfer
     * are usually in one transaction, and one row per transfer is what the join needs (the place of a send is not
     * evidence: the read's is).
     */
    @Override
    public void transferSend(TransferSend send) {
        if (send.possible()) {
            transferSends.add(send);  // a send window's close (amendment 3): never one with a certain send
            return;
        }
        String key = send.stream() + "\u0000" + send.boot() + "\u0000" + send.transferKey();
        Integer at = lastSend.get(key);
        if (at != null) {
            TransferSend last = transferSends.get(at);
            if (last.end() == send.from()) {
                List<TransferSend.Origin> foreign = new ArrayList<>(last.foreign());
                foreign.addAll(send.foreign());
                transferSends.set(at, new TransferSend(last.deployment(), last.request(), last.transfer(), last.tenant(),
                        last.from(), last.tokens() + send.tokens(), foreign, last.at(), last.stream(), last.boot(),
                        last.seq()));
                return;
            }
        }
        lastSend.put(key, transferSends.size());
        transferSends.add(send);
    }

    /**
     * Takes the possible exposures out of the buffer (spec 1.3, amendment 3: a pair of which no read is certain), so
     * that everything written from {@link #exposures} is of certain ones; they are stored apart.
     */
    List<ExposureRead> takePossible() {
        List<ExposureRead> out = new ArrayList<>();
        exposures.values().removeIf(e -> {
            if (e.possible()) {
                out.add(e);
            }
            return e.possible();
        });
        return out;
    }

    /** The sender's (stream, boot) of a joined read is evidence of the exposure too. */
    void exposureBoot(String deployment, String stream, String boot) {
        exposureBoots.add(new ExposureBoot(deployment, stream, boot));
    }

    @Override
    public void invalid(AuditRecord record, String reason) {
        invalid.add(new Invalid(record, reason));
    }
}
