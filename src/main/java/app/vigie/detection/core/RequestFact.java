package app.vigie.detection.core;

import java.time.Instant;

/**
 * What a record says about a request, for the rules that join by request id across streams
 * ({@code REJECTED_REQUEST_SERVED}) and for the delivery of exposures.
 */
public record RequestFact(Kind kind, String request, String tenant, String deployment, Instant at, String stream,
        String boot, long seq, boolean delivered, int outputTokens) {

    /**
     * Whether this fact shows the request served, for {@code REJECTED_REQUEST_SERVED}: an {@code ALLOC} or
     * {@code ATTACH}, or a {@code FINISH} delivered with output tokens.
     */
    public boolean serves() {
        return kind == Kind.SERVED || kind == Kind.FINISHED && delivered && outputTokens > 0;
    }

    /** The facts that matter across streams. */
    public enum Kind {
        /** {@code ADMIT} with verdict {@code REJECT}. */
        ADMIT_REJECTED,
        /** {@code ALLOC} or {@code ATTACH}: the request was served. */
        SERVED,
        /** {@code FINISH}: {@code delivered} and {@code outputTokens} are set. */
        FINISHED
    }
}
