package app.vigie.alert;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

import app.vigie.testing.Api;
import app.vigie.testing.OtlpReceiver;
import app.vigie.testing.WebhookReceiver;

/**
 * Traces from intake to alert (issue 22, goal 9), exported over OTLP/HTTP to a real receiver: the POST that brought
 * a leaking record, the intake's transaction that judged it and planned the alert, and the alert's delivery are one
 * trace; the webhook the customer receives carries that trace's {@code traceparent}.
 */
@QuarkusTest
@TestProfile(TracingTest.Traced.class)
class TracingTest {
    /** Tracing on, exported to the receiver at once (not every 5 s). */
    public static class Traced implements QuarkusTestProfile {
        static final OtlpReceiver RECEIVER;

        static {
            try {
                RECEIVER = new OtlpReceiver();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.otel.sdk.disabled", "false",
                    "quarkus.otel.exporter.otlp.traces.endpoint", RECEIVER.endpoint(),
                    "quarkus.otel.exporter.otlp.traces.protocol", "http/protobuf",
                    "quarkus.otel.bsp.schedule.delay", "PT0.1S");
        }
    }

    @Test
    void aLeakingRecordItsJudgementAndItsAlertsDeliveryAreOneTraceThatReachesTheCustomer() throws Exception {
        String p = Api.uniquePrefix();
        String victim = p + "-victim";
        try (WebhookReceiver hook = new WebhookReceiver()) {
            AlertDeliveryTest.webhookTenant(victim, hook);
            AlertDeliveryTest.leak(p, "s", p + "-a", p + "-b", victim, p + "-reader");
            AlertDeliveryTest.await("the alert delivered", () -> !hook.received().isEmpty());
            String traceparent = hook.received().get(0).traceparent();
            assertThat(traceparent).as("the webhook carries the trace").matches("00-[0-9a-f]{32}-[0-9a-f]{16}-01");
            String trace = traceparent.split("-")[1];
            String deliverySpan = traceparent.split("-")[2];

            List<OtlpReceiver.Received> spans = awaitSpans(trace, () -> Traced.RECEIVER.spans().stream()
                    .filter(s -> s.traceId().equals(trace)).toList());
            OtlpReceiver.Received delivery = one(spans, "vigie.alert.deliver");
            OtlpReceiver.Received chunk = spans.stream().filter(s -> s.spanId().equals(delivery.parentSpanId()))
                    .findFirst().orElseThrow(() -> new AssertionError("the delivery's parent is not in the trace: "
                            + spans));
            Optional<OtlpReceiver.Received> request = spans.stream()
                    .filter(s -> s.spanId().equals(chunk.parentSpanId())).findFirst();

            assertThat(delivery.spanId()).as("the webhook's traceparent is the delivery's span").isEqualTo(deliverySpan);
            assertThat(delivery.attributes()).containsEntry("vigie.alert.channel", "webhook")
                    .containsEntry("vigie.alert.phase", "INITIAL").containsEntry("vigie.alert.outcome", "delivered")
                    .containsEntry("vigie.alert.attempt", "1");
            assertThat(chunk.name()).isEqualTo("vigie.intake.chunk");
            assertThat(chunk.attributes()).containsKey("vigie.records");
            assertThat(request).as("the chunk below the POST that brought it").isPresent();
            assertThat(request.get().name()).contains("POST").contains("/api/audit-log");
            assertThat(request.get().kind()).isEqualTo("SPAN_KIND_SERVER");
            assertThat(delivery.service()).isEqualTo("vigie");
            assertThat(delivery.attributes().get("vigie.incident")).isNotBlank();
        }
    }

    private static OtlpReceiver.Received one(List<OtlpReceiver.Received> spans, String name) {
        List<OtlpReceiver.Received> named = spans.stream().filter(s -> s.name().equals(name)).toList();
        assertThat(named).as(name + " in " + spans).hasSize(1);
        return named.get(0);
    }

    /** The trace's spans once the delivery's has arrived (the exporter sends in batches). */
    private static List<OtlpReceiver.Received> awaitSpans(String trace, Supplier<List<OtlpReceiver.Received>> spans)
            throws InterruptedException {
        long until = System.currentTimeMillis() + 15_000;
        while (System.currentTimeMillis() < until) {
            List<OtlpReceiver.Received> now = spans.get();
            if (now.stream().anyMatch(s -> s.name().equals("vigie.alert.deliver"))
                    && now.stream().anyMatch(s -> "SPAN_KIND_SERVER".equals(s.kind()))) {
                return now;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("trace " + trace + " not complete in 15 s: " + spans.get());
    }
}
