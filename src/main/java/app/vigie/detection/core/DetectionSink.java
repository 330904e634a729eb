package app.vigie.detection.core;

import app.vigie.auditlog.record.AuditRecord;

/** Receives what the detector concludes. Every call is idempotent in effect: replaying a stream repeats them. */
public interface DetectionSink {

    void finding(Finding finding);

    void exposure(ExposureRead read);

    void requestFact(RequestFact fact);

    /** A well-formed record impossible in its stream's state: it had no effect. */
    void invalid(AuditRecord record, String reason);

    /** Discards everything: for rebuilding state from records already judged. */
    DetectionSink NONE = new DetectionSink() {
        @Override
        public void finding(Finding finding) {
        }

        @Override
        public void exposure(ExposureRead read) {
        }

        @Override
        public void requestFact(RequestFact fact) {
        }

        @Override
        public void invalid(AuditRecord record, String reason) {
        }
    };
}
