package app.vigie.platform;

import java.util.Map;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;

/**
 * Traces across what the service keeps between two steps of one flow: the W3C {@code traceparent} of the step that
 * wrote a row (the intake transaction that planned an alert), read back by the step that continues it (the alert's
 * delivery), so that a trace goes from the leaking record to the customer's webhook. With tracing off (the default:
 * {@code quarkus.otel.sdk.disabled=true}) nothing is kept nor sent.
 */
public final class Traces {
    private static volatile boolean exported;

    private Traces() {
    }

    /**
     * Whether traces are exported ({@code quarkus.otel.sdk.disabled=false}), set at start by {@link TracesSwitch}.
     * Quarkus's instrumentation makes span ids even when they are not (quarkusio/quarkus#43502): without this, every
     * alert would keep, and every webhook carry, the id of a trace nobody can see.
     */
    static void exported(boolean on) {
        exported = on;
    }

    /** Marks {@code span} failed by {@code e}: the exception recorded as an event, the status ERROR with its text. */
    public static void failed(Span span, Throwable e) {
        span.recordException(e);
        span.setStatus(StatusCode.ERROR, String.valueOf(e.getMessage()));
    }

    /**
     * The current span as a W3C {@code traceparent} ({@code 00-<trace>-<span>-<flags>}); null when none, or when traces
     * are not exported.
     */
    public static String currentParent() {
        if (!exported) {
            return null;
        }
        SpanContext s = Span.current().getSpanContext();
        if (!s.isValid()) {
            return null;
        }
        return "00-" + s.getTraceId() + "-" + s.getSpanId() + "-" + s.getTraceFlags().asHex();
    }

    /** A context whose parent is the span {@code traceparent} names (the root context when null or unreadable). */
    public static Context parent(String traceparent) {
        if (traceparent == null) {
            return Context.root();
        }
        return W3CTraceContextPropagator.getInstance().extract(Context.root(), Map.of("traceparent", traceparent),
                GETTER);
    }

    private static final TextMapGetter<Map<String, String>> GETTER = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Map<String, String> carrier) {
            return carrier.keySet();
        }

        @Override
        public String get(Map<String, String> carrier, String key) {
            return carrier == null ? null : carrier.get(key);
        }
    };
}
