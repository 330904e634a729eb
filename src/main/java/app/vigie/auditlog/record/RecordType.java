package app.vigie.auditlog.record;

/** The record types of the page audit log v1 (XFER_SEND: v1.1; XFER_DONE: 1.3, amendment 3). */
public enum RecordType {
    CONFIG, ADMIT, ALLOC, WRITE, SHARE, ATTACH, FREE, XFER_COMMIT, XFER_SEND, XFER_DONE, FINISH, HEARTBEAT
}
