package app.vigie.kafka;

import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * Each Kafka role's own identity (docs/security.md): SASL user and password, with the mechanism of
 * {@link #saslMechanism()}, or a client certificate's keystore (mTLS). Secrets come from the environment
 * ({@code VIGIE_KAFKA_USERS_INTAKE_PASSWORD}...), never from a file in the repository.
 */
@ConfigMapping(prefix = "vigie.kafka-users")
public interface KafkaUsersConfig {

    /** SCRAM-SHA-512, SCRAM-SHA-256 or PLAIN. */
    @WithDefault("SCRAM-SHA-512")
    String saslMechanism();

    /** The intake's consumer and its dead-letter producer. */
    User intake();

    /** The customer alerts' producer. */
    User alerts();

    interface User {
        Optional<String> username();

        Optional<String> password();

        Optional<String> keystoreLocation();

        Optional<String> keystoreType();

        Optional<String> keystorePassword();
    }
}
