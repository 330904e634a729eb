package app.vigie.auditlog.kafka;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Future;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;

import app.vigie.auditlog.IngestService;
import app.vigie.auditlog.intake.IncomingLine;
import app.vigie.auditlog.intake.IngestResult;
import app.vigie.auditlog.intake.LineOutcome;
import app.vigie.auditlog.intake.Source;

/**
 * Production intake from {@code vigie.page-audit.v1}, at least once: a polled batch is stored (and its rejected
 * records quarantined and sent to the dead-letter topic with the reason in headers) before its offsets are
 * committed. Any failure rewinds to the committed offsets and retries; bad input never stops the consumer.
 */
@ApplicationScoped
public class AuditLogConsumer {
    private static final Logger LOG = Logger.getLogger(AuditLogConsumer.class);
    public static final String H_REASON = "vigie.reason";
    public static final String H_TOPIC = "vigie.source.topic";
    public static final String H_PARTITION = "vigie.source.partition";
    public static final String H_OFFSET = "vigie.source.offset";
    public static final String H_RECEIVED = "vigie.received-at";

    @Inject
    IngestService ingest;

    @Inject
    KafkaIntakeConfig config;

    @ConfigProperty(name = "vigie.mode", defaultValue = "embedded")
    String mode;

    private volatile boolean running;
    private volatile KafkaConsumer<byte[], byte[]> consumer;
    private volatile Instant lastSuccess;
    private volatile String lastError;
    private Thread thread;

    public boolean enabled() {
        return "production".equals(mode);
    }

    void start(@Observes StartupEvent start) {
        if (!enabled()) {
            return;
        }
        running = true;
        thread = new Thread(this::loop, "vigie-kafka-intake");
        thread.setDaemon(true);
        thread.start();
        LOG.infof("Kafka intake started: topic %s, group %s, brokers %s", config.topic(), config.groupId(),
                config.bootstrapServers());
    }

    void stop(@Observes ShutdownEvent stop) throws InterruptedException {
        running = false;
        KafkaConsumer<byte[], byte[]> c = consumer;
        if (c != null) {
            c.wakeup();
        }
        if (thread != null) {
            thread.join(30_000);
        }
    }

    /** When the last poll cycle completed, or null. */
    public Instant lastSuccess() {
        return lastSuccess;
    }

    public String lastError() {
        return lastError;
    }

    private void loop() {
        while (running) {
            try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(consumerProperties());
                    KafkaProducer<byte[], byte[]> dlq = new KafkaProducer<>(producerProperties())) {
                consumer = c;
                c.subscribe(List.of(config.topic()));
                long nextProbe = 0;
                while (running) {
                    if (System.currentTimeMillis() >= nextProbe) {
                        // a poll does not fail when the broker is unreachable: ask it something, for readiness
                        c.partitionsFor(config.topic(), Duration.ofSeconds(5));
                        lastSuccess = Instant.now();
                        lastError = null;
                        nextProbe = System.currentTimeMillis() + 10_000;
                    }
                    ConsumerRecords<byte[], byte[]> records = c.poll(Duration.ofMillis(500));
                    if (!records.isEmpty()) {
                        handle(c, dlq, records);
                        lastSuccess = Instant.now();
                    }
                }
            } catch (WakeupException e) {
                // shutting down
            } catch (Exception e) {
                lastError = e.toString();
                LOG.errorf(e, "Kafka intake failed; rewinding to the committed offsets and retrying in %s",
                        config.retryBackoff());
                sleep(config.retryBackoff());
            } finally {
                consumer = null;
            }
        }
    }

    private void handle(KafkaConsumer<byte[], byte[]> c, KafkaProducer<byte[], byte[]> dlq,
            ConsumerRecords<byte[], byte[]> records) throws Exception {
        List<IncomingLine> lines = new ArrayList<>(records.count());
        List<ConsumerRecord<byte[], byte[]>> sources = new ArrayList<>(records.count());
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> r : records) {
            byte[] value = r.value() == null ? new byte[0] : r.value();
            lines.add(IncomingLine.of(Source.KAFKA, r.topic() + "-" + r.partition(), r.offset(), value));
            sources.add(r);
            offsets.put(new TopicPartition(r.topic(), r.partition()), new OffsetAndMetadata(r.offset() + 1));
        }
        IngestResult result = ingest.ingest(lines, 0);
        List<Future<RecordMetadata>> sent = new ArrayList<>();
        String now = Instant.now().toString();
        for (int i = 0; i < lines.size(); i++) {
            LineOutcome o = result.outcomes().get(i);
            if (o.status() == LineOutcome.Status.REJECTED) {
                ConsumerRecord<byte[], byte[]> r = sources.get(i);
                String reason = r.value() == null ? "the Kafka record has no value" : o.reason();
                ProducerRecord<byte[], byte[]> out = new ProducerRecord<>(config.deadLetterTopic(), r.key(),
                        r.value());
                out.headers().add(H_REASON, reason.getBytes(StandardCharsets.UTF_8))
                        .add(H_TOPIC, r.topic().getBytes(StandardCharsets.UTF_8))
                        .add(H_PARTITION, Integer.toString(r.partition()).getBytes(StandardCharsets.UTF_8))
                        .add(H_OFFSET, Long.toString(r.offset()).getBytes(StandardCharsets.UTF_8))
                        .add(H_RECEIVED, now.getBytes(StandardCharsets.UTF_8));
                sent.add(dlq.send(out));
            }
        }
        for (Future<RecordMetadata> f : sent) {
            f.get();
        }
        c.commitSync(offsets);
        if (!sent.isEmpty()) {
            LOG.warnf("Kafka intake: %d of %d records rejected (quarantined and sent to %s)", sent.size(),
                    lines.size(), config.deadLetterTopic());
        }
    }

    private Properties consumerProperties() {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, config.groupId());
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, Integer.toString(config.maxPollRecords()));
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        return p;
    }

    private Properties producerProperties() {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, Integer.toString(16 << 20));
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        return p;
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
