package app.vigie.testing;

/** Lines of a {@code /q/metrics} page, as read by the tests and the benchmarks. */
public final class OpenMetrics {
    private OpenMetrics() {
    }

    /**
     * A line's sample, {@code name{labels} value}, without the exemplar OpenMetrics may write after it
     * ({@code  # {trace_id=...} value timestamp}).
     */
    public static String sample(String line) {
        int exemplar = line.indexOf(" # ");
        return exemplar < 0 ? line : line.substring(0, exemplar);
    }

    /** The value of a line's sample. */
    public static double value(String line) {
        String sample = sample(line);
        return Double.parseDouble(sample.substring(sample.lastIndexOf(' ') + 1));
    }
}
