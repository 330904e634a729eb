package app.vigie.auditlog.store;

/** An accepted record as stored: its canonical text. */
public record StoredRecord(long streamBootId, long seq, String body) {
}
