package app.vigie.kafka;

import java.util.Map;
import java.util.Optional;
import java.util.Properties;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.smallrye.common.annotation.Identifier;

/**
 * The connection settings every Kafka client of Vigie shares (the intake consumer, its dead-letter producer, the
 * alerts producer): first every {@code kafka.*} setting of the configuration, passed through as is (so
 * {@code KAFKA_SECURITY_PROTOCOL=SASL_SSL}, {@code KAFKA_SSL_TRUSTSTORE_LOCATION}... from the environment reach them:
 * TLS, SASL, mTLS, whatever the broker asks); then each role's own identity, so that the intake and the alerts can be
 * different Kafka users with different ACLs: {@code vigie.kafka-users.<role>.username} and {@code .password} (SASL, the
 * mechanism of {@code vigie.kafka-users.sasl-mechanism}, SCRAM-SHA-512 by default, PLAIN or SCRAM-SHA-256), or
 * {@code vigie.kafka-users.<role>.keystore-location}, {@code -type} and {@code -password} (mTLS). Secrets come from the
 * environment (VIGIE_KAFKA_USERS_INTAKE_PASSWORD...), never from a file in the repository.
 */
@ApplicationScoped
public class KafkaClients {
    /** Whose identity a client carries. */
    public enum Role {
        INTAKE, ALERTS
    }

    /** One role's identity: SASL user and password, or a client certificate's keystore. */
    public record Identity(Optional<String> username, Optional<String> password, Optional<String> keystore,
            Optional<String> keystoreType, Optional<String> keystorePassword) {
        public static Identity none() {
            return new Identity(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                    Optional.empty());
        }
    }

    @Inject
    @Identifier("default-kafka-broker")
    Map<String, Object> passThrough;

    @Inject
    KafkaUsersConfig users;

    /** The broker every client of Vigie connects to: the intake's consumer, the alerts' producer. */
    @ConfigProperty(name = "vigie.kafka.bootstrap-servers", defaultValue = "localhost:9092")
    String bootstrapServers;

    public String bootstrapServers() {
        return bootstrapServers;
    }

    /** The shared settings and the role's identity; the caller adds its own (servers, group, serialisers...). */
    public Properties properties(Role role) {
        KafkaUsersConfig.User u = role == Role.INTAKE ? users.intake() : users.alerts();
        Identity id = new Identity(u.username(), u.password(), u.keystoreLocation(), u.keystoreType(),
                u.keystorePassword());
        return properties(passThrough, users.saslMechanism(), id);
    }

    /** Plain function of {@link #properties(Role)}, for tests. */
    public static Properties properties(Map<String, ?> passThrough, String mechanism, Identity id) {
        Properties p = new Properties();
        passThrough.forEach((k, v) -> {
            // Vigie's own choices (what it reads, its group, its serialisers) stay its own
            if (v != null && !k.equals("group.id") && !k.startsWith("key.") && !k.startsWith("value.")) {
                p.put(k, v.toString());
            }
        });
        if (id.username().isPresent() && !id.username().get().isBlank()) {
            String module = mechanism.startsWith("SCRAM") ? "org.apache.kafka.common.security.scram.ScramLoginModule"
                    : "org.apache.kafka.common.security.plain.PlainLoginModule";
            p.put("sasl.mechanism", mechanism);
            p.put("sasl.jaas.config", module + " required username=\"" + jaas(id.username().get())
                    + "\" password=\"" + jaas(id.password().orElse("")) + "\";");
            if (!p.containsKey("security.protocol")) {
                p.put("security.protocol", "SASL_SSL");
            }
        }
        if (id.keystore().isPresent() && !id.keystore().get().isBlank()) {
            p.put("ssl.keystore.location", id.keystore().get());
            p.put("ssl.keystore.type", id.keystoreType().orElse("PKCS12"));
            id.keystorePassword().ifPresent(pw -> p.put("ssl.keystore.password", pw));
            if (!p.containsKey("security.protocol")) {
                p.put("security.protocol", "SSL");
            }
        }
        return p;
    }

    private static String jaas(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"");
    }
}
