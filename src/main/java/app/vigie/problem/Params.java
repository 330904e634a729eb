package app.vigie.problem;

/** Query parameters read by hand, so that a bad one answers 400 naming it (JAX-RS's own conversion answers 404). */
public final class Params {
    private Params() {
    }

    /** A whole number from {@code min} to {@code max}, or a 400 problem naming the parameter. */
    public static long number(String name, String value, long min, long max) {
        try {
            long v = Long.parseLong(value.strip());
            if (v >= min && v <= max) {
                return v;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw new ProblemException(400, "query parameter '" + name + "' must be a whole number from " + min + " to "
                + max + ", got '" + value + "'");
    }
}
