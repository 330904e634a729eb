package app.vigie.detection.core;

/**
 * What is known of one request across all streams, in any arrival order, and the rule that joins it:
 * {@code REJECTED_REQUEST_SERVED} fires when a request was rejected at admission on some stream and also allocated
 * or attended on some stream, or finished delivered with output.
 */
public record RequestFacts(boolean rejected, boolean served, boolean deliveredOutput) {

    public static final RequestFacts NONE = new RequestFacts(false, false, false);

    public RequestFacts with(RequestFact f) {
        return switch (f.kind()) {
            case ADMIT_REJECTED -> new RequestFacts(true, served, deliveredOutput);
            case SERVED -> new RequestFacts(rejected, true, deliveredOutput);
            case FINISHED -> new RequestFacts(rejected, served,
                    deliveredOutput || f.delivered() && f.outputTokens() > 0);
        };
    }

    public boolean rejectedButServed() {
        return rejected && (served || deliveredOutput);
    }
}
