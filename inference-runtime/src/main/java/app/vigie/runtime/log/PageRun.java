package app.vigie.runtime.log;

/** A run of consecutive pool pages, written as {@code [first_page, count]}. */
public record PageRun(int firstPage, int count) {
    public PageRun {
        if (firstPage < 0) {
            throw new IllegalArgumentException("firstPage must be >= 0: " + firstPage);
        }
        if (count < 1) {
            throw new IllegalArgumentException("count must be >= 1: " + count);
        }
    }
}
