package app.vigie.bench;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.Future;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import app.vigie.testing.Fleet;
import app.vigie.testing.KafkaResource;
import app.vigie.testing.OpenMetrics;
import app.vigie.testing.PgServer;
import app.vigie.testing.ServiceProcess;

/**
 * Ingests N valid records (default 1,000,000) through Kafka into the packaged service in production mode (a KRaft
 * broker in this JVM, a PostgreSQL server beside it, the embedded mode's PostgreSQL settings), after a warm-up of other
 * records of the same workload, and prints records/s until the last offset is committed, next to the rate of raw
 * Jackson parsing of the same lines. By default the measured records wait in Kafka as a backlog (one transaction,
 * committed when the clock starts); with {@code --live} the clock starts at the first record produced, and producing
 * shares the cores. Several instances: each one's figure and the total. Everything shares this machine's cores. Run it
 * with {@code bench/ingest-kafka}.
 */
public final class IngestKafkaBenchmark {

    public static void main(String[] args) throws Exception {
        long records = 1_000_000;
        long warmup = 1_500_000;
        int partitions = 6;
        int instances = 1;
        String workload = "pd-example";
        boolean live = false;
        Map<String, String> tuning = new HashMap<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--records" -> records = Long.parseLong(args[++i]);
                case "--warmup" -> warmup = Long.parseLong(args[++i]);
                case "--partitions" -> partitions = Integer.parseInt(args[++i]);
                case "--instances" -> instances = Integer.parseInt(args[++i]);
                case "--workload" -> workload = args[++i];
                case "--live" -> live = true;
                case "--workers" -> tuning.put("VIGIE_KAFKA_WORKERS", args[++i]);
                case "--max-poll-records" -> tuning.put("VIGIE_KAFKA_MAX_POLL_RECORDS", args[++i]);
                case "--fetch-bytes" -> tuning.put("VIGIE_KAFKA_MAX_PARTITION_FETCH_BYTES", args[++i]);
                case "--chunk" -> tuning.put("VIGIE_INGEST_CHUNK_RECORDS", args[++i]);
                default -> throw new IllegalArgumentException("unknown option " + args[i] + "; options: --records N "
                        + "--warmup N --partitions N --instances N --workload benign|pd-example --live --workers N "
                        + "--max-poll-records N --fetch-bytes N (the service's settings vigie.kafka.*) --chunk N "
                        + "(vigie.ingest.chunk-records)");
            }
        }
        long seed = System.nanoTime();
        List<String> measured = flat(IngestHttpBenchmark.workload(workload, records, 4, 4, seed));
        List<String> warm = warmup == 0 ? List.of()
                : flat(IngestHttpBenchmark.workload(workload, warmup, 4, 4, seed + 1_000_003));
        long bytes = measured.stream().mapToLong(l -> l.length() + 1).sum();
        System.out.printf("generated %,d records (%,d bytes), workload %s%n", measured.size(), bytes, workload);
        double jackson = IngestHttpBenchmark.rawJacksonRate(List.of(measured));
        System.out.printf("raw Jackson parse (readTree, 1 thread, best of 3 passes): %,.0f records/s%n", jackson);

        String bootstrap = KafkaResource.bootstrapServers();
        String topic = "vigie.bench";
        try (Admin admin = Admin.create(KafkaResource.adminProperties())) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get();
        }
        Path tmp = Files.createTempDirectory("vigie-kafka-bench");
        List<ServiceProcess> services = new ArrayList<>();
        try (PgServer pg = new PgServer(tmp.resolve("pg")).start()) {
            pg.createDatabase("vigie");
            String options = System.getenv().getOrDefault("VIGIE_BENCH_JAVA_OPTIONS",
                    "-Xms2g -Xmx2g -XX:+AlwaysPreTouch");
            for (int i = 0; i < instances; i++) {
                Map<String, String> env = ServiceProcess.productionEnv(pg.jdbcUrl("vigie"), bootstrap, topic,
                        "bench-admin-password");
                env.put("JAVA_TOOL_OPTIONS", options);
                env.putAll(tuning);
                services.add(new ServiceProcess(tmp.resolve("service-" + i), env).start());
            }
            System.out.printf("%d instance(s) in production mode (JVM options '%s', settings %s), topic of %d "
                    + "partitions%n", instances, options, tuning, partitions);
            if (!warm.isEmpty()) {
                System.out.printf("warming up with %,d other records of the same workload%n", warm.size());
                System.out.printf("warm-up: %,.0f records/s (a fresh JVM compiles its code meanwhile)%n",
                                warm.size() / run(bootstrap, topic, warm, true));
            }
            double[] before = sums(services, "vigie_intake_records_total{");
            double[] chunksBefore = sums(services, "vigie_intake_chunk_seconds_count");
            double[] txBefore = sums(services, "vigie_intake_chunk_seconds_sum");
            double[] flushBefore = sums(services, "vigie_detection_store_seconds_sum");
            String walBefore = wal(pg, null);
            double seconds = run(bootstrap, topic, measured, live);
            double rate = measured.size() / seconds;
            long walBytes = Long.parseLong(wal(pg, walBefore));
            double[] after = sums(services, "vigie_intake_records_total{");
            double[] chunksAfter = sums(services, "vigie_intake_chunk_seconds_count");
            double[] txAfter = sums(services, "vigie_intake_chunk_seconds_sum");
            double[] flushAfter = sums(services, "vigie_detection_store_seconds_sum");
            long chunks = 0;
            double tx = 0;
            double flush = 0;
            for (int i = 0; i < instances; i++) {
                chunks += (long) (chunksAfter[i] - chunksBefore[i]);
                tx += txAfter[i] - txBefore[i];
                flush += flushAfter[i] - flushBefore[i];
            }
            System.out.printf("  %,d transactions of the intake, %,.0f records each on average, %.0f ms each (of which"
                    + " %.0f ms in detection's store: waiting for the incident's lock, then writing the conclusions under it); "
                    + "%.1f transactions open on average%n", chunks, (double) measured.size() / Math.max(1, chunks),
                    1000 * tx / Math.max(1, chunks), 1000 * flush / Math.max(1, chunks), tx / seconds);
            System.out.printf("  WAL: %,d bytes written by PostgreSQL meanwhile, %.0f bytes per record, %.1f MB/s%n",
                    walBytes, (double) walBytes / measured.size(), walBytes / seconds / 1e6);
            if (instances > 1) {
                for (int i = 0; i < instances; i++) {
                    System.out.printf("  instance %d: %,.0f records taken in, %,.0f records/s%n", i,
                            after[i] - before[i], (after[i] - before[i]) / seconds);
                }
            }
            System.out.printf("Kafka ingest: %,.0f records/s (%d instance(s), %d partitions, after the warm-up, %s); "
                    + "ratio to raw Jackson parsing: %.2f%n", rate, instances, partitions, live
                            ? "produced meanwhile by this JVM" : "a backlog committed at once", rate / jackson);
            for (ServiceProcess s : services) {
                s.stop();  // before the database goes
            }
        } finally {
            for (ServiceProcess s : services) {
                s.close();
            }
            System.out.println("service logs in " + tmp);
        }
        System.exit(0);  // the broker's threads would keep this JVM alive
    }

    /**
     * Each instance's sum of the samples whose lines start with {@code prefix}: records taken in so far (the
     * outcomes of {@code vigie_intake_records_total}), transactions ({@code vigie_intake_chunk_seconds_count}).
     */
    private static double[] sums(List<ServiceProcess> services, String prefix) throws Exception {
        double[] counts = new double[services.size()];
        for (int i = 0; i < services.size(); i++) {
            HttpResponse<String> r = services.get(i).get("/q/metrics", "admin:bench-admin-password");
            if (r.statusCode() != 200) {
                throw new IllegalStateException("/q/metrics answered " + r.statusCode() + ": " + r.body());
            }
            String metrics = r.body();
            for (String line : metrics.split("\n")) {
                if (line.startsWith(prefix)) {
                    counts[i] += OpenMetrics.value(line);
                }
            }
        }
        return counts;
    }

    private static List<String> flat(List<List<String>> perThread) {
        List<String> all = new ArrayList<>();
        perThread.forEach(all::addAll);
        return all;
    }

    /**
     * Produces the lines keyed by stream and waits until the group committed them all. Live: the clock runs from the
     * first record sent, so producing (in this JVM, with the broker) shares the cores with the intake. Backlog: the
     * records are sent in one Kafka transaction the intake cannot read (it reads committed records only), and the
     * clock starts when the transaction commits: what the intake does alone, as when it catches up after a stop.
     * Returns the seconds measured.
     */
    private static double run(String bootstrap, String topic, List<String> lines, boolean live) throws Exception {
        List<byte[]> keys = new ArrayList<>(lines.size());
        List<byte[]> values = new ArrayList<>(lines.size());
        for (String l : lines) {
            keys.add(Fleet.streamOf(l.replace("\"stream\": \"", "\"stream\":\"")).getBytes(StandardCharsets.UTF_8));
            values.add(l.getBytes(StandardCharsets.UTF_8));
        }
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("acks", "all");
        p.put("linger.ms", "20");
        p.put("batch.size", Integer.toString(512 << 10));
        p.put("compression.type", "lz4");
        p.put("key.serializer", ByteArraySerializer.class.getName());
        p.put("value.serializer", ByteArraySerializer.class.getName());
        if (!live) {
            p.put("transactional.id", "vigie-bench-" + System.nanoTime());
            p.put("transaction.timeout.ms", "600000");
        }
        Set<Integer> touched = new HashSet<>();
        long start = System.nanoTime();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
            if (!live) {
                producer.initTransactions();
                producer.beginTransaction();
            }
            List<Future<RecordMetadata>> sent = new ArrayList<>(lines.size());
            for (int i = 0; i < lines.size(); i++) {
                sent.add(producer.send(new ProducerRecord<>(topic, keys.get(i), values.get(i))));
            }
            for (Future<RecordMetadata> f : sent) {
                touched.add(f.get().partition());
            }
            System.out.printf("  produced %,d records in %.1f s%s%n", lines.size(), (System.nanoTime() - start) / 1e9,
                    live ? "" : " (in one transaction; the clock starts at its commit)");
            if (!live) {
                producer.commitTransaction();
                start = System.nanoTime();
            }
        }
        try (Admin admin = Admin.create(KafkaResource.adminProperties())) {
            long lastPrinted = 0;
            long[] at;
            // a transaction's commit marker takes an offset at the end of each partition it wrote to: never read
            long markers = live ? 0 : touched.size();
            while ((at = KafkaResource.committed(admin, topic, "vigie-intake"))[0] < at[1] - markers) {
                if (System.nanoTime() - lastPrinted > 5e9) {
                    System.out.printf("  %,d of %,d offsets committed%n", at[0], at[1]);
                    lastPrinted = System.nanoTime();
                }
                Thread.sleep(50);
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf("  stored and judged %,d records in %.1f s%n", lines.size(), seconds);
        return seconds;
    }

    /** PostgreSQL's WAL position now ({@code since} null), or the bytes written since {@code since}. */
    private static String wal(PgServer pg, String since) throws SQLException {
        try (Connection c = pg.connect("vigie"); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(since == null ? "select pg_current_wal_lsn()::text"
                        : "select pg_wal_lsn_diff(pg_current_wal_lsn(), '" + since + "')::bigint::text")) {
            rs.next();
            return rs.getString(1);
        }
    }
}
