package app.vigie.alert;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import app.vigie.kafka.KafkaClients;
import app.vigie.platform.Mode;

/**
 * Alerts on the Kafka topic {@code vigie.alerts.topic} (vigie.customer-alerts.v1), keyed by tenant (all of a
 * tenant's alerts in one partition, in order), with the Idempotency-Key and the phase as headers; acks=all, an
 * idempotent producer. Production mode only: in embedded mode there is no broker, and such a delivery fails saying
 * so (then ends DEAD, visible to the DPO).
 */
@ApplicationScoped
public class KafkaAlerts {

    @Inject
    KafkaClients clients;


    @Inject
    AlertConfig config;

    private KafkaProducer<byte[], byte[]> producer;

    private synchronized KafkaProducer<byte[], byte[]> producer() {
        if (producer == null) {
            Properties p = clients.properties(KafkaClients.Role.ALERTS);
            p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, clients.bootstrapServers());
            p.put(ProducerConfig.ACKS_CONFIG, "all");
            p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
            p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "10000");
            p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "15000");
            p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000");
            p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
            p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
            producer = new KafkaProducer<>(p);
        }
        return producer;
    }

    /** Sends; null when the broker acknowledged it, else what went wrong. */
    String send(String tenant, String key, String phase, byte[] body) {
        if (Mode.current() != Mode.PRODUCTION) {
            return "Kafka alerts need the production mode (no broker in embedded mode)";
        }
        ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(config.topic(),
                tenant.getBytes(StandardCharsets.UTF_8), body);
        record.headers().add("Idempotency-Key", key.getBytes(StandardCharsets.UTF_8));
        record.headers().add("Vigie-Alert-Phase", phase.getBytes(StandardCharsets.UTF_8));
        try {
            producer().send(record).get(20, TimeUnit.SECONDS);
            return null;
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            return "Kafka: " + e.getClass().getSimpleName() + ": " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }

    @PreDestroy
    synchronized void close() {
        if (producer != null) {
            producer.close(Duration.ofSeconds(5));
        }
    }
}
