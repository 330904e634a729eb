package app.vigie.auditlog.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import app.vigie.testing.Fleet;
import app.vigie.testing.KafkaResource;
import app.vigie.testing.Logs;
import app.vigie.testing.PgServer;
import app.vigie.testing.ResultDigest;
import app.vigie.testing.ServiceProcess;

/**
 * The packaged service reading Kafka under load while its PostgreSQL is first slow (its cursors locked for a while)
 * and then down (stopped, then started again): the intake waits, then pauses, commits nothing it has not stored,
 * the HTTP intake answers 503 with Retry-After, the process stays up, and when the database is back everything is
 * stored and judged as if nothing happened, without anyone stepping in.
 */
class BackpressureIT {
    private static final String ADMIN = "admin:" + ScaleOutIT.PASSWORD;
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aSlowThenStoppedDatabasePausesTheIntakeWhichResumesByItselfAndLosesNothing() throws Exception {
        Path tmp = ScaleOutIT.workDirectory("backpressure-it");
        String bootstrap = KafkaResource.bootstrapServers();
        String topic = "vigie.backpressure-it";
        try (Admin admin = Admin.create(KafkaResource.adminProperties())) {
            admin.createTopics(List.of(new NewTopic(topic, 6, (short) 1))).all().get();
        }
        Fleet fleet = Fleet.of("bp", 4, 1000, 31);
        int total = fleet.lines().size();
        Map<String, String> env = new HashMap<>(ScaleOutIT.env(null, "vigie", bootstrap, topic));
        env.put("VIGIE_KAFKA_RETRY_BACKOFF", "500ms");
        env.put("VIGIE_KAFKA_MAX_RETRY_BACKOFF", "2s");

        try (PgServer pg = new PgServer(tmp.resolve("pg")).start();
                ServiceProcess service = new ServiceProcess(tmp.resolve("service"), withDatabase(env, pg))) {
            pg.createDatabase("vigie");
            service.start();
            ScaleOutIT.awaitPartitions(Map.of(service, 6), 6);
            long pid = service.pid();
            CompletableFuture<Void> producing = CompletableFuture.runAsync(() -> {
                try {
                    fleet.produce(bootstrap, topic, 3_000);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });

            // slow: every stream's cursor locked for 5 s; storing waits, nothing fails
            try (Connection c = pg.connect("vigie")) {
                ScaleOutIT.awaitRecords(c, total / 5);
                try (Connection lock = pg.connect("vigie"); Statement s = lock.createStatement()) {
                    lock.setAutoCommit(false);
                    s.execute("lock table stream_boot in exclusive mode");
                    Thread.sleep(1000);
                    long held = ResultDigest.records(c);
                    Thread.sleep(4000);
                    assertThat(ResultDigest.records(c)).as("nothing stored while the cursors are locked")
                            .isEqualTo(held);
                    lock.commit();
                }
                ScaleOutIT.awaitRecords(c, ResultDigest.records(c) + 1);
            }

            // down: stopped under load
            pg.stop();
            Thread.sleep(1500);
            Map<TopicPartition, OffsetAndMetadata> before = committed("vigie");
            HttpResponse<String> refused = service.postNdjson(Logs.body(Logs.stream("bp-http", 3)), ADMIN);
            assertThat(refused.statusCode()).as(refused.body()).isEqualTo(503);
            assertThat(refused.headers().firstValue("Retry-After")).isPresent();
            assertThat(service.get("/q/health/ready", null).statusCode()).isEqualTo(503);
            assertThat(service.get("/q/health/live", null).statusCode()).as("alive: not to be restarted")
                    .isEqualTo(200);
            Thread.sleep(6000);
            assertThat(committed("vigie")).as("no offset committed while nothing can be stored").isEqualTo(before);
            assertThat(service.log()).contains("Kafka intake paused");
            long storedBefore = before.values().stream().mapToLong(OffsetAndMetadata::offset).sum();
            assertThat(storedBefore).as("the outage came mid-stream").isLessThan(total);

            pg.start();
            producing.get(5, TimeUnit.MINUTES);
            ScaleOutIT.awaitConsumed(topic, "vigie");
            assertThat(service.pid()).as("the same process throughout").isEqualTo(pid);
            assertThat(service.log()).contains("storing works again");

            Map<String, List<String>> digest;
            try (Connection c = pg.connect("vigie")) {
                digest = ResultDigest.of(c);
                assertThat(ResultDigest.records(c)).as("every record stored").isEqualTo(total);
            }
            assertThat(digest.get("quarantine")).isEmpty();
            assertThat(digest.get("gaps")).isEmpty();
            for (String row : digest.get("streams")) {
                String[] f = row.split(" \\| ");
                assertThat(Long.parseLong(f[2])).as("every record of %s applied", f[0])
                        .isEqualTo(Long.parseLong(f[3]) + 1);
            }
            long leaked = 0;
            for (JsonNode i : JSON.readTree(service.get("/api/incidents", ADMIN).body())) {
                leaked += i.path("leaked_responses").asLong();
            }
            assertThat(leaked).as("leaked responses against the runtime's ground truth")
                    .isEqualTo(fleet.leakingResponses());
            assertThat(service.get("/q/health/ready", null).statusCode()).isEqualTo(200);
            System.out.printf("BackpressureIT: %d records; database locked 5 s, then stopped with %d committed; all "
                    + "stored after restart, %d leaked responses as the ground truth says%n", total, storedBefore,
                    leaked);
        }
    }

    private static Map<String, String> withDatabase(Map<String, String> env, PgServer pg) {
        Map<String, String> out = new HashMap<>(env);
        out.put("QUARKUS_DATASOURCE_JDBC_URL", pg.jdbcUrl("vigie"));
        return out;
    }

    private static Map<TopicPartition, OffsetAndMetadata> committed(String group) throws Exception {
        try (Admin admin = Admin.create(KafkaResource.adminProperties())) {
            return admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
        }
    }
}
