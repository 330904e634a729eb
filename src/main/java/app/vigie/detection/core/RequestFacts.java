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

    /**
     * Whether rejection {@code a} comes before {@code b}: {@code REJECTED_REQUEST_SERVED} carries the deployment and
     * place of the request's {@code ADMIT REJECT} with the smallest (ts, stream, boot, seq) (spec, "Clarifications").
     */
    public static boolean firstRejection(RequestFact a, RequestFact b) {
        int c = a.at().compareTo(b.at());
        if (c == 0) {
            c = Rule.compareIds(a.stream(), b.stream());
        }
        if (c == 0) {
            c = Rule.compareIds(a.boot(), b.boot());
        }
        return c != 0 ? c < 0 : a.seq() < b.seq();
    }

    public boolean rejectedButServed() {
        return rejected && (served || deliveredOutput);
    }
}
