package app.vigie.auditlog.kafka;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

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
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;

import app.vigie.auditlog.IngestService;
import app.vigie.auditlog.intake.IncomingLine;
import app.vigie.auditlog.intake.IngestResult;
import app.vigie.auditlog.intake.LineOutcome;
import app.vigie.auditlog.intake.Source;
import app.vigie.kafka.KafkaClients;

/**
 * Production intake from {@code vigie.page-audit.v1}, at least once, in a consumer group: a polled batch is stored
 * (and its rejected records quarantined and sent to the dead-letter topic with the reason in headers) before its
 * offsets are committed. Records are keyed by stream, so each stream is read by one instance at a time; the state a
 * stream's detector needs lives in PostgreSQL (records, cursor, snapshots), committed with the records, so an
 * instance that takes over a partition after a rebalance or a crash rebuilds it from there and goes on from the
 * committed offsets. When storing fails (database down or saturated), the batch's partitions are rewound and
 * paused, and tried again after a wait that doubles up to {@code vigie.kafka.max-retry-backoff}: the intake stops
 * reading instead of losing or piling up records, and resumes by itself. Bad input never stops the consumer.
 */
@ApplicationScoped
public class AuditLogConsumer {
    private static final Logger LOG = Logger.getLogger(AuditLogConsumer.class);
    public static final String H_REASON = "vigie.reason";
    public static final String H_TOPIC = "vigie.source.topic";
    public static final String H_PARTITION = "vigie.source.partition";
    public static final String H_OFFSET = "vigie.source.offset";
    public static final String H_RECEIVED = "vigie.received-at";

    /** Spans of the polls stored (a no-op tracer while tracing is off). */
    @Inject
    Tracer tracer;

    @Inject
    IngestService ingest;

    @Inject
    KafkaIntakeConfig config;

    @ConfigProperty(name = "vigie.mode", defaultValue = "embedded")
    String mode;

    private volatile boolean running;
    private volatile KafkaConsumer<byte[], byte[]> consumer;
    private volatile Instant lastSuccess;
    private volatile String lastError;
    /** Since when storing has been failing (the intake is paused), or null. */
    private volatile Instant pausedSince;
    private volatile Set<TopicPartition> assigned = Set.of();

    @Inject
    MeterRegistry meters;

    /** Per partition this instance reads: how many records lie past its position, as of the last poll. */
    private final Map<Integer, Long> lags = new ConcurrentHashMap<>();
    private Thread thread;
    /** Stores a poll's partitions side by side; null with one worker. */
    private ExecutorService workers;
    /** Failures in a row, and when the paused partitions are tried again (0: not paused): the intake thread's. */
    private int failures;
    private long resumeAt;

    public boolean enabled() {
        return "production".equals(mode);
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
        if (config.workers() > 1) {
            AtomicInteger n = new AtomicInteger();
            workers = Executors.newFixedThreadPool(config.workers(), r -> {
                Thread t = new Thread(r, "vigie-kafka-intake-" + n.incrementAndGet());
                t.setDaemon(true);
                return t;
            });
        }
        thread = new Thread(this::loop, "vigie-kafka-intake");
        thread.setDaemon(true);
        thread.start();
        LOG.infof("Kafka intake started: topic %s, group %s, brokers %s, %d worker(s)", config.topic(),
                config.groupId(), config.bootstrapServers(), config.workers());
    }

    void stop(@Observes ShutdownEvent stop) throws InterruptedException {
        running = false;
        KafkaConsumer<byte[], byte[]> c = consumer;
        if (c != null) {
            c.wakeup();
        }
        if (thread != null) {
            thread.join(30_000);
        }
        if (workers != null) {
            workers.shutdown();
        }
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

    private void loop() {
        while (running) {
            try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(consumerProperties());
                    KafkaProducer<byte[], byte[]> dlq = new KafkaProducer<>(producerProperties())) {
                consumer = c;
                c.subscribe(List.of(config.topic()), new Rebalance(c));
                long nextProbe = 0;
                while (running) {
                    long now = System.currentTimeMillis();
                    if (now >= nextProbe) {
                        // a poll does not fail when the broker is unreachable: ask it something, for readiness
                        c.partitionsFor(config.topic(), Duration.ofSeconds(5));
                        lastSuccess = Instant.now();
                        nextProbe = now + 10_000;
                        if (pausedSince == null) {
                            lastError = null;
                        }
                    }
                    if (resumeAt != 0 && now >= resumeAt) {
                        resumeAt = 0;
                        c.resume(c.paused());
                        LOG.infof("Kafka intake: trying again to store the records held back (attempt %d)",
                                failures + 1);
                    }
                    ConsumerRecords<byte[], byte[]> records = c.poll(Duration.ofMillis(500));
                    measureLag(c);
                    if (!records.isEmpty()) {
                        handle(c, dlq, records);
                        lastSuccess = Instant.now();
                    }
                }
            } catch (WakeupException e) {
                // shutting down
            } catch (Exception e) {
                lastError = e.toString();
                LOG.errorf(e, "Kafka intake failed; rewinding to the committed offsets and retrying in %s",
                        config.retryBackoff());
                sleep(config.retryBackoff());
            } finally {
                consumer = null;
                assigned = Set.of();
            }
        }
    }

    /**
     * Each assigned partition's lag as the consumer last learned it from a fetch (no request to the broker), for
     * {@code vigie_kafka_lag{partition}}; a partition no longer read has none (NaN).
     */
    private void measureLag(KafkaConsumer<byte[], byte[]> c) {
        Set<Integer> mine = new HashSet<>();
        for (TopicPartition tp : c.assignment()) {
            mine.add(tp.partition());
            OptionalLong lag = c.currentLag(tp);
            if (lag.isPresent()) {
                if (lags.put(tp.partition(), lag.getAsLong()) == null) {
                    int partition = tp.partition();
                    Gauge.builder("vigie.kafka.lag", lags, m -> {
                        Long v = m.get(partition);
                        return v == null ? Double.NaN : v;
                    })
                            .tag("partition", Integer.toString(partition)).strongReference(true)
                            .description("Records of the partition not yet read by this instance").register(meters);
                }
            }
        }
        lags.keySet().retainAll(mine);
    }

    private void handle(KafkaConsumer<byte[], byte[]> c, KafkaProducer<byte[], byte[]> dlq,
            ConsumerRecords<byte[], byte[]> records) throws Exception {
        List<IncomingLine> lines = new ArrayList<>(records.count());
        List<ConsumerRecord<byte[], byte[]>> sources = new ArrayList<>(records.count());
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> r : records) {
            byte[] value = r.value() == null ? new byte[0] : r.value();
            lines.add(IncomingLine.of(Source.KAFKA, r.topic() + "-" + r.partition(), r.offset(), value));
            sources.add(r);
            offsets.put(new TopicPartition(r.topic(), r.partition()), new OffsetAndMetadata(r.offset() + 1));
        }
        List<LineOutcome> outcomes;
        // one span per poll stored (its chunks' spans below it, in this thread and the partitions' workers)
        Span span = tracer.spanBuilder("vigie.intake.kafka").setSpanKind(SpanKind.CONSUMER)
                .setAttribute("messaging.system", "kafka").setAttribute("messaging.destination.name", config.topic())
                .setAttribute("vigie.records", (long) lines.size())
                .setAttribute("vigie.partitions", (long) records.partitions().size()).startSpan();
        try (Scope scope = span.makeCurrent()) {
            outcomes = store(records, lines);
        } catch (Exception e) {
            span.recordException(e);
            span.setStatus(StatusCode.ERROR, String.valueOf(e.getMessage()));
            holdBack(c, records, e);
            return;
        } finally {
            span.end();
        }
        if (pausedSince != null) {
            LOG.infof("Kafka intake: storing works again after %s paused; reading resumes",
                    Duration.between(pausedSince, Instant.now()).withNanos(0));
            pausedSince = null;
            lastError = null;
        }
        failures = 0;
        List<Future<RecordMetadata>> sent = new ArrayList<>();
        String now = Instant.now().toString();
        for (int i = 0; i < lines.size(); i++) {
            LineOutcome o = outcomes.get(i);
            if (o.status() == LineOutcome.Status.REJECTED) {
                ConsumerRecord<byte[], byte[]> r = sources.get(i);
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
        c.commitSync(offsets);
        if (!sent.isEmpty()) {
            LOG.warnf("Kafka intake: %d of %d records rejected (quarantined and sent to %s)", sent.size(),
                    lines.size(), config.deadLetterTopic());
        }
    }

    /**
     * Stores the lines of a poll: each partition's in a worker of its own when the poll holds several (a stream's
     * records are all in one partition, in order), else in this thread. Returns the outcomes in the lines' order;
     * throws when any partition's storing failed (what the others stored comes again as duplicates).
     */
    private List<LineOutcome> store(ConsumerRecords<byte[], byte[]> records, List<IncomingLine> lines)
            throws Exception {
        Set<TopicPartition> partitions = records.partitions();
        if (workers == null || partitions.size() < 2) {
            return ingest.ingest(lines, 0).outcomes();
        }
        Map<TopicPartition, List<Integer>> byPartition = new LinkedHashMap<>();
        int i = 0;
        for (ConsumerRecord<byte[], byte[]> r : records) {
            byPartition.computeIfAbsent(new TopicPartition(r.topic(), r.partition()), k -> new ArrayList<>()).add(i++);
        }
        List<List<Integer>> groups = new ArrayList<>(byPartition.values());
        List<Future<IngestResult>> running = new ArrayList<>(groups.size());
        for (List<Integer> g : groups) {
            List<IncomingLine> mine = new ArrayList<>(g.size());
            g.forEach(k -> mine.add(lines.get(k)));
            running.add(workers.submit(Context.current().wrap(() -> ingest.ingest(mine, 0))));
        }
        LineOutcome[] out = new LineOutcome[lines.size()];
        Exception failed = null;
        for (int k = 0; k < groups.size(); k++) {
            try {
                List<LineOutcome> o = running.get(k).get().outcomes();
                List<Integer> g = groups.get(k);
                for (int j = 0; j < g.size(); j++) {
                    out[g.get(j)] = o.get(j);
                }
            } catch (ExecutionException e) {
                failed = e.getCause() instanceof Exception x ? x : e;
            }
        }
        if (failed != null) {
            throw failed;
        }
        return Arrays.asList(out);
    }

    /**
     * Storing failed: nothing of the batch is committed to Kafka, so its partitions go back to the batch's first
     * offsets and pause until the next attempt. Chunks stored before the failure come again as duplicates.
     */
    private void holdBack(KafkaConsumer<byte[], byte[]> c, ConsumerRecords<byte[], byte[]> records, Exception e) {
        Set<TopicPartition> mine = c.assignment();
        for (TopicPartition tp : records.partitions()) {
            if (mine.contains(tp)) {
                c.seek(tp, records.records(tp).get(0).offset());
            }
        }
        c.pause(mine);
        failures++;
        long wait = Math.min(config.maxRetryBackoff().toMillis(),
                config.retryBackoff().toMillis() << Math.min(20, failures - 1));
        resumeAt = System.currentTimeMillis() + wait;
        if (pausedSince == null) {
            pausedSince = Instant.now();
        }
        lastError = e.toString();
        LOG.warnf("Kafka intake paused: storing %d records failed (%s); they stay in Kafka and are read again in "
                + "%d ms (failure %d in a row)", records.count(), rootMessage(e), wait, failures);
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t == e ? String.valueOf(e) : e + " <- " + t;
    }

    /** Logs what the group gave and took; a partition given while paused stays paused until the next attempt. */
    private final class Rebalance implements ConsumerRebalanceListener {
        private final KafkaConsumer<byte[], byte[]> c;

        Rebalance(KafkaConsumer<byte[], byte[]> c) {
            this.c = c;
        }

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            // offsets are committed after each stored batch, before the next poll: nothing is pending here
            if (!partitions.isEmpty()) {
                LOG.infof("Kafka intake: partitions %s go to another instance", names(partitions));
            }
            assigned = Set.copyOf(c.assignment().stream().filter(tp -> !partitions.contains(tp)).toList());
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            if (resumeAt != 0) {
                c.pause(partitions);
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
