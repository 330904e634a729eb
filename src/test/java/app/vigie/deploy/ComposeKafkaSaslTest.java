package app.vigie.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import app.vigie.testing.ComposeKafka;

/**
 * compose's Kafka, run ({@link ComposeKafka}: deploy/compose/kafka's server.properties, start.sh's JAAS lines and
 * setup.sh's topics, users and ACLs). Attacked as a client without SASL, with a wrong password, and as each
 * user beyond its ACLs; each user does what Vigie or the runtimes need.
 */
class ComposeKafkaSaslTest {
    private static final String AUDIT = "vigie.page-audit.v1";
    private static final String ALERTS = "vigie.customer-alerts.v1";
    /** A runtime's own topic, bound to its ingest account: the intake reads it through the prefix ACL. */
    private static final String RUNTIME_TOPIC = "vigie.page-audit.rt-eu";

    @TempDir
    Path dir;

    private ComposeKafka kafka;

    @Test
    void onlyAuthenticatedUsersPassAndEachOnlyWhereItsAclsSay() throws Exception {
        String adminPassword = "0a1b2c3d4e5f60718293a4b5c6d7e8f9";
        String intake = "intake-password-0123456789abcdef";
        String alerts = "alerts-password-0123456789abcdef";
        String runtime = "runtime-password-0123456789abcde";
        try (ComposeKafka kafka = ComposeKafka.start(dir, adminPassword, List.of("vigie-intake", intake,
                "vigie-alerts", alerts, "inference-runtime", runtime))) {
            this.kafka = kafka;
            // the runtime writes the audit log; Vigie's intake reads it in its group, and a runtime's own topic
            // (vigie.page-audit.rt-*, bound to its ingest account) too
            send(client("inference-runtime", runtime), AUDIT);
            try (Admin admin = Admin.create(client("admin", adminPassword))) {
                admin.createTopics(List.of(new NewTopic(RUNTIME_TOPIC, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
            }
            send(client("admin", adminPassword), RUNTIME_TOPIC);
            Properties reader = client("vigie-intake", intake);
            reader.put("group.id", "vigie-intake");
            reader.put("auto.offset.reset", "earliest");
            try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(reader, new StringDeserializer(),
                    new StringDeserializer())) {
                consumer.subscribe(List.of(AUDIT, RUNTIME_TOPIC));
                int read = 0;
                long until = System.currentTimeMillis() + 30_000;
                while (read < 2 && System.currentTimeMillis() < until) {
                    ConsumerRecords<String, String> r = consumer.poll(Duration.ofMillis(500));
                    read += r.count();
                }
                assertThat(read).isEqualTo(2);
            }
            send(client("vigie-alerts", alerts), ALERTS);
            send(client("vigie-intake", intake), "vigie.page-audit.dlq");

            // the attacks: no SASL, a wrong password, a user writing the audit log that is not the runtimes'
            Properties plaintext = client(null, null);
            assertThatThrownBy(() -> send(plaintext, AUDIT)).isNotNull();
            assertThatThrownBy(() -> send(client("inference-runtime", "a-guess"), AUDIT)).isNotNull();
            assertThatThrownBy(() -> send(client("vigie-alerts", alerts), AUDIT))
                    .hasStackTraceContaining("TopicAuthorization");
            assertThatThrownBy(() -> send(client("vigie-intake", intake), AUDIT))
                    .hasStackTraceContaining("TopicAuthorization");
            assertThatThrownBy(() -> send(client("inference-runtime", runtime), ALERTS))
                    .hasStackTraceContaining("TopicAuthorization");
        }
    }

    private static void send(Properties p, String topic) throws Exception {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(p, new StringSerializer(),
                new StringSerializer())) {
            producer.send(new ProducerRecord<>(topic, "k", "v")).get(20, TimeUnit.SECONDS);
        }
    }

    private Properties client(String user, String password) {
        return kafka.client(user, password);
    }
}
