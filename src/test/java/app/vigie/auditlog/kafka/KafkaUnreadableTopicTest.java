package app.vigie.auditlog.kafka;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;

import app.vigie.testing.Api;
import app.vigie.testing.ComposeKafka;
import app.vigie.testing.Logs;

/**
 * One topic of the intake that the broker refuses it (no READ ACL for its principal: a forgotten ACL, a misspelt
 * binding) does not stop the Kafka intake. On compose's broker (SCRAM users and the shipped ACLs, {@link ComposeKafka}),
 * the intake as {@code vigie-intake} reads the shared topic and a runtime's topic under the shipped prefix ACL, says
 * which bound topic it cannot read (health check), and reads that one too once an ACL lets it, without a restart.
 */
@QuarkusTest
@TestProfile(KafkaUnreadableTopicTest.Refused.class)
class KafkaUnreadableTopicTest {
    private static final String SHARED = "vigie.page-audit.v1";
    /** Under the intake's prefix ACL (vigie.page-audit.rt-). */
    private static final String RUNTIME = "vigie.page-audit.rt-eu";
    /** Outside it: the broker refuses it to the intake. */
    private static final String REFUSED = "page-audit.rt-typo";
    private static final String ACCOUNT = "kafka-rt-refused";
    private static final String INTAKE_PASSWORD = "intake-password-0123456789abcdef";
    private static final String ALERTS_PASSWORD = "alerts-password-0123456789abcdef";
    private static final AclBinding ALLOW = new AclBinding(new ResourcePattern(ResourceType.TOPIC, REFUSED,
            PatternType.LITERAL), new AccessControlEntry("User:vigie-intake", "*", AclOperation.READ,
            AclPermissionType.ALLOW));

    /** Production mode against compose's broker, as the intake's user; two bound topics, one it may not read. */
    public static class Refused implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.ofEntries(Map.entry("vigie.mode", "production"),
                    Map.entry("vigie.kafka.group-id", "vigie-intake"),
                    Map.entry("vigie.kafka.topic-accounts.\"" + REFUSED + "\"", ACCOUNT),
                    Map.entry("vigie.kafka.topic-accounts.\"" + RUNTIME + "\"", ACCOUNT),
                    Map.entry("vigie.kafka.unreadable-topic-check", "1s"),
                    Map.entry("vigie.kafka.retry-backoff", "200ms"),
                    Map.entry("kafka.security.protocol", "SASL_PLAINTEXT"),
                    Map.entry("vigie.kafka-users.intake.username", "vigie-intake"),
                    Map.entry("vigie.kafka-users.intake.password", INTAKE_PASSWORD),
                    Map.entry("vigie.kafka-users.alerts.username", "vigie-alerts"),
                    Map.entry("vigie.kafka-users.alerts.password", ALERTS_PASSWORD),
                    Map.entry("quarkus.log.category.\"org.apache.kafka\".level", "ERROR"));
        }

        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(Broker.class));
        }
    }

    private static ComposeKafka kafka;

    /** compose's broker with its users and ACLs, and the two runtime topics. */
    public static class Broker implements QuarkusTestResourceLifecycleManager {
        @Override
        public Map<String, String> start() {
            try {
                kafka = ComposeKafka.start(Files.createTempDirectory("vigie-compose-kafka"),
                        "0a1b2c3d4e5f60718293a4b5c6d7e8f9", List.of("vigie-intake", INTAKE_PASSWORD, "vigie-alerts",
                                ALERTS_PASSWORD, "inference-runtime", "runtime-password-0123456789abcde"));
                try (Admin admin = Admin.create(kafka.admin())) {
                    admin.createTopics(List.of(new NewTopic(RUNTIME, 1, (short) 1), new NewTopic(REFUSED, 1,
                            (short) 1))).all().get(30, TimeUnit.SECONDS);
                }
            } catch (Exception e) {
                throw new IllegalStateException("cannot start compose's broker", e);
            }
            return Map.of("vigie.kafka.bootstrap-servers", kafka.bootstrapServers());
        }

        @Override
        public void stop() {
            kafka.close();
        }
    }

    @Test
    void aTopicTheBrokerRefusesLeavesTheOthersReadAndIsReadOnceAllowed() throws Exception {
        String p = Api.uniquePrefix();
        Api.account(ACCOUNT, "ingest", null);
        Api.admin().contentType("application/json").body("{\"stream_prefixes\":[\"" + p + "/\"]}")
                .put("/api/accounts/" + ACCOUNT + "/ingest-scope").then().statusCode(200);
        String shared = p + "/shared/s";
        String runtime = p + "/runtime/s";
        String refused = p + "/refused/s";
        send(REFUSED, refused, Logs.stream(refused, 2));
        send(RUNTIME, runtime, Logs.stream(runtime, 2));
        send(SHARED, shared, Logs.stream(shared, 3));

        Awaitility.await("the other topics' records, read although one topic is refused")
                .atMost(Duration.ofSeconds(60)).until(() -> Api.accepted(shared) == 3 && Api.accepted(runtime) == 2);
        Awaitility.await("the refused topic in the health check").atMost(Duration.ofSeconds(30))
                .until(() -> String.valueOf(intakeHealth().get("unreadable_topics")).contains(REFUSED));
        assertThat(Api.accepted(refused)).isZero();
        assertThat(metrics()).contains("\nvigie_kafka_unreadable_topics 1.0")
                .contains("vigie_kafka_lag{partition=\"0\",topic=\"" + RUNTIME + "\"}");

        try (Admin admin = Admin.create(kafka.admin())) {
            admin.createAcls(List.of(ALLOW)).all().get(30, TimeUnit.SECONDS);
        }
        Awaitility.await("the refused topic's records, once an ACL lets the intake read it")
                .atMost(Duration.ofSeconds(60)).until(() -> Api.accepted(refused) == 2);
        assertThat(intakeHealth()).doesNotContainKey("unreadable_topics");
        assertThat(metrics()).contains("\nvigie_kafka_unreadable_topics 0.0");
        send(SHARED, p + "/later/s", Logs.stream(p + "/later/s", 2));
        Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> Api.accepted(p + "/later/s") == 2);
    }

    private static String metrics() {
        return Api.admin().get("/q/metrics").then().statusCode(200).extract().asString();
    }

    private static Map<String, Object> intakeHealth() {
        Map<String, Object> data = JsonPath.from(given().get("/q/health/ready").then().extract().asString())
                .getMap("checks.find { it.name == 'kafka-intake' }.data");
        return data == null ? Map.of() : data;
    }

    /** As the admin (the runtimes' user may write the shared topic only). */
    private static void send(String topic, String key, List<String> lines) throws Exception {
        Properties props = kafka.admin();
        props.putAll(Map.of("acks", "all", "key.serializer", ByteArraySerializer.class.getName(),
                "value.serializer", ByteArraySerializer.class.getName()));
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props)) {
            for (String line : lines) {
                producer.send(new ProducerRecord<>(topic, key.getBytes(StandardCharsets.UTF_8),
                        line.getBytes(StandardCharsets.UTF_8))).get();
            }
        }
    }
}
