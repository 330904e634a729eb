package app.vigie.auditlog.kafka;

import java.net.ConnectException;
import java.util.Locale;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.jboss.logging.Logger;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;

import app.vigie.auditlog.IngestConfig;
import app.vigie.auditlog.IngestService;
import app.vigie.auditlog.QuarantineService;
import app.vigie.auditlog.intake.IncomingLine;
import app.vigie.auditlog.intake.IngestScopes;
import app.vigie.auditlog.intake.LineOutcome;
import app.vigie.auditlog.intake.LineParser;
import app.vigie.auditlog.intake.Source;
import app.vigie.auditlog.intake.Writable;
import app.vigie.auditlog.record.AuditRecord;
import app.vigie.auditlog.store.QuarantineStore;
import app.vigie.detection.core.DetectorLimits;
import app.vigie.kafka.KafkaClients;
import app.vigie.platform.Mode;
import app.vigie.platform.Traces;

/**
 * Production intake from {@code vigie.page-audit.v1}, at least once, in a consumer group: each partition's records go
 * through its own {@link PartitionPipeline}, and a batch is stored (and its rejected records quarantined and sent to
 * the dead-letter topic with the reason in headers) before its offsets are committed. Records are keyed by stream,
 * so each stream is read by one instance at a time; the state a stream's detector needs lives in PostgreSQL
 * (records, cursor, snapshots), committed with the records, so an instance that takes over a partition after a
 * rebalance or a crash rebuilds it from there and goes on from the committed offsets. When storing fails (database
 * down or saturated), the batch's partition is rewound and paused, and tried again after a wait that doubles up to
 * {@code vigie.kafka.max-retry-backoff}: the intake stops reading instead of losing or piling up records, and
 * resumes by itself. Bad input never stops the consumer: a batch whose processing keeps failing for any other reason
 * (a record that parses but that a later step cannot take) is tried {@code vigie.kafka.max-attempts} times, then split
 * to find the record that fails, which is tried as often alone, then kept in the quarantine and the dead-letter topic
 * with its reason ({@link PartitionPipeline}); its offset is committed and the partition goes on.
 */
@ApplicationScoped
public class AuditLogConsumer {
    private static final Logger LOG = Logger.getLogger(AuditLogConsumer.class);
    public static final String H_REASON = "vigie.reason";
    public static final String H_TOPIC = "vigie.source.topic";
    public static final String H_PARTITION = "vigie.source.partition";
    public static final String H_OFFSET = "vigie.source.offset";
    public static final String H_RECEIVED = "vigie.received-at";
    /** On a record whose processing failed: the class of the last exception. */
    public static final String H_ERROR = "vigie.error";
    /** Characters of a poison record's reason kept, at most (an exception's message may quote the record). */
    static final int MAX_REASON = 2000;

    /** Spans of the polls stored (a no-op tracer while tracing is off). */
    @Inject
    Tracer tracer;

    @Inject
    IngestService ingest;

    @Inject
    QuarantineService quarantine;

    @Inject
    KafkaIntakeConfig config;

    @Inject
    IngestScopes scopes;

    /** The intake's chunk: a pipeline's batch (one transaction); two waiting pause the partition. */
    @Inject
    IngestConfig ingestConfig;


    private volatile boolean running;
    private volatile KafkaConsumer<byte[], byte[]> consumer;
    private volatile Instant lastSuccess;
    private volatile String lastError;
    /** Since when storing has been failing (the intake is paused), or null. */
    private volatile Instant pausedSince;
    private volatile Set<TopicPartition> assigned = Set.of();
    /**
     * Topics read ({@link #topics()}) that the broker refuses this instance's principal (no READ or DESCRIBE ACL, a
     * typo), since when: the others are read meanwhile, and these are checked again every
     * {@code vigie.kafka.unreadable-topic-check} (an admin request asking what the principal may do on them), then
     * subscribed to again once readable. One such topic must not stop the whole intake.
     */
    private final Map<String, Instant> unreadable = new ConcurrentHashMap<>();
    /** The intake thread's: the current consumer's rebalance listener, the topics it is subscribed to. */
    private Rebalance rebalance;
    private List<String> subscribed = List.of();
    private long nextUnreadableCheck;
    private Admin admin;

    @Inject
    MeterRegistry meters;

    /** Records kept in the quarantine because their processing kept failing ({@code vigie_kafka_poison_records_total}). */
    private Counter poisoned;

    /** Per partition this instance reads: how many records lie past its position, as of the last poll. */
    private final Map<TopicPartition, Long> lags = new ConcurrentHashMap<>();
    private Thread thread;
    /** Store the partitions' batches, each partition's in order, several partitions at a time. */
    private ExecutorService workers;
    /** The intake thread's, as all the maps and sets below: each assigned partition's pipeline, those too full. */
    private final Map<TopicPartition, PartitionPipeline> pipelines = new HashMap<>();
    private final Set<TopicPartition> full = new HashSet<>();
    /**
     * Each partition's failures in a row (until it stores a batch again), and when each partition held back after a
     * failure is tried again: the wait doubles with the partition's failures.
     */
    private final Map<TopicPartition, Integer> failing = new HashMap<>();
    private final Map<TopicPartition, Long> heldBack = new HashMap<>();
    /**
     * Pipelines of partitions taken away whose batch outlasted the wait (still storing), and the partitions given back
     * to this instance meanwhile, paused until those are done. Kept across a new consumer: the workers outlive it.
     */
    private final Map<TopicPartition, PartitionPipeline> draining = new HashMap<>();
    private final Set<TopicPartition> waiting = new HashSet<>();
    /** How long closing pipelines (a rebalance, a new consumer, the way out) waits for their batches, in all. */
    static final long CLOSE_WAIT_MILLIS = 20_000;

    public boolean enabled() {
        return Mode.current() == Mode.PRODUCTION;
    }

    void start(@Observes StartupEvent start) {
        if (!enabled()) {
            return;
        }
        running = true;
        Gauge.builder("vigie.kafka.paused", this, consumer -> {
            Instant since = consumer.pausedSince;
            return since == null ? 0 : Duration.between(since, Instant.now()).toMillis() / 1000.0;
        }).baseUnit("seconds").description("How long the Kafka intake has been paused because storing fails (0: it"
                + " reads)").register(meters);
        Gauge.builder("vigie.kafka.unreadable.topics", unreadable, Map::size).description("Topics of the intake that "
                + "the broker refuses this instance (not read until a check finds them readable again)")
                .register(meters);
        poisoned = Counter.builder("vigie.kafka.poison.records").description("Kafka records whose processing failed "
                + "vigie.kafka.max-attempts times alone, kept in the quarantine and the dead-letter topic, their offset "
                + "committed").register(meters);
        AtomicInteger n = new AtomicInteger();
        workers = Executors.newFixedThreadPool(config.workers(), r -> {
            Thread t = new Thread(r, "vigie-kafka-intake-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        thread = new Thread(this::loop, "vigie-kafka-intake");
        thread.setDaemon(true);
        thread.start();
        LOG.infof("Kafka intake started: topics %s, group %s, brokers %s, %d worker(s)", topics(),
                config.groupId(), config.bootstrapServers(), config.workers());
        for (String topic : topics()) {
            String account = config.topicAccounts().get(topic);
            if (account != null) {
                LOG.infof("Kafka topic %s: its records may write what ingest account '%s' may", topic, account);
            } else if (config.requireTopicAccount()) {
                LOG.warnf("Kafka topic %s is bound to no ingest account: its records are refused "
                        + "(vigie.kafka.require-topic-account)", topic);
            } else {
                LOG.warnf("Kafka topic %s is bound to no ingest account: its records may write every stream. Bind it: "
                        + "vigie.kafka.topic-accounts.\"%s\"=<ingest account> (docs/intake.md, \"Who writes what\")",
                        topic, topic);
            }
        }
    }

    void stop(@Observes ShutdownEvent stop) throws InterruptedException {
        running = false;
        KafkaConsumer<byte[], byte[]> c = consumer;
        if (c != null) {
            c.wakeup();
        }
        if (thread != null) {
            thread.join(CLOSE_WAIT_MILLIS + 15_000);  // the batches being stored finish, then the last commit
        }
        if (workers != null) {
            workers.shutdown();
        }
    }

    /** The topics read: {@code vigie.kafka.topic} and those bound to an ingest account. */
    List<String> topics() {
        Set<String> all = new LinkedHashSet<>();
        all.add(config.topic());
        all.addAll(new TreeSet<>(config.topicAccounts().keySet()));
        return List.copyOf(all);
    }

    /**
     * What the records of {@code topic} may write: what its ingest account may (vigie.kafka.topic-accounts), read
     * again for each batch so that a new scope takes effect at once; null (everything) for a topic bound to no
     * account, unless vigie.kafka.require-topic-account says nothing.
     */
    private Writable writable(String topic) throws SQLException {
        String account = config.topicAccounts().get(topic);
        if (account != null) {
            return scopes.ofTopic(topic, account);
        }
        return config.requireTopicAccount() ? Writable.nothing("Kafka topic '" + topic + "' is bound to no ingest "
                + "account and vigie.kafka.require-topic-account is set: its records are not taken") : null;
    }

    /** When the last poll cycle completed, or null. */
    public Instant lastSuccess() {
        return lastSuccess;
    }

    public String lastError() {
        return lastError;
    }

    /** Since when the intake has been paused because storing fails, or null when it reads. */
    public Instant pausedSince() {
        return pausedSince;
    }

    /** The partitions this instance reads now. */
    public Set<TopicPartition> assigned() {
        return assigned;
    }

    /**
     * The intake thread: polls, hands each partition's records to its pipeline, pauses a partition whose pipeline is
     * full and resumes it once drained, commits each partition's offsets as its batches are stored, and rewinds and
     * holds back a partition whose batch failed. Only this thread touches the consumer.
     */
    private void loop() {
        while (running) {
            try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(consumerProperties());
                    KafkaProducer<byte[], byte[]> dlq = new KafkaProducer<>(producerProperties())) {
                consumer = c;
                PartitionPipeline.Store store = (tp, batch) -> store(dlq, tp, batch);
                PartitionPipeline.Quarantine keep = (tp, r, cause, attempts) -> quarantine(dlq, tp, r, cause, attempts);
                rebalance = new Rebalance(c, store, keep);
                subscribe(c);
                long nextProbe = 0;
                try {
                    while (running) {
                        nextProbe = cycle(c, nextProbe);
                    }
                } finally {
                    // while the consumer is open: the batches being stored finish and their offsets are committed
                    closePipelines(c, pipelines.keySet(), true);
                }
            } catch (WakeupException e) {
                // shutting down
            } catch (Exception e) {
                lastError = e.toString();
                LOG.errorf(e, "Kafka intake failed; rewinding to the committed offsets and retrying in %s",
                        config.retryBackoff());
                sleep(config.retryBackoff());
            } finally {
                heldBack.clear();
                failing.clear();
                full.clear();
                waiting.clear();
                consumer = null;
                assigned = Set.of();
                subscribed = List.of();
                closeAdmin();
            }
        }
    }

    /** Topics read and not refused by the broker. */
    private List<String> readable() {
        return topics().stream().filter(t -> !unreadable.containsKey(t)).toList();
    }

    private void subscribe(KafkaConsumer<byte[], byte[]> c) {
        List<String> topics = readable();
        if (topics.equals(subscribed)) {
            return;
        }
        if (topics.isEmpty()) {
            c.unsubscribe();
        } else {
            c.subscribe(topics, rebalance);
        }
        subscribed = topics;
    }

    /**
     * The broker refused topics this instance subscribed to: they are left aside (the others are read), said in the
     * log, the health check and {@code vigie_kafka_unreadable_topics}, and checked again later. An authorization
     * error that names none of the intake's topics is not this case: it is thrown on.
     */
    private void refused(KafkaConsumer<byte[], byte[]> c, TopicAuthorizationException e) {
        Set<String> named = new TreeSet<>(e.unauthorizedTopics());
        named.retainAll(topics());
        if (named.isEmpty()) {
            throw e;
        }
        Instant now = Instant.now();
        Set<String> fresh = new TreeSet<>();
        named.forEach(t -> {
            if (unreadable.putIfAbsent(t, now) == null) {
                fresh.add(t);
            }
        });
        lastError = "the broker refuses this instance the topic(s) " + unreadable.keySet() + " ("
                + e.getMessage() + ")";
        subscribe(c);
        if (fresh.isEmpty()) {
            return;  // the consumer's metadata still held the refusal it reported before
        }
        LOG.errorf("Kafka intake: the broker refuses this instance's principal the topic(s) %s (%s). The other topics "
                + "are read meanwhile; these are checked again every %s. Give the intake's principal READ and DESCRIBE "
                + "on them, or remove the binding (docs/intake.md, \"Who writes what\")", fresh, e.getMessage(),
                config.unreadableTopicCheck());
        nextUnreadableCheck = System.currentTimeMillis() + config.unreadableTopicCheck().toMillis();
    }

    /** Subscribes again to the refused topics the principal may now read (asked of the broker, without reading them). */
    private void checkUnreadable(KafkaConsumer<byte[], byte[]> c, long now) {
        if (unreadable.isEmpty() || now < nextUnreadableCheck) {
            return;
        }
        nextUnreadableCheck = now + config.unreadableTopicCheck().toMillis();
        Set<String> readableNow = new TreeSet<>();
        try {
            if (admin == null) {
                Properties p = consumerProperties();
                p.keySet().retainAll(AdminClientConfig.configNames());
                admin = Admin.create(p);
            }
            var found = admin.describeTopics(List.copyOf(unreadable.keySet()),
                    new DescribeTopicsOptions().includeAuthorizedOperations(true).timeoutMs(5_000)).topicNameValues();
            for (Map.Entry<String, KafkaFuture<TopicDescription>> d : found.entrySet()) {
                try {
                    Set<AclOperation> may = d.getValue().get(10, TimeUnit.SECONDS).authorizedOperations();
                    if (may != null && may.contains(AclOperation.READ)) {
                        readableNow.add(d.getKey());
                    }
                } catch (ExecutionException | TimeoutException e) {
                    LOG.debugf("Kafka intake: topic %s still refused (%s)", d.getKey(), e.getCause());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        } catch (RuntimeException e) {
            LOG.debugf(e, "Kafka intake: checking the refused topics %s failed; trying again later",
                    unreadable.keySet());
            return;
        }
        if (!readableNow.isEmpty()) {
            unreadable.keySet().removeAll(readableNow);
            LOG.infof("Kafka intake: the broker lets this instance read %s now; subscribing to them again", readableNow);
            subscribe(c);
        }
    }

    private void closeAdmin() {
        if (admin != null) {
            admin.close(Duration.ofSeconds(5));
            admin = null;
        }
    }

    /** The topics the broker refuses this instance, and since when (empty when it reads them all). */
    public Map<String, Instant> unreadableTopics() {
        return Map.copyOf(unreadable);
    }

    /**
     * A poll does not fail when the broker is unreachable: ask it something, for readiness (a readable topic's
     * partitions, or the topics when every one is refused).
     */
    private void probe(KafkaConsumer<byte[], byte[]> c) {
        if (subscribed.isEmpty()) {
            c.listTopics(Duration.ofSeconds(5));
        } else {
            c.partitionsFor(subscribed.get(0), Duration.ofSeconds(5));
        }
    }

    /** One poll and what follows it; returns when to ask the broker for the topic's partitions next. */
    private long cycle(KafkaConsumer<byte[], byte[]> c, long nextProbe) {
        long now = System.currentTimeMillis();
        long next = nextProbe;
        if (now >= nextProbe) {
            try {
                probe(c);
            } catch (TopicAuthorizationException e) {
                refused(c, e);
            }
            lastSuccess = Instant.now();
            next = now + 10_000;
            if (pausedSince == null && unreadable.isEmpty()) {
                lastError = null;
            }
        }
        checkUnreadable(c, now);
        for (Iterator<Map.Entry<TopicPartition, Long>> i = heldBack.entrySet().iterator(); i.hasNext();) {
            Map.Entry<TopicPartition, Long> e = i.next();
            if (now >= e.getValue()) {
                i.remove();
                TopicPartition tp = e.getKey();
                if (!waiting.contains(tp)) {  // else it resumes when its former pipeline is done (drained)
                    c.resume(List.of(tp));
                }
                LOG.infof("Kafka intake: trying again to store partition %d's records held back (attempt %d)",
                        tp.partition(), failing.getOrDefault(tp, 0) + 1);
            }
        }
        // short polls while batches are being stored: their offsets are committed, full partitions resumed, soon
        boolean busy = pipelines.values().stream().anyMatch(PartitionPipeline::busy);
        ConsumerRecords<byte[], byte[]> records;
        if (subscribed.isEmpty()) {
            sleep(Duration.ofMillis(500));  // every topic refused: nothing to poll until one is readable again
            records = ConsumerRecords.empty();
        } else {
            try {
                records = c.poll(Duration.ofMillis(busy ? 20 : 500));
            } catch (TopicAuthorizationException e) {
                refused(c, e);
                records = ConsumerRecords.empty();
            }
        }
        measureLag(c);
        hand(c, records);
        settle(c);
        drained(c);
        lastSuccess = Instant.now();
        return next;
    }

    /** Queues each partition's records in its pipeline; a pipeline holding two batches or more pauses its partition. */
    private void hand(KafkaConsumer<byte[], byte[]> c, ConsumerRecords<byte[], byte[]> records) {
        int high = 2 * ingestConfig.chunkRecords();
        for (TopicPartition tp : records.partitions()) {
            PartitionPipeline p = pipelines.get(tp);
            if (p == null) {
                continue;  // revoked while its records were on their way: its new owner reads them
            }
            if (p.add(records.records(tp)) >= high && full.add(tp)) {
                c.pause(List.of(tp));
            }
        }
    }

    /**
     * After each poll: resumes the partitions whose pipeline has drained, holds back those whose batch failed (rewound
     * to that batch), and commits what was stored since the last commit.
     */
    private void settle(KafkaConsumer<byte[], byte[]> c) {
        int low = ingestConfig.chunkRecords();
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        for (PartitionPipeline p : pipelines.values()) {
            TopicPartition tp = p.partition();
            PartitionPipeline.Failure f = p.takeFailure();
            if (f != null) {
                holdBack(c, tp, f);
            } else if (full.contains(tp) && p.queued() <= low) {
                full.remove(tp);
                if (!heldBack.containsKey(tp)) {
                    c.resume(List.of(tp));
                }
            }
            long offset = p.toCommit();
            if (offset >= 0) {
                offsets.put(tp, new OffsetAndMetadata(offset));
                failing.remove(tp);  // it stores again
            }
        }
        if (pausedSince != null && failing.isEmpty() && heldBack.isEmpty()) {
            LOG.infof("Kafka intake: storing works again after %s paused; reading resumes",
                    Duration.between(pausedSince, Instant.now()).withNanos(0));
            pausedSince = null;
            lastError = null;
        }
        if (!offsets.isEmpty()) {
            c.commitAsync(offsets, (committed, e) -> {
                if (e != null) {
                    // the next commit of these partitions carries a later offset; a rebalance commits synchronously
                    LOG.warnf("Kafka intake: committing offsets %s failed (%s); the next commit covers them",
                            committed, e.toString());
                }
            });
        }
    }

    /**
     * Each assigned partition's lag as the consumer last learned it from a fetch (no request to the broker), for
     * {@code vigie_kafka_lag{partition}}; a partition no longer read has none (NaN).
     */
    private void measureLag(KafkaConsumer<byte[], byte[]> c) {
        Set<TopicPartition> mine = new HashSet<>();
        for (TopicPartition tp : c.assignment()) {
            mine.add(tp);
            OptionalLong lag = c.currentLag(tp);
            if (lag.isPresent()) {
                if (lags.put(tp, lag.getAsLong()) == null) {
                    Gauge.builder("vigie.kafka.lag", lags, m -> {
                        Long v = m.get(tp);
                        return v == null ? Double.NaN : v;
                    })
                            .tags("topic", tp.topic(), "partition", Integer.toString(tp.partition()))
                            .strongReference(true)
                            .description("Records of the partition not yet read by this instance").register(meters);
                }
            }
        }
        lags.keySet().retainAll(mine);
    }

    /**
     * A worker's: stores one batch of a partition in one call to the intake (one transaction per chunk), then sends
     * its rejected records to the dead-letter topic (with the reason in headers) and waits for the broker's
     * acknowledgement; only then may the batch's offsets be committed.
     */
    private void store(KafkaProducer<byte[], byte[]> dlq, TopicPartition tp,
            List<ConsumerRecord<byte[], byte[]>> batch) throws Exception {
        List<IncomingLine> lines = new ArrayList<>(batch.size());
        String source = tp.topic() + "-" + tp.partition();
        for (ConsumerRecord<byte[], byte[]> r : batch) {
            lines.add(IncomingLine.of(Source.KAFKA, source, r.offset(), r.value() == null ? new byte[0] : r.value()));
        }
        List<LineOutcome> outcomes;
        // one span per batch stored (its chunks' spans below it)
        Span span = tracer.spanBuilder("vigie.intake.kafka").setSpanKind(SpanKind.CONSUMER)
                .setAttribute("messaging.system", "kafka").setAttribute("messaging.destination.name", tp.topic())
                .setAttribute("messaging.destination.partition.id", Integer.toString(tp.partition()))
                .setAttribute("vigie.records", (long) lines.size()).startSpan();
        try (Scope scope = span.makeCurrent()) {
            outcomes = ingest.ingest(lines, 0, writable(tp.topic()), config.topicAccounts().get(tp.topic()))
                    .outcomes();
        } catch (Exception e) {
            Traces.failed(span, e);
            throw e;
        } finally {
            span.end();
        }
        List<Future<RecordMetadata>> sent = new ArrayList<>();
        String now = Instant.now().toString();
        for (int i = 0; i < batch.size(); i++) {
            LineOutcome o = outcomes.get(i);
            if (o.status() == LineOutcome.Status.REJECTED) {
                ConsumerRecord<byte[], byte[]> r = batch.get(i);
                String reason = r.value() == null ? "the Kafka record has no value" : o.reason();
                ProducerRecord<byte[], byte[]> out = new ProducerRecord<>(config.deadLetterTopic(), r.key(),
                        r.value());
                out.headers().add(H_REASON, reason.getBytes(StandardCharsets.UTF_8))
                        .add(H_TOPIC, r.topic().getBytes(StandardCharsets.UTF_8))
                        .add(H_PARTITION, Integer.toString(r.partition()).getBytes(StandardCharsets.UTF_8))
                        .add(H_OFFSET, Long.toString(r.offset()).getBytes(StandardCharsets.UTF_8))
                        .add(H_RECEIVED, now.getBytes(StandardCharsets.UTF_8));
                sent.add(dlq.send(out));
            }
        }
        for (Future<RecordMetadata> f : sent) {
            f.get();
        }
        if (!sent.isEmpty()) {
            LOG.warnf("Kafka intake: %d of %d records rejected (quarantined and sent to %s)", sent.size(),
                    lines.size(), config.deadLetterTopic());
        }
    }

    /**
     * A worker's: keeps a record whose processing failed {@code attempts} times alone in the quarantine (source
     * {@code kafka}, its topic-partition and offset, the reason: the exception's class and message) and sends it to
     * the dead-letter topic with the reason in headers; only then may its offset be committed. Throws if either
     * could not be done (the record is tried again later).
     */
    private void quarantine(KafkaProducer<byte[], byte[]> dlq, TopicPartition tp, ConsumerRecord<byte[], byte[]> r,
            Throwable cause, int attempts) throws Exception {
        String source = tp.topic() + "-" + tp.partition();
        byte[] value = r.value() == null ? new byte[0] : r.value();
        String reason = poisonReason(tp, r.offset(), cause, attempts);
        AuditRecord parsed = null;
        try {
            parsed = new LineParser().parse(IncomingLine.of(Source.KAFKA, source, r.offset(), value)).record();
        } catch (Exception | StackOverflowError e) {
            // the parser itself may be what fails: kept without its stream
        }
        quarantine.keep(new QuarantineStore.Entry(0, Instant.now(), Source.KAFKA.label(), source, r.offset(), reason,
                value, parsed == null ? null : parsed.stream(), parsed == null ? null : parsed.boot(),
                parsed == null ? null : parsed.seq()));
        ProducerRecord<byte[], byte[]> out = deadLetter(r, r.value(), reason, cause);
        try {
            dlq.send(out).get();
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof RecordTooLargeException)) {
                throw e;
            }
            // the dead-letter topic takes smaller records than the audit log: the headers go, the bytes stay in the
            // quarantine
            dlq.send(deadLetter(r, null, reason + "; the record's " + value.length + " bytes are too large for "
                    + config.deadLetterTopic() + " and are kept in the quarantine only", cause)).get();
        }
        poisoned.increment();
        LOG.errorf("Kafka intake: the record at partition %d offset %d failed %d times alone (%s); kept in the "
                + "quarantine and sent to %s, and its offset committed", tp.partition(), r.offset(), attempts,
                rootMessage(cause), config.deadLetterTopic());
    }

    private ProducerRecord<byte[], byte[]> deadLetter(ConsumerRecord<byte[], byte[]> r, byte[] value, String reason,
            Throwable cause) {
        ProducerRecord<byte[], byte[]> out = new ProducerRecord<>(config.deadLetterTopic(), r.key(), value);
        out.headers().add(H_REASON, reason.getBytes(StandardCharsets.UTF_8))
                .add(H_TOPIC, r.topic().getBytes(StandardCharsets.UTF_8))
                .add(H_PARTITION, Integer.toString(r.partition()).getBytes(StandardCharsets.UTF_8))
                .add(H_OFFSET, Long.toString(r.offset()).getBytes(StandardCharsets.UTF_8))
                .add(H_RECEIVED, Instant.now().toString().getBytes(StandardCharsets.UTF_8))
                .add(H_ERROR, cause.getClass().getName().getBytes(StandardCharsets.UTF_8));
        return out;
    }

    /**
     * Why a poison record is kept: how often it failed, where it came from, the last exception's class and message
     * and its root cause's; at most {@value #MAX_REASON} characters, control characters and lone surrogates replaced
     * (the database takes no NUL, and a message may quote the record).
     */
    static String poisonReason(TopicPartition tp, long offset, Throwable cause, int attempts) {
        String text = "processing failed in " + attempts + " attempts alone (" + tp.topic() + " partition "
                + tp.partition() + " offset " + offset + "): " + rootMessage(cause);
        StringBuilder b = new StringBuilder(Math.min(text.length(), MAX_REASON));
        for (int i = 0; i < text.length();) {
            int cp = text.codePointAt(i);
            int n = Character.charCount(cp);
            if (b.length() + n >= MAX_REASON && i + n < text.length()) {
                b.append('\u2026');
                break;
            }
            b.appendCodePoint(cp < 0x20 || cp == 0x7f || (cp >= 0xd800 && cp <= 0xdfff) ? 0xfffd : cp);
            i += n;
        }
        return b.toString();
    }

    /**
     * Whether a failure says that the database (or the broker, for the dead-letter topic) cannot be reached, rather
     * than anything about the records: a connection lost or refused (SQLState class 08), the server shutting down or
     * starting (57P01 to 57P03), no connection left (53300), the pool's acquisition timeout, a retriable Kafka error.
     * The same test as the HTTP intake's 503, with the server's own shutdown states.
     */
    static boolean unavailable(Throwable failure) {
        int depth = 0;
        for (Throwable t = failure; t != null && depth < 32; t = t.getCause() == t ? null : t.getCause(), depth++) {
            if (t instanceof SQLTransientConnectionException || t instanceof RetriableException
                    || t instanceof ConnectException
                    || t instanceof DetectorLimits.NoRoomNow) {
                return true;
            }
            if (t instanceof SQLException e) {
                String state = e.getSQLState();
                // connection lost, server shutting down, too many connections; and what a slow or busy database
                // answers without any record being at fault: statement timeout, deadlock, serialization failure,
                // lock not available, disk full, out of memory
                if (state != null && (state.startsWith("08") || state.equals("57P01") || state.equals("57P02")
                        || state.equals("57P03") || state.equals("53300") || state.equals("57014")
                        || state.equals("40P01") || state.equals("40001") || state.equals("55P03")
                        || state.equals("53100") || state.equals("53200"))) {
                    return true;
                }
            }
            String message = t.getMessage();
            if (message != null && message.toLowerCase(Locale.ROOT).contains("acquisition timeout")) {
                return true;
            }
        }
        return false;
    }

    /**
     * A batch of the partition could not be stored: nothing of it is committed, so the partition goes back to the
     * batch's first offset and pauses until the next attempt, after a wait that doubles with each failure of the
     * partition in a row (the other partitions go on; with the database down, each fails in turn). Chunks of the batch
     * stored before the failure come again as duplicates.
     */
    private void holdBack(KafkaConsumer<byte[], byte[]> c, TopicPartition tp, PartitionPipeline.Failure f) {
        c.seek(tp, f.offset());
        c.pause(List.of(tp));
        int failures = failing.merge(tp, 1, Integer::sum);
        long wait = Math.min(config.maxRetryBackoff().toMillis(),
                config.retryBackoff().toMillis() << Math.min(20, failures - 1));
        heldBack.put(tp, System.currentTimeMillis() + wait);
        LOG.warnf("Kafka intake paused: storing partition %d from offset %d failed (%s); its records stay in Kafka and"
                + " are read again in %d ms (failure %d in a row; after %d, a batch is split and a record that fails"
                + " alone is quarantined, unless the database is unreachable)", tp.partition(), f.offset(),
                rootMessage(f.cause()), wait, failures, config.maxAttempts());
        if (pausedSince == null) {
            pausedSince = Instant.now();
        }
        lastError = f.cause().toString();
    }

    /**
     * Stops the partitions' pipelines (their waiting records dropped: they are read again by whoever reads the
     * partition next), waits for the batches being stored (all of them against one deadline,
     * {@link #CLOSE_WAIT_MILLIS}), and commits, when the consumer still can, the offset each partition is stored up
     * to (committed before or not: an asynchronous commit may have failed). A pipeline whose batch outlasts the wait
     * goes on draining; its partition, if given back to this instance meanwhile, stays paused until it is done, so
     * that two batches of one partition never run at once.
     */
    private void closePipelines(KafkaConsumer<byte[], byte[]> c, Collection<TopicPartition> partitions,
            boolean commit) {
        List<PartitionPipeline> closing = new ArrayList<>();
        for (TopicPartition tp : List.copyOf(partitions)) {
            PartitionPipeline p = pipelines.remove(tp);
            heldBack.remove(tp);
            failing.remove(tp);
            full.remove(tp);
            waiting.remove(tp);
            if (p != null) {
                p.close();
                closing.add(p);
            }
        }
        long deadline = System.currentTimeMillis() + CLOSE_WAIT_MILLIS;
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        for (PartitionPipeline p : closing) {
            TopicPartition tp = p.partition();
            boolean idle;
            try {
                idle = p.awaitIdle(deadline);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                idle = false;
            }
            if (!idle) {
                draining.put(tp, p);
                LOG.warnf("Kafka intake: partition %d's batch is still being stored after %d ms; its offsets are not"
                        + " committed (read again as duplicates)", tp.partition(), CLOSE_WAIT_MILLIS);
            } else if (p.stored() >= 0) {
                offsets.put(tp, new OffsetAndMetadata(p.stored()));
            }
        }
        if (commit && c != null && !offsets.isEmpty()) {
            try {
                commitOnTheWayOut(c, offsets);
            } catch (RuntimeException e) {
                LOG.warnf("Kafka intake: committing %s on the way out failed (%s); those records are read again as "
                        + "duplicates", offsets, e.toString());
            }
        }
    }

    /** A stop's wakeup may still be pending when no poll took it: it is taken by the first try, the second commits. */
    private static void commitOnTheWayOut(KafkaConsumer<byte[], byte[]> c,
            Map<TopicPartition, OffsetAndMetadata> offsets) {
        try {
            c.commitSync(offsets, Duration.ofSeconds(10));
        } catch (WakeupException e) {
            c.commitSync(offsets, Duration.ofSeconds(10));
        }
    }

    /**
     * Forgets the pipelines of partitions taken away whose last batch is done now, and resumes a partition given back
     * meanwhile that waited for it.
     */
    private void drained(KafkaConsumer<byte[], byte[]> c) {
        for (Iterator<Map.Entry<TopicPartition, PartitionPipeline>> i = draining.entrySet().iterator(); i.hasNext();) {
            Map.Entry<TopicPartition, PartitionPipeline> e = i.next();
            if (!e.getValue().busy()) {
                i.remove();
                TopicPartition tp = e.getKey();
                if (waiting.remove(tp) && pipelines.containsKey(tp) && !heldBack.containsKey(tp)) {
                    c.resume(List.of(tp));
                }
            }
        }
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        for (int depth = 0; t.getCause() != null && t.getCause() != t && depth < 32; depth++) {
            t = t.getCause();
        }
        return t == e ? String.valueOf(e) : e + " <- " + t;
    }

    /**
     * Gives each partition assigned a pipeline; a partition taken away has its pipeline closed (the batch being stored
     * finishes) and its stored offsets committed before another instance reads it; one given back while its former
     * pipeline still stores stays paused until that is done.
     */
    private final class Rebalance implements ConsumerRebalanceListener {
        private final KafkaConsumer<byte[], byte[]> c;
        private final PartitionPipeline.Store store;
        private final PartitionPipeline.Quarantine keep;

        Rebalance(KafkaConsumer<byte[], byte[]> c, PartitionPipeline.Store store, PartitionPipeline.Quarantine keep) {
            this.c = c;
            this.store = store;
            this.keep = keep;
        }

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            if (!partitions.isEmpty()) {
                LOG.infof("Kafka intake: partitions %s go to another instance", names(partitions));
            }
            closePipelines(c, partitions, true);
            assigned = Set.copyOf(c.assignment().stream().filter(tp -> !partitions.contains(tp)).toList());
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            for (TopicPartition tp : partitions) {
                pipelines.put(tp, new PartitionPipeline(tp, workers, store, ingestConfig.chunkRecords(),
                        Math.max(1, config.maxAttempts()), keep, AuditLogConsumer::unavailable));
                if (draining.containsKey(tp)) {
                    // its former pipeline still stores a batch: read it again only once that is done
                    c.pause(List.of(tp));
                    waiting.add(tp);
                }
            }
            assigned = Set.copyOf(c.assignment());
            if (!partitions.isEmpty()) {
                LOG.infof("Kafka intake: reading partitions %s from their committed offsets", names(partitions));
            }
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> partitions) {
            LOG.warnf("Kafka intake: partitions %s were lost (this instance left the group); their records are read "
                    + "again from the committed offsets by their new owner", names(partitions));
            closePipelines(c, partitions, false);
            assigned = Set.of();
        }
    }

    private static String names(Collection<TopicPartition> partitions) {
        return partitions.stream().map(TopicPartition::partition).sorted().toList().toString();
    }

    @Inject
    KafkaClients clients;

    private Properties consumerProperties() {
        Properties p = clients.properties(KafkaClients.Role.INTAKE);
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, config.groupId());
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, Integer.toString(config.maxPollRecords()));
        p.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, Integer.toString(config.maxPartitionFetchBytes()));
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, Long.toString(config.sessionTimeout().toMillis()));
        p.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG,
                Long.toString(Math.max(500, config.sessionTimeout().toMillis() / 3)));
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, "vigie-intake-" + System.getenv().getOrDefault("HOSTNAME",
                Long.toString(ProcessHandle.current().pid())));
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        return p;
    }

    private Properties producerProperties() {
        Properties p = clients.properties(KafkaClients.Role.INTAKE);  // the dead-letter topic
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, Integer.toString(16 << 20));
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        return p;
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
