package app.vigie.problem;

/** Ends a request with a problem answer of the given status. */
public class ProblemException extends RuntimeException {
    private final int status;

    public ProblemException(int status, String detail) {
        super(detail);
        this.status = status;
    }

    public int status() {
        return status;
    }
}
