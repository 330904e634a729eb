package app.vigie.auditlog.intake;

/** A line that is not a valid page audit record; the message is the reason, written for a person. */
public class InvalidRecordException extends Exception {
    public InvalidRecordException(String reason) {
        super(reason, null, false, false);
    }
}
