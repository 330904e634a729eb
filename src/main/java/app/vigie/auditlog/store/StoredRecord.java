package app.vigie.auditlog.store;

/** An accepted record as stored: its line as received (its canonical text for records stored before V6). */
public record StoredRecord(long streamBootId, long seq, String body) {
}
