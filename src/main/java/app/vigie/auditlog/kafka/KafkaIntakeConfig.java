package app.vigie.auditlog.kafka;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** The Kafka intake of the production mode. */
@ConfigMapping(prefix = "vigie.kafka")
public interface KafkaIntakeConfig {

    @WithDefault("localhost:9092")
    String bootstrapServers();

    @WithDefault("vigie.page-audit.v1")
    String topic();

    @WithDefault("vigie.page-audit.dlq")
    String deadLetterTopic();

    @WithDefault("vigie-intake")
    String groupId();

    @WithDefault("2000")
    int maxPollRecords();

    /** Wait before polling again after a failure (database down, broker unreachable). */
    @WithDefault("2s")
    Duration retryBackoff();
}
