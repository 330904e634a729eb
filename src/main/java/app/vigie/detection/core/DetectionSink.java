package app.vigie.detection.core;

import app.vigie.auditlog.record.AuditRecord;

/** Receives what the detector concludes. Every call is idempotent in effect: replaying a stream repeats them. */
public interface DetectionSink {

    void finding(Finding finding);

    void exposure(ExposureRead read);

    void requestFact(RequestFact fact);

    /**
     * Spec v1.1: a read of slots a transfer wrote with {@code sent: true}, to be judged once the sender's
     * {@code XFER_SEND} is known ({@link Provenance}).
     */
    void transferRead(TransferRead read);

    /** Spec v1.1: an {@code XFER_SEND} as judged on its sender's stream, to be joined with the reads of its request. */
    void transferSend(TransferSend send);

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
        public void transferRead(TransferRead read) {
        }

        @Override
        public void transferSend(TransferSend send) {
        }

        @Override
        public void invalid(AuditRecord record, String reason) {
        }
    };
}
