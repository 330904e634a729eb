package app.vigie.auditlog.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Collectors;

import jakarta.inject.Inject;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.assertj.core.api.Assertions;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;

import app.vigie.kafka.KafkaClients;
import app.vigie.runtime.engine.Fault;
import app.vigie.runtime.sim.Simulation;
import app.vigie.runtime.sim.Sinks;
import app.vigie.testing.Api;
import app.vigie.testing.KafkaResource;
import app.vigie.testing.Logs;
import app.vigie.testing.RecordingListener;

/** The production intake end to end on a real broker: stored, applied in order, bad records to DLQ and quarantine. */
@QuarkusTest
@TestProfile(KafkaIntakeTest.Production.class)
class KafkaIntakeTest {

    /** Production mode against the test broker. */
    public static class Production implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("vigie.mode", "production", "vigie.kafka.group-id", "vigie-test");
        }

        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(KafkaResource.class));
        }
    }

    @Inject
    RecordingListener recorder;

    @Inject
    AuditLogConsumer consumer;

    /** A tenant whose alerts go to Kafka: its INITIAL alert on vigie.customer-alerts.v1, keyed by the tenant. */
    @Test
    void customerAlertsArePublishedKeyedByTenant() throws Exception {
        String p = Api.uniquePrefix();
        String victim = p + "-acme";
        Api.admin().contentType("application/json").body("{\"legal_name\":\"Acme SAS\",\"country\":\"FR\","
                + "\"alert_channels\":[{\"type\":\"kafka\",\"target\":\"" + victim + "\"}]}")
                .put("/api/tenants/" + victim).then().statusCode(200);
        String id = Api.leakingIncident(p, victim, p + "-globex");
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                KafkaResource.bootstrapServers());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, p + "-reader");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
                StringDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
                StringDeserializer.class.getName());
        try (var consumer = new KafkaConsumer<String, String>(props)) {
            consumer.subscribe(List.of("vigie.customer-alerts.v1"));
            ConsumerRecord<String, String> found = null;
            long until = System.currentTimeMillis() + 30_000;
            while (found == null && System.currentTimeMillis() < until) {
                for (var r : consumer.poll(Duration.ofMillis(500))) {
                    if (victim.equals(r.key())) {
                        found = r;
                    }
                }
            }
            assertThat(found).as("the alert read back from the topic").isNotNull();
            assertThat(new String(found.headers().lastHeader("Idempotency-Key").value(), StandardCharsets.UTF_8))
                    .isEqualTo(id + "/" + victim + "/INITIAL");
            assertThat(found.value()).contains("\"phase\":\"INITIAL\"").contains("Acme SAS")
                    .doesNotContain(p + "-globex");
        }
    }

    @Test
    void recordsAreStoredInOrderAndBadOnesGoToTheDeadLetterTopicAndTheQuarantine() throws Exception {
        String s = Api.uniquePrefix() + "/kafka";
        List<String> lines = Logs.stream(s, 40);
        List<byte[]> values = new ArrayList<>();
        for (int i = lines.size() - 1; i >= 0; i--) {
            values.add(lines.get(i).getBytes(StandardCharsets.UTF_8));
        }
        values.add(5, "{\"v\":1,\"stream\":\"x\"}".getBytes(StandardCharsets.UTF_8));
        values.add(17, new byte[] {'{', (byte) 0xfe, '}'});
        values.add(values.get(3));
        Map<Integer, Long> firstOffset = new HashMap<>();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(producerProperties())) {
            for (byte[] v : values) {
                var meta = producer.send(new ProducerRecord<>("vigie.page-audit.v1", s.getBytes(StandardCharsets.UTF_8),
                        v)).get();
                firstOffset.putIfAbsent(meta.partition(), meta.offset());
            }
        }

        Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> recorder.appliedSeqs(s).size() == 40);
        assertThat(recorder.appliedSeqs(s)).isEqualTo(Logs.range(1, 40).stream().toList());
        Api.admin().get("/api/streams").then().body("find { it.stream == '" + s + "' }.accepted", equalTo(40))
                .body("find { it.stream == '" + s + "' }.duplicates", equalTo(1));

        List<ConsumerRecord<byte[], byte[]>> dead = readDeadLetters(s, 2);
        assertThat(dead).hasSize(2);
        Map<String, String> reasons = dead.stream().collect(Collectors.toMap(
                r -> new String(r.value(), StandardCharsets.ISO_8859_1), r -> header(r, AuditLogConsumer.H_REASON)));
        assertThat(reasons.get("{\"v\":1,\"stream\":\"x\"}")).isEqualTo("field 'type' is required");
        assertThat(reasons.values()).anyMatch(r -> r.startsWith("not valid UTF-8"));
        for (ConsumerRecord<byte[], byte[]> r : dead) {
            assertThat(header(r, AuditLogConsumer.H_TOPIC)).isEqualTo("vigie.page-audit.v1");
            assertThat(header(r, AuditLogConsumer.H_OFFSET)).matches("\\d+");
            String position = header(r, AuditLogConsumer.H_PARTITION) + "/" + header(r, AuditLogConsumer.H_OFFSET);
            List<Map<String, Object>> items = RestAssured.given().auth().preemptive().basic("admin",
                    Api.ADMIN_PASSWORD).get("/api/quarantine?source=kafka&size=500").then().statusCode(200)
                    .extract().jsonPath().getList("items");
            assertThat(items).anyMatch(i -> position.equals(
                    ((String) i.get("source_name")).replace("vigie.page-audit.v1-", "") + "/" + i.get("position")));
        }

        try (Admin admin = Admin.create(KafkaResource.adminProperties())) {
            Awaitility.await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
                Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets("vigie-test")
                        .partitionsToOffsetAndMetadata().get();
                Map<TopicPartition, OffsetSpec> latest = committed.keySet().stream()
                        .collect(Collectors.toMap(tp -> tp, tp -> OffsetSpec.latest()));
                var ends = admin.listOffsets(latest).all().get();
                assertThat(committed).isNotEmpty();
                committed.forEach((tp, o) -> assertThat(o.offset()).isEqualTo(ends.get(tp).offset()));
            });
        }
        // every partition read is measured, and nothing lies past what was read
        Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(Api.admin()
                .get("/q/metrics").then().statusCode(200).extract().asString().lines()
                .filter(l -> l.startsWith("vigie_kafka_lag{")).toList())
                .hasSize(consumer.assigned().size())
                .allSatisfy(l -> assertThat(l).endsWith(" 0.0")));
        assertThat(Api.admin().get("/q/metrics").then().extract().asString()).contains("\nvigie_kafka_paused_seconds 0.0");
        Api.admin().get("/q/health/ready").then().statusCode(200);
    }

    private static List<ConsumerRecord<byte[], byte[]>> readDeadLetters(String key, int expected) {
        Properties p = new Properties();
        p.putAll(Map.of("bootstrap.servers", KafkaResource.bootstrapServers(), "group.id", "dlq-reader-" + key,
                "auto.offset.reset", "earliest", "key.deserializer", ByteArrayDeserializer.class.getName(),
                "value.deserializer", ByteArrayDeserializer.class.getName()));
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p)) {
            c.subscribe(Set.of("vigie.page-audit.dlq"));
            long until = System.currentTimeMillis() + 30_000;
            while (out.size() < expected && System.currentTimeMillis() < until) {
                for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(500))) {
                    if (key.equals(new String(r.key(), StandardCharsets.UTF_8))) {
                        out.add(r);
                    }
                }
            }
        }
        return out;
    }

    private static String header(ConsumerRecord<byte[], byte[]> r, String name) {
        Header h = r.headers().lastHeader(name);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    /**
     * The reference runtime's Kafka sink, end to end: the incident Vigie opens counts what the responses carried
     * (every fault whose leak the log shows as a read).
     */
    @Test
    void theRuntimesKafkaSinkFeedsVigieAndTheIncidentCountsWhatLeaked() throws Exception {
        String deployment = Api.uniquePrefix() + "/kafka-sim";
        Simulation.Summary summary;
        try (Sinks.Sink sink = Sinks.kafka(
                KafkaResource.bootstrapServers(), "vigie.page-audit.v1")) {
            summary = Simulation.run(new Simulation.Options(
                    Simulation.Scenario.INCIDENT_2026, 4, 150,
                    Fault.endingInReads(), Set.of(), 3, deployment,
                    0.15), sink, null);
        }
        // leaked_responses (api.md): delivered responses that carried another tenant's tokens.
        long leaking = summary.truth().readers().values().stream().filter(r -> r.delivered() && r.tokensByVictim()
                .keySet().stream().anyMatch(v -> !r.victimTenant(v).equals(r.tenant()))).count();
        assertThat(leaking).isPositive();
        JsonNode incident = Awaitility.await().atMost(Duration.ofSeconds(60))
                .until(() -> Api.incident(deployment), i -> i != null
                        && i.get("leaked_responses").asLong() == leaking);
        assertThat(incident.get("classification").asText()).isEqualTo("PERSONAL_DATA_BREACH");
    }

    private static Properties producerProperties() {
        Properties p = new Properties();
        p.putAll(Map.of("bootstrap.servers", KafkaResource.bootstrapServers(), "acks", "all",
                "key.serializer", ByteArraySerializer.class.getName(),
                "value.serializer", ByteArraySerializer.class.getName()));
        return p;
    }

    @Inject
    KafkaClients clients;

    @Test
    void everyKafkaSettingReachesEveryClientAndEachRoleKeepsItsOwnGroupAndSerialisers() {
        for (KafkaClients.Role role : KafkaClients.Role.values()) {
            Properties p = clients.properties(role);
            Assertions.assertThat(p).as(role.name())
                    .containsEntry("client.dns.lookup", "use_all_dns_ips").doesNotContainKey("group.id")
                    .doesNotContainKey("key.deserializer");
        }
    }
}
