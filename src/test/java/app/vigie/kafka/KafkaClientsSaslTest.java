package app.vigie.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.test.JaasUtils;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import app.vigie.testing.SaslProviders;

/**
 * A real broker that asks every client for SASL credentials: the settings Vigie's Kafka clients are built from
 * (passed through from {@code kafka.*}, plus a role's user) let the intake read and the alerts write; without them,
 * or with a wrong password, nothing passes.
 */
class KafkaClientsSaslTest {
    private static KafkaClusterTestKit cluster;

    @BeforeAll
    static void start() throws Exception {
        SaslProviders.ours();
        cluster = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder().setCombined(true).setNumBrokerNodes(1)
                .setNumControllerNodes(1).setBrokerSecurityProtocol(SecurityProtocol.SASL_PLAINTEXT)
                .setPerServerProperties(Map.of(0, Map.of("offsets.topic.replication.factor", "1",
                        "offsets.topic.num.partitions", "1", "transaction.state.log.replication.factor", "1",
                        "transaction.state.log.min.isr", "1", "group.initial.rebalance.delay.ms", "0",
                        // the test kit's SASL broker has an authorizer: its own controller link, and no ACL here
                        "super.users", "User:ANONYMOUS;User:" + JaasUtils.KAFKA_PLAIN_ADMIN,
                        "allow.everyone.if.no.acl.found", "true")))
                .build()).build();
        cluster.format();
        cluster.startup();
        cluster.waitForReadyBrokers();
        try (Admin admin = Admin.create(client(JaasUtils.KAFKA_PLAIN_ADMIN, JaasUtils.KAFKA_PLAIN_ADMIN_PASSWORD))) {
            admin.createTopics(List.of(new NewTopic("secured", 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
    }

    @AfterAll
    static void stop() throws Exception {
        cluster.close();
    }

    /** What an operator sets: KAFKA_SECURITY_PROTOCOL, and the role's user from VIGIE_KAFKA_<ROLE>_... */
    private static Properties client(String user, String password) {
        Properties p = KafkaClients.properties(Map.of("security.protocol", "SASL_PLAINTEXT", "group.id", "not-ours"),
                "PLAIN", new KafkaClients.Identity(Optional.ofNullable(user), Optional.ofNullable(password),
                        Optional.empty(), Optional.empty(), Optional.empty()));
        p.put("bootstrap.servers", cluster.bootstrapServers());
        p.put("max.block.ms", "5000");
        p.put("request.timeout.ms", "5000");
        p.put("default.api.timeout.ms", "5000");
        return p;
    }

    @Test
    void theRolesCredentialsOpenTheBrokerAndNothingElseDoes() throws Exception {
        Properties alerts = client(JaasUtils.KAFKA_PLAIN_USER1, JaasUtils.KAFKA_PLAIN_USER1_PASSWORD);
        assertThat(alerts).containsEntry("sasl.mechanism", "PLAIN").doesNotContainKey("group.id");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(alerts, new StringSerializer(),
                new StringSerializer())) {
            producer.send(new ProducerRecord<>("secured", "acme", "an alert")).get(30, TimeUnit.SECONDS);
        }
        Properties intake = client(JaasUtils.KAFKA_PLAIN_USER1, JaasUtils.KAFKA_PLAIN_USER1_PASSWORD);
        intake.put("group.id", "vigie-intake-test");
        intake.put("auto.offset.reset", "earliest");
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(intake, new StringDeserializer(),
                new StringDeserializer())) {
            consumer.subscribe(List.of("secured"));
            int read = 0;
            long until = System.currentTimeMillis() + 30_000;
            while (read == 0 && System.currentTimeMillis() < until) {
                ConsumerRecords<String, String> r = consumer.poll(Duration.ofMillis(500));
                read += r.count();
            }
            assertThat(read).isEqualTo(1);
        }
        // a wrong password, or no identity at all (the client cannot even start its SASL handshake)
        for (Properties refused : List.of(client(JaasUtils.KAFKA_PLAIN_USER1, "a-guess"), client(null, null))) {
            assertThatThrownBy(() -> {
                try (KafkaProducer<String, String> producer = new KafkaProducer<>(refused, new StringSerializer(),
                        new StringSerializer())) {
                    producer.send(new ProducerRecord<>("secured", "x", "y")).get(30, TimeUnit.SECONDS);
                }
            }).isNotNull();
        }
    }

    @Test
    void aClientCertificateAndQuotesInAPasswordAreCarried() {
        Properties p = KafkaClients.properties(Map.of(), "SCRAM-SHA-512", new KafkaClients.Identity(
                Optional.of("vigie-alerts"), Optional.of("p\"w\\d"), Optional.of("/run/secrets/alerts.p12"),
                Optional.empty(), Optional.of("changeit")));
        assertThat(p.getProperty("sasl.jaas.config")).isEqualTo("org.apache.kafka.common.security.scram."
                + "ScramLoginModule required username=\"vigie-alerts\" password=\"p\\\"w\\\\d\";");
        assertThat(p).containsEntry("security.protocol", "SASL_SSL").containsEntry("ssl.keystore.type", "PKCS12")
                .containsEntry("ssl.keystore.location", "/run/secrets/alerts.p12");
    }
}
