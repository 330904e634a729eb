package app.vigie.auditlog.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;

import app.vigie.testing.Api;
import app.vigie.testing.KafkaResource;
import app.vigie.testing.Logs;

/**
 * Issue 41 point 5 over Kafka, on a real broker: a topic bound to an ingest account (vigie.kafka.topic-accounts)
 * writes only what that account may. Runtime A's topic carries its own stream and one of another runtime's: the
 * other one is rejected and kept in the quarantine with the reason, A's is taken. A topic bound to an account that
 * does not exist writes nothing. The shared topic, bound to no account, writes as before.
 */
@QuarkusTest
@TestProfile(KafkaTopicAccountTest.Bound.class)
class KafkaTopicAccountTest {
    private static final String SHARED = "vigie.page-audit.v1";
    private static final String TOPIC_A = "vigie.page-audit.rt-a";
    private static final String GHOST = "vigie.page-audit.ghost";
    private static final String ACCOUNT_A = "kafka-rt-a";

    /** Production mode against the test broker, runtime A's topic and a topic bound to no existing account. */
    public static class Bound implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("vigie.mode", "production", "vigie.kafka.group-id", "vigie-topic-account-test",
                    "vigie.kafka.topic-accounts.\"" + TOPIC_A + "\"", ACCOUNT_A,
                    "vigie.kafka.topic-accounts.\"" + GHOST + "\"", "kafka-nobody",
                    "vigie.kafka.retry-backoff", "100ms", "vigie.kafka.max-retry-backoff", "400ms");
        }

        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(Topics.class));
        }
    }

    /** The broker, with the two bound topics made before the service subscribes. */
    public static class Topics implements QuarkusTestResourceLifecycleManager {
        private final KafkaResource broker = new KafkaResource();

        @Override
        public Map<String, String> start() {
            Map<String, String> config = broker.start();
            try (Admin admin = Admin.create(KafkaResource.adminProperties())) {
                List<String> existing = List.copyOf(admin.listTopics().names().get());
                List<NewTopic> missing = List.of(TOPIC_A, GHOST).stream().filter(t -> !existing.contains(t))
                        .map(t -> new NewTopic(t, 1, (short) 1)).toList();
                admin.createTopics(missing).all().get();
            } catch (Exception e) {
                throw new IllegalStateException("cannot make the test's topics", e);
            }
            return config;
        }

        @Override
        public void stop() {
            broker.stop();
        }
    }

    @Test
    void aTopicWritesOnlyWhatItsIngestAccountMay() throws Exception {
        String p = Api.uniquePrefix();
        Api.account(ACCOUNT_A, "ingest", null);
        Api.admin().contentType("application/json").body("{\"stream_prefixes\":[\"" + p + "/a/\"]}")
                .put("/api/accounts/" + ACCOUNT_A + "/ingest-scope").then().statusCode(200);
        String own = p + "/a/s";
        String other = p + "/b/s";
        String ghostly = p + "/g/s";
        String shared = p + "/shared/s";
        send(TOPIC_A, own, Logs.stream(own, 3));
        send(TOPIC_A, other, Logs.stream(other, 2));
        send(GHOST, ghostly, Logs.stream(ghostly, 2));
        send(SHARED, shared, Logs.stream(shared, 2));

        Awaitility.await("the records of the three topics").atMost(Duration.ofSeconds(60))
                .until(() -> Api.accepted(own) == 3 && Api.accepted(shared) == 2 && quarantined(p).size() == 4);
        List<Map<String, Object>> kept = quarantined(p);
        assertThat(kept).filteredOn(q -> other.equals(q.get("stream"))).hasSize(2).allSatisfy(q -> {
            assertThat(q.get("source_name")).isEqualTo(TOPIC_A + "-0");
            assertThat((String) q.get("reason")).contains("stream '" + other + "' is outside the streams account '"
                    + ACCOUNT_A + "' may write");
        });
        assertThat(kept).filteredOn(q -> ghostly.equals(q.get("stream"))).hasSize(2).allSatisfy(q -> {
            assertThat(q.get("source_name")).isEqualTo(GHOST + "-0");
            assertThat((String) q.get("reason")).contains("Kafka topic '" + GHOST + "' is bound to ingest account "
                    + "'kafka-nobody'").contains("does not exist");
        });
        assertThat(Api.accepted(other)).as("nothing of the other runtime's stream is stored").isZero();
        assertThat(Api.accepted(ghostly)).isZero();

        // a new scope takes effect at once: A may now write the other stream too
        Api.admin().contentType("application/json")
                .body("{\"stream_prefixes\":[\"" + p + "/a/\",\"" + p + "/b/\"]}")
                .put("/api/accounts/" + ACCOUNT_A + "/ingest-scope").then().statusCode(200);
        send(TOPIC_A, other, Logs.stream(other, 2));
        Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> Api.accepted(other) == 2);
    }

    private static void send(String topic, String key, List<String> lines) throws Exception {
        Properties props = new Properties();
        props.putAll(Map.of("bootstrap.servers", KafkaResource.bootstrapServers(), "acks", "all",
                "key.serializer", ByteArraySerializer.class.getName(),
                "value.serializer", ByteArraySerializer.class.getName()));
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props)) {
            for (String line : lines) {
                producer.send(new ProducerRecord<>(topic, key.getBytes(StandardCharsets.UTF_8),
                        line.getBytes(StandardCharsets.UTF_8))).get();
            }
        }
    }

    /** The Kafka records of this test kept in the quarantine. */
    private static List<Map<String, Object>> quarantined(String prefix) {
        List<Map<String, Object>> items = JsonPath.from(Api.admin().get("/api/quarantine?source=kafka&size=500")
                .then().statusCode(200).extract().asString()).getList("items");
        return items.stream().filter(i -> i.get("stream") != null && ((String) i.get("stream")).startsWith(prefix))
                .toList();
    }
}
