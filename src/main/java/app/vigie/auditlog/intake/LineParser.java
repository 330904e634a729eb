package app.vigie.auditlog.intake;

import app.vigie.auditlog.record.AuditRecord;

/** Judges one line on its own: size, encoding, JSON and every field of the spec. */
public final class LineParser {
    private final RecordParser parser = new RecordParser();

    /** The canonical text of a stored record (stored as received, or canonical before). */
    public String canonicalOfStored(String stored) throws InvalidRecordException {
        return CanonicalJson.of(parser.parse(stored));
    }

    /**
     * A valid record with its text as received (what is stored), or the reason the line is rejected. Its canonical
     * text, needed only when two deliveries of a key are compared, is made on demand.
     */
    public static final class Parsed {
        private final IncomingLine line;
        private final AuditRecord record;
        private final String rejection;
        private String canonical;

        Parsed(IncomingLine line, AuditRecord record, String rejection) {
            this.line = line;
            this.record = record;
            this.rejection = rejection;
        }

        public IncomingLine line() {
            return line;
        }

        public AuditRecord record() {
            return record;
        }

        public String rejection() {
            return rejection;
        }

        /** The line as received: valid UTF-8 JSON of this record. */
        public String text() {
            return line.text();
        }

        /**
         * This line, refused before it is stored for a reason that is not its own content (the account that sent it
         * may not write its stream): rejected with its record, so that the quarantine keeps its key.
         */
        public Parsed refused(String reason) {
            return new Parsed(line, record, reason);
        }

        public String canonical() {
            if (canonical == null) {
                canonical = CanonicalJson.of(record);
            }
            return canonical;
        }
    }

    public Parsed parse(IncomingLine line) {
        if (line.isTruncated() || line.length() > RecordParser.MAX_LINE_BYTES) {
            return rejected(line, "line is " + (line.isTruncated() ? line.receivedLength() : line.length())
                    + " bytes long; the limit is 1 MiB ("
                    + RecordParser.MAX_LINE_BYTES + " bytes)");
        }
        int bad = line.utf8Checked() ? -1 : Utf8.firstInvalid(line.buf(), line.offset(), line.length());
        if (bad >= 0) {
            return rejected(line, "not valid UTF-8: malformed byte 0x"
                    + String.format("%02x", line.buf()[bad] & 0xff) + " at byte " + (bad - line.offset() + 1));
        }
        try {
            AuditRecord record = parser.parse(line.buf(), line.offset(), line.length());
            return new Parsed(line, record, null);
        } catch (InvalidRecordException e) {
            return rejected(line, e.getMessage());
        }
    }

    private static Parsed rejected(IncomingLine line, String reason) {
        return new Parsed(line, null, reason);
    }
}
