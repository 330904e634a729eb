package app.vigie.auditlog.kafka;

import java.time.Duration;
import java.time.Instant;
import java.util.TreeMap;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Ready when, in production mode, the Kafka intake has completed a poll in the last 30 s; says which topics the
 * broker refuses it, if any (the others are read).
 */
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
        if (!consumer.unreadableTopics().isEmpty()) {
            // the instance reads its other topics: still ready, and says which ones it cannot read
            b.withData("unreadable_topics", new TreeMap<>(consumer.unreadableTopics()).toString());
        }
        if (consumer.lastError() != null) {
            b.withData("last_error", consumer.lastError());
        }
        return b.build();
    }
}
