package app.vigie.auditlog.intake;

import app.vigie.auditlog.record.AuditRecord;

/** Judges one line on its own: size, encoding, JSON and every field of the spec. */
public final class LineParser {
    private final RecordParser parser = new RecordParser();

    /** A valid record with its canonical text, or the reason the line is rejected. */
    public record Parsed(IncomingLine line, AuditRecord record, String canonical, String rejection) {
    }

    public Parsed parse(IncomingLine line) {
        if (line.length() > RecordParser.MAX_LINE_BYTES) {
            return rejected(line, "line is " + line.length() + " bytes long; the limit is 1 MiB ("
                    + RecordParser.MAX_LINE_BYTES + " bytes)");
        }
        int bad = Utf8.firstInvalid(line.buf(), line.offset(), line.length());
        if (bad >= 0) {
            return rejected(line, "not valid UTF-8: malformed byte 0x"
                    + String.format("%02x", line.buf()[bad] & 0xff) + " at byte " + (bad - line.offset() + 1));
        }
        try {
            AuditRecord record = parser.parse(line.buf(), line.offset(), line.length());
            return new Parsed(line, record, CanonicalJson.of(record), null);
        } catch (InvalidRecordException e) {
            return rejected(line, e.getMessage());
        }
    }

    private static Parsed rejected(IncomingLine line, String reason) {
        return new Parsed(line, null, null, reason);
    }
}
