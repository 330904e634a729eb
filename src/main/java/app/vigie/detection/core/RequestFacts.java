package app.vigie.detection.core;

import java.util.Optional;

/**
 * Everything known of one request across all streams, and the rule that joins it: {@code REJECTED_REQUEST_SERVED}
 * holds when the request was rejected at admission on some stream and also allocated or attended on some stream, or
 * finished delivered with output. The facts merge as a union (flags or-ed, the first rejection kept), so the result
 * is the same in any arrival order and whichever transaction, stream or instance brought each fact; the store keeps
 * the merged facts of earlier transactions with the same union and hands them back here to be judged.
 *
 * @param tenant the first tenant a fact named
 * @param firstRejection the {@code ADMIT REJECT} with the smallest (ts, stream, boot, seq), or null
 * @param finished whether some stream finished the request
 * @param delivered whether some {@code FINISH} said delivered; null before any {@code FINISH}
 * @param deliveredOutput whether some {@code FINISH} said delivered with output tokens
 */
public record RequestFacts(String request, String tenant, boolean rejected, RequestFact firstRejection,
        boolean served, boolean finished, Boolean delivered, boolean deliveredOutput) {

    /** Nothing known yet of {@code request}. */
    public static RequestFacts of(String request) {
        return new RequestFacts(request, null, false, null, false, false, null, false);
    }

    /** These facts and {@code f}, a fact of the same request. */
    public RequestFacts with(RequestFact f) {
        String t = tenant == null ? f.tenant() : tenant;
        return switch (f.kind()) {
            case ADMIT_REJECTED -> new RequestFacts(request, t, true,
                    firstRejection == null || firstRejection(f, firstRejection) ? f : firstRejection, served,
                    finished, delivered, deliveredOutput);
            case SERVED -> served && t == tenant ? this
                    : new RequestFacts(request, t, rejected, firstRejection, true, finished, delivered,
                            deliveredOutput);
            case FINISHED -> new RequestFacts(request, t, rejected, firstRejection, served, true,
                    // delivered when any FINISH of the request says so (several streams may each finish it)
                    delivered == null ? f.delivered() : delivered || f.delivered(),
                    deliveredOutput || f.serves());
        };
    }

    /** The union of these facts and {@code o}, facts of the same request known elsewhere. */
    public RequestFacts merge(RequestFacts o) {
        RequestFact first = firstRejection == null ? o.firstRejection
                : o.firstRejection == null || firstRejection(firstRejection, o.firstRejection) ? firstRejection
                : o.firstRejection;
        return new RequestFacts(request, tenant == null ? o.tenant : tenant, rejected || o.rejected, first,
                served || o.served, finished || o.finished,
                delivered == null ? o.delivered : o.delivered == null ? delivered : delivered || o.delivered,
                deliveredOutput || o.deliveredOutput);
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
        return rejected && firstRejection != null && (served || deliveredOutput);
    }

    /**
     * The {@code REJECTED_REQUEST_SERVED} finding these facts call for, as it reads with what is known now (a finding
     * raised earlier is brought up to date with it: a later fact may add how the request was served, or an earlier
     * rejection); empty when the rule does not hold.
     */
    public Optional<Finding> finding() {
        if (!rejectedButServed()) {
            return Optional.empty();
        }
        String how = served ? "then allocated or attended" : "";
        if (deliveredOutput) {
            how += (how.isEmpty() ? "" : ", and ") + "finished delivered with output";
        }
        RequestFact r = firstRejection;
        return Optional.of(new Finding(Rule.REJECTED_REQUEST_SERVED, r.deployment(), request, r.at(),
                new Finding.Evidence(r.stream(), r.boot(), r.seq(), r.seq(), "request " + request + " of tenant "
                        + tenant + " was rejected at admission (seq " + r.seq() + ") and " + how)));
    }
}
