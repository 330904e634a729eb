package app.vigie.auditlog.record;

/** Consecutive pool pages {@code [first, first + count)}, written {@code [first_page, count]}. */
public record PageRun(int first, int count) {
    /** The page after the run; a long so that {@code first + count} never overflows. */
    public long end() {
        return (long) first + count;
    }
}
