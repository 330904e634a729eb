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

    /**
     * First wait after a failure (database down or too slow, broker unreachable); it doubles on each failure in a
     * row, up to {@link #maxRetryBackoff()}.
     */
    @WithDefault("2s")
    Duration retryBackoff();

    /** The longest wait between two attempts while the database or the broker stays unavailable. */
    @WithDefault("30s")
    Duration maxRetryBackoff();

    /**
     * How long the group waits for a silent instance before giving its partitions to the others (Kafka's
     * {@code session.timeout.ms}): the takeover time after a crash.
     */
    @WithDefault("45s")
    Duration sessionTimeout();
}
