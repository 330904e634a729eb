package app.vigie.auditlog.record;

import java.time.Instant;

/**
 * One validated record of the page audit log v1: the envelope and the fields of its type. Plain data, no framework
 * type, so that the detector core can take it as it is.
 */
public record AuditRecord(String stream, String boot, long seq, Instant ts, String deployment, Body body) {

    public RecordType type() {
        return body.type();
    }

    /** The idempotency key of the record. */
    public Key key() {
        return new Key(stream, boot, seq);
    }

    /** {@code (stream, boot, seq)}. */
    public record Key(String stream, String boot, long seq) {
        @Override
        public String toString() {
            return "(" + stream + ", " + boot + ", " + seq + ")";
        }
    }
}
