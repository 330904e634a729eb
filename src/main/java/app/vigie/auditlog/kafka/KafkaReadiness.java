package app.vigie.auditlog.kafka;

import java.time.Duration;
import java.time.Instant;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** Ready when, in production mode, the Kafka intake has completed a poll in the last 30 s. */
@Readiness
@ApplicationScoped
public class KafkaReadiness implements HealthCheck {
    @Inject
    AuditLogConsumer consumer;

    @Override
    public HealthCheckResponse call() {
        if (!consumer.enabled()) {
            return HealthCheckResponse.named("kafka-intake").up().withData("mode", "embedded (no Kafka)").build();
        }
        Instant last = consumer.lastSuccess();
        boolean up = last != null && last.isAfter(Instant.now().minus(Duration.ofSeconds(30)));
        var b = HealthCheckResponse.named("kafka-intake").status(up).withData("last_poll",
                last == null ? "never" : last.toString());
        b.withData("partitions", consumer.assigned().stream().map(tp -> tp.partition()).sorted().toList().toString());
        if (consumer.pausedSince() != null) {
            // the database's own check says why; this instance stays up and reads again by itself
            b.withData("paused_since", consumer.pausedSince().toString());
        }
        if (consumer.lastError() != null) {
            b.withData("last_error", consumer.lastError());
        }
        return b.build();
    }
}
