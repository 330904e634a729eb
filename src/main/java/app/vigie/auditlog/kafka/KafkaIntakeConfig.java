package app.vigie.auditlog.kafka;

import java.time.Duration;
import java.util.Map;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** The Kafka intake of the production mode. */
@ConfigMapping(prefix = "vigie.kafka")
public interface KafkaIntakeConfig {

    @WithDefault("localhost:9092")
    String bootstrapServers();

    @WithDefault("vigie.page-audit.v1")
    String topic();

    /**
     * Topics bound to an ingest account (issue 41 point 5), read besides {@link #topic()}: a record of such a topic
     * is taken only if that account may write it (its ingest scope, {@code PUT /api/accounts/{name}/ingest-scope});
     * otherwise it is rejected with the reason and kept in the quarantine and the dead-letter topic. The broker's ACLs
     * say which principal may write which topic; this binding says what a topic's records may be about, which ACLs
     * cannot. Keys with dots are quoted: {@code vigie.kafka.topic-accounts."page-audit.runtime-a"=runtime-a}.
     */
    Map<String, String> topicAccounts();

    /**
     * Whether a record of a topic bound to no ingest account ({@link #topic()} when not in {@link #topicAccounts()})
     * is refused; by default it may write every stream, as an unbound ingest account may over HTTP (a warning at
     * start).
     */
    @WithDefault("false")
    boolean requireTopicAccount();

    /**
     * How often a topic the broker refuses this instance (no READ or DESCRIBE ACL for the intake's principal, a
     * misspelt binding) is checked again; the other topics are read meanwhile.
     */
    @WithDefault("1m")
    Duration unreadableTopicCheck();

    @WithDefault("vigie.page-audit.dlq")
    String deadLetterTopic();

    @WithDefault("vigie-intake")
    String groupId();

    /**
     * Records a poll may return, over every partition this instance reads; they go to their partitions' pipelines,
     * which {@link #workers()} store.
     */
    @WithDefault("20000")
    int maxPollRecords();

    /** Bytes fetched per partition at a time (Kafka's {@code max.partition.fetch.bytes}). */
    @WithDefault("2097152")
    int maxPartitionFetchBytes();

    /**
     * How many partitions are stored at the same time, each by its own pipeline in its own transactions, one batch
     * after the other (records of one stream are in one partition, so each stream stays in order).
     */
    @WithDefault("4")
    int workers();

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
     * How many times in a row a batch whose processing fails (any exception: a database error, a bug in the detector,
     * not only a parse error) is tried, with the waits above, before it is split in halves to find the record that
     * fails; and how many times that record is then tried alone before it is kept in the quarantine and the
     * dead-letter topic with its reason, and its offset committed. Failures that say the database cannot be reached
     * do not count: the partition waits for it. At least 1.
     */
    @WithDefault("3")
    int maxAttempts();

    /**
     * How long the group waits for a silent instance before giving its partitions to the others (Kafka's
     * {@code session.timeout.ms}): the takeover time after a crash.
     */
    @WithDefault("45s")
    Duration sessionTimeout();
}
