package app.vigie.problem;

/** Ends a request with a problem answer of the given status. */
public class ProblemException extends RuntimeException {
    private final int status;
    /** Seconds for a {@code Retry-After} header, or 0 for none. */
    private final int retryAfter;

    public ProblemException(int status, String detail) {
        this(status, detail, 0);
    }

    public ProblemException(int status, String detail, int retryAfterSeconds) {
        super(detail);
        this.status = status;
        this.retryAfter = retryAfterSeconds;
    }

    public int status() {
        return status;
    }

    /** Seconds the client should wait before trying again ({@code Retry-After}), or 0. */
    public int retryAfter() {
        return retryAfter;
    }
}
