package app.vigie.auditlog.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.Future;

import jakarta.inject.Inject;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;

import app.vigie.testing.Api;
import app.vigie.testing.KafkaResource;
import app.vigie.testing.Logs;

/**
 * Issue 41, point 3: a record whose processing fails, whatever the exception, does not stop the Kafka intake. On a real
 * broker, between good records on one partition, a record that parses and is accepted but whose application throws
 * (a bug in a listener of the applied records, {@link PoisonListener}, the test's only seam) is retried a bounded
 * number of times, then kept in the quarantine and the dead-letter topic with its reason; the good records of its
 * batch are judged, the partition's offset is committed past it, and the consumer goes on.
 */
@QuarkusTest
@TestProfile(KafkaPoisonRecordTest.Poisoned.class)
class KafkaPoisonRecordTest {
    private static final String TOPIC = "vigie.page-audit.v1";
    private static final int PARTITION = 0;

    /** Production mode against the test broker, with the poison listener armed and short waits between attempts. */
    public static class Poisoned implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("vigie.mode", "production", "vigie.kafka.group-id", "vigie-poison-test",
                    "vigie.kafka.retry-backoff", "100ms", "vigie.kafka.max-retry-backoff", "400ms",
                    PoisonListener.ARMED, "true");
        }

        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(KafkaResource.class));
        }
    }

    @Inject
    PoisonListener poison;

    @Test
    void aRecordWhoseProcessingThrowsIsQuarantinedAndTheGoodOnesAroundItAreJudgedAndTheConsumerGoesOn()
            throws Exception {
        String before = Api.uniquePrefix();
        String after = Api.uniquePrefix();
        String poisoned = Api.uniquePrefix() + PoisonListener.SUFFIX;
        List<String> leaksBefore = Api.leakLines(before, before + "-acme", before + "-globex", 3);
        List<String> poisonStream = Logs.stream(poisoned, 3);
        List<String> leaksAfter = Api.leakLines(after, after + "-acme", after + "-globex", 3);

        // one partition, sent together: the poison record lies inside a batch of good ones
        List<ProducerRecord<byte[], byte[]>> out = new ArrayList<>();
        leaksBefore.forEach(l -> out.add(record(before + "/s", l)));
        poisonStream.forEach(l -> out.add(record(poisoned, l)));
        leaksAfter.forEach(l -> out.add(record(after + "/s", l)));
        List<RecordMetadata> sent = send(out);
        long first = sent.get(0).offset();
        long poisonOffset = sent.get(leaksBefore.size() + 1).offset();  // seq 2 of the poisoned stream
        long end = sent.get(sent.size() - 1).offset() + 1;

        // the good records before and after it are judged: both leaks make their incident
        for (String prefix : List.of(before, after)) {
            Awaitility.await("the incident of " + prefix).atMost(Duration.ofSeconds(60))
                    .until(() -> Api.incident(prefix + "/dep"), i -> i != null
                            && i.get("leaked_responses").asLong() == 3);
        }
        // the poison one is kept in the quarantine with its reason, its source and its position
        Map<String, Object> kept = Awaitility.await().atMost(Duration.ofSeconds(60))
                .until(() -> quarantined(first, end), l -> !l.isEmpty()).get(0);
        assertThat(quarantined(first, end)).as("only the poison record of the partition's range is quarantined")
                .hasSize(1);
        assertThat(kept).containsEntry("source", "kafka").containsEntry("source_name", TOPIC + "-" + PARTITION)
                .containsEntry("stream", poisoned).containsEntry("seq", 2);
        assertThat(((Number) kept.get("position")).longValue()).isEqualTo(poisonOffset);
        assertThat((String) kept.get("reason")).contains("java.lang.IllegalStateException")
                .contains(PoisonListener.MESSAGE).contains("attempts");
        assertThat(poison.thrown()).as("retried a bounded number of times").isBetween(2, 40);

        // and in the dead-letter topic, with the reason and where it came from in headers
        ConsumerRecord<byte[], byte[]> dead = deadLetter(poisoned);
        assertThat(dead).isNotNull();
        assertThat(header(dead, AuditLogConsumer.H_REASON)).isEqualTo(kept.get("reason"));
        assertThat(header(dead, AuditLogConsumer.H_TOPIC)).isEqualTo(TOPIC);
        assertThat(header(dead, AuditLogConsumer.H_PARTITION)).isEqualTo(Integer.toString(PARTITION));
        assertThat(header(dead, AuditLogConsumer.H_OFFSET)).isEqualTo(Long.toString(poisonOffset));

        // the poisoned stream's other records are stored (seq 3 waits for the missing seq 2, as after any gap)
        Api.admin().get("/api/streams").then().statusCode(200)
                .body("find { it.stream == '" + poisoned + "' }.accepted", equalTo(2));

        // the offset is committed past it
        try (Admin admin = Admin.create(KafkaResource.adminProperties())) {
            TopicPartition tp = new TopicPartition(TOPIC, PARTITION);
            Awaitility.await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                OffsetAndMetadata committed = admin.listConsumerGroupOffsets("vigie-poison-test")
                        .partitionsToOffsetAndMetadata().get().get(tp);
                assertThat(committed).isNotNull();
                assertThat(committed.offset()).isGreaterThanOrEqualTo(end);
                assertThat(committed.offset()).isEqualTo(admin.listOffsets(Map.of(tp, OffsetSpec.latest())).all()
                        .get().get(tp).offset());
            });
        }

        // and the consumer is alive: a later record is read and judged
        String later = Api.uniquePrefix();
        List<ProducerRecord<byte[], byte[]>> more = new ArrayList<>();
        Api.leakLines(later, later + "-acme", later + "-globex", 1).forEach(l -> more.add(record(later + "/s", l)));
        send(more);
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> Api.incident(later + "/dep"),
                i -> i != null && i.get("leaked_responses").asLong() == 1);
        Api.admin().get("/q/health/ready").then().statusCode(200);
    }

    /** The Kafka records of partition {@value #PARTITION} quarantined with an offset in [from, to). */
    private static List<Map<String, Object>> quarantined(long from, long to) {
        List<Map<String, Object>> items = JsonPath.from(Api.admin().get("/api/quarantine?source=kafka&size=500")
                .then().statusCode(200).extract().asString()).getList("items");
        return items.stream().filter(i -> (TOPIC + "-" + PARTITION).equals(i.get("source_name"))
                && ((Number) i.get("position")).longValue() >= from && ((Number) i.get("position")).longValue() < to)
                .toList();
    }

    private static ProducerRecord<byte[], byte[]> record(String stream, String line) {
        return new ProducerRecord<>(TOPIC, PARTITION, stream.getBytes(StandardCharsets.UTF_8),
                line.getBytes(StandardCharsets.UTF_8));
    }

    /** Sends the records in order, in as few requests as the producer makes of them; their metadata in order. */
    private static List<RecordMetadata> send(List<ProducerRecord<byte[], byte[]>> records) throws Exception {
        Properties p = new Properties();
        p.putAll(Map.of("bootstrap.servers", KafkaResource.bootstrapServers(), "acks", "all", "linger.ms", "200",
                "key.serializer", ByteArraySerializer.class.getName(),
                "value.serializer", ByteArraySerializer.class.getName()));
        List<Future<RecordMetadata>> futures = new ArrayList<>();
        List<RecordMetadata> out = new ArrayList<>();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
            for (ProducerRecord<byte[], byte[]> r : records) {
                futures.add(producer.send(r));
            }
            producer.flush();
            for (var f : futures) {
                out.add(f.get());
            }
        }
        return out;
    }

    private static ConsumerRecord<byte[], byte[]> deadLetter(String key) {
        Properties p = new Properties();
        p.putAll(Map.of("bootstrap.servers", KafkaResource.bootstrapServers(), "group.id", "dlq-reader-" + key,
                "auto.offset.reset", "earliest", "key.deserializer", ByteArrayDeserializer.class.getName(),
                "value.deserializer", ByteArrayDeserializer.class.getName()));
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p)) {
            c.subscribe(Set.of("vigie.page-audit.dlq"));
            long until = System.currentTimeMillis() + 30_000;
            while (System.currentTimeMillis() < until) {
                for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(500))) {
                    if (r.key() != null && key.equals(new String(r.key(), StandardCharsets.UTF_8))) {
                        return r;
                    }
                }
            }
        }
        return null;
    }

    private static String header(ConsumerRecord<byte[], byte[]> r, String name) {
        Header h = r.headers().lastHeader(name);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }
}
