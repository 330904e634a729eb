package app.vigie.auditlog.store;

/** The application cursor of one (stream, boot): every seq below {@code nextSeq} is applied or lost. */
public record StreamCursor(long id, String stream, String boot, long nextSeq, long maxSeq) {

    public boolean holdsRecords() {
        return maxSeq >= nextSeq;
    }
}
