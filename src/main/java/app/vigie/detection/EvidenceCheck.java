package app.vigie.detection;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import app.vigie.auditlog.intake.RecordParser;
import app.vigie.auditlog.record.AuditRecord;
import app.vigie.detection.core.DetectionSink;
import app.vigie.detection.core.DetectorLimits;
import app.vigie.detection.core.ExposureRead;
import app.vigie.detection.core.Finding;
import app.vigie.detection.core.Provenance;
import app.vigie.detection.core.RequestFact;
import app.vigie.detection.core.RequestFacts;
import app.vigie.detection.core.Rule;
import app.vigie.detection.core.StreamDetector;
import app.vigie.detection.core.TransferRead;
import app.vigie.detection.core.TransferSend;
import app.vigie.detection.store.EvidenceStore.EvidenceBoot;
import app.vigie.detection.store.EvidenceStore.StoredExposure;
import app.vigie.detection.store.EvidenceStore.StoredFinding;
import app.vigie.detection.store.EvidenceStore;
import app.vigie.detection.store.TransferStore;

/**
 * Judges an incident's kept evidence again (docs/operations.md, "Retention"): replays every boot it rests on, from
 * its first stored record, through a fresh detector, and says whether each stored finding is raised again and each
 * stored exposure has the same size. What the retention job keeps is what this reads, so that a purge that left an
 * incident without its evidence shows here.
 */
public final class EvidenceCheck {
    private EvidenceCheck() {
    }

    /** How many of the findings, and of the exposures, not reproduced an answer names at most (issue 41). */
    public static final int MAX_LISTED = 100;

    /**
     * The answer: whether every stored finding and exposure follows from the kept records; the boots replayed (and
     * those whose records are gone), the records read, and the stored findings and exposures that the replay does not
     * give again: how many, and the first {@value #MAX_LISTED} of each named with why (an incident whose records were
     * purged would otherwise list every one of its millions).
     */
    public record Result(UUID incident, boolean reproduced, int boots, int bootsPurged, long records, int findings,
            List<String> findingsNotReproduced, int findingsNotReproducedCount, int exposures,
            List<String> exposuresNotReproduced, int exposuresNotReproducedCount) {
    }

    public static Result check(Connection c, UUID incident) throws SQLException {
        return check(c, incident, DetectorLimits.DEFAULT);
    }

    /** The check, its detectors held to {@code limits} (the service's, so that a boot not judged stays so). */
    public static Result check(Connection c, UUID incident, DetectorLimits limits) throws SQLException {
        RecordParser parser = new RecordParser();
        Replay replay = new Replay();
        int purged = 0;
        long records = 0;
        List<EvidenceBoot> boots = EvidenceStore.boots(c, incident);
        for (EvidenceBoot b : boots) {
            if (b.purgedAt() != null) {
                purged++;
                continue;
            }
            StreamDetector d = new StreamDetector(b.stream(), b.boot());
            d.limits(limits);
            records += StoredReplay.replay(c, b.id(), d, b.nextSeq(), parser, replay);
        }
        // spec 1.3, amendment 5: what a flush judged as in version 1 (the send missing then: a fact of time, kept with
        // the read) is judged so again
        List<String> streams = new ArrayList<>();
        List<String> bootIds = new ArrayList<>();
        for (EvidenceBoot b : boots) {
            if (b.purgedAt() == null) {
                streams.add(b.stream());
                bootIds.add(b.boot());
            }
        }
        TransferStore.resolvedReads(c, streams, bootIds).forEach((read, ranges) -> Provenance.fallback(read, ranges,
                replay));
        for (RequestFacts f : replay.facts.values()) {
            f.finding().ifPresent(replay::finding);
        }

        List<StoredFinding> findings = EvidenceStore.findings(c, incident);
        List<String> missingFindings = new ArrayList<>();
        int findingsMissing = 0;
        for (StoredFinding f : findings) {
            // TRANSFER_SEND_MISSING raised before spec 1.3 (by a timeout, without the positions it left unjudged): what
            // a replay can show again is the read through that request
            boolean again = replay.findings.contains(f.rule() + "\u0000" + f.subject())
                    || f.rule().equals(Rule.TRANSFER_SEND_MISSING.name()) && replay.readThrough.contains(f.subject());
            if (!again && findingsMissing++ < MAX_LISTED) {
                missingFindings.add(f.rule() + " " + f.subject() + " (" + f.stream() + " boot " + f.boot()
                        + "): not raised again by the kept records");
            }
        }
        List<StoredExposure> exposures = EvidenceStore.exposures(c, incident);
        List<String> missingExposures = new ArrayList<>();
        int exposuresMissing = 0;
        for (StoredExposure e : exposures) {
            ExposureRead again = replay.exposures.get(e.reader() + "\u0000" + e.victim());
            int tokens = again == null ? 0 : again.tokens();
            boolean differs = tokens != e.tokens() || again != null && again.possible() != e.possible();
            if (differs && exposuresMissing++ < MAX_LISTED) {
                missingExposures.add(e.victim() + " read by " + e.reader() + ": " + e.tokens() + " tokens stored"
                        + (e.possible() ? " (possible)" : "") + ", " + tokens + " judged again from the kept records"
                        + (again != null && again.possible() ? " (possible)" : ""));
            }
        }
        return new Result(incident, findingsMissing == 0 && exposuresMissing == 0, boots.size() - purged,
                purged, records, findings.size(), missingFindings, findingsMissing, exposures.size(), missingExposures,
                exposuresMissing);
    }

    /** What the replay concludes: findings by (rule, subject), exposures merged by (reader, victim), facts. */
    private static final class Replay implements DetectionSink {
        final Set<String> findings = new HashSet<>();
        final Map<String, ExposureRead> exposures = new HashMap<>();
        final Map<String, RequestFacts> facts = new HashMap<>();
        final Provenance provenance = new Provenance();
        /** The requests through which a read of received positions was made. */
        final Set<String> readThrough = new HashSet<>();

        @Override
        public void finding(Finding f) {
            findings.add(f.rule().name() + "\u0000" + f.subject());
        }

        @Override
        public void exposure(ExposureRead read) {
            exposures.merge(read.readerRequest() + "\u0000" + read.victimRequest(), read, ExposureRead::merge);
        }

        @Override
        public void requestFact(RequestFact fact) {
            facts.computeIfAbsent(fact.request(), RequestFacts::of);
            facts.computeIfPresent(fact.request(), (k, f) -> f.with(fact));
        }

        @Override
        public void transferRead(TransferRead read) {
            readThrough.add(read.via());
            provenance.read(read, this);
        }

        @Override
        public void transferSend(TransferSend send) {
            provenance.send(send, this);
        }

        @Override
        public void invalid(AuditRecord record, String reason) {
        }
    }
}
