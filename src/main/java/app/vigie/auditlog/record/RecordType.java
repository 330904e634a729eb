package app.vigie.auditlog.record;

/** The record types of the page audit log v1. */
public enum RecordType {
    CONFIG, ADMIT, ALLOC, WRITE, SHARE, ATTACH, FREE, XFER_COMMIT, FINISH, HEARTBEAT
}
