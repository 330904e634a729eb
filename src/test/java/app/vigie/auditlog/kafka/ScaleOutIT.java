package app.vigie.auditlog.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import app.vigie.testing.Fleet;
import app.vigie.testing.KafkaResource;
import app.vigie.testing.PgServer;
import app.vigie.testing.ResultDigest;
import app.vigie.testing.EventStream;
import app.vigie.testing.ServiceProcess;

/**
 * Two packaged instances in production mode share a topic's partitions through a consumer group on a real broker
 * and one PostgreSQL; one is killed (kill -9) in the middle of the streams and started again later. The database
 * they fill must hold exactly what one instance alone makes of the same records: records, cursors, findings,
 * exposures, request facts, incidents, quarantine.
 */
class ScaleOutIT {
    static final String PASSWORD = "scale-out-it-password";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int PARTITIONS = 6;

    @Test
    void twoInstancesWithOneKilledMidStreamGiveTheSingleInstanceResult() throws Exception {
        Path tmp = workDirectory("scale-out-it");  // kept: the services' logs are there
        String bootstrap = KafkaResource.bootstrapServers();
        String topic = "vigie.scale-out-it";
        try (Admin admin = Admin.create(KafkaResource.adminProperties())) {
            admin.createTopics(List.of(new NewTopic(topic, PARTITIONS, (short) 1))).all().get();
        }
        Fleet fleet = Fleet.of("scale", 6, 1200, 11);
        int total = fleet.lines().size();
        assertThat(fleet.leakingResponses()).as("the workload leaks").isPositive();

        try (PgServer pg = new PgServer(tmp.resolve("pg")).start();
                ServiceProcess a = new ServiceProcess(tmp.resolve("a"), env(pg, "pair", bootstrap, topic));
                ServiceProcess b = new ServiceProcess(tmp.resolve("b"), env(pg, "pair", bootstrap, topic));
                ServiceProcess single = new ServiceProcess(tmp.resolve("s"), env(pg, "single", bootstrap, topic))) {
            pg.createDatabase("pair");
            pg.createDatabase("single");
            a.start();
            b.start();
            awaitPartitions(Map.of(a, 1, b, 1), PARTITIONS);

            CompletableFuture<Void> producing = CompletableFuture.runAsync(() -> {
                try {
                    fleet.produce(bootstrap, topic, 6_000);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            long killedAt;
            Set<Integer> aHad;
            try (Connection c = pg.connect("pair")) {
                awaitRecords(c, total / 4);
                aHad = partitions(a);
                assertThat(aHad).as("A reads some partitions when it is killed").isNotEmpty();
                a.kill();
                killedAt = ResultDigest.records(c);
                // B takes A's partitions over once the group gives up on A (session timeout 6 s)
                awaitPartitions(Map.of(b, 1), PARTITIONS);
                long takenOver = ResultDigest.records(c);
                assertThat(killedAt).as("killed mid-stream").isLessThan(total);
                awaitRecords(c, Math.max(takenOver, total / 2) + 1);
                a.start();  // back: the group shares the partitions again
                awaitPartitions(Map.of(a, 1, b, 1), PARTITIONS);
            }
            producing.get(5, TimeUnit.MINUTES);
            awaitConsumed(topic, "pair");
            single.start();
            awaitConsumed(topic, "single");

            Map<String, List<String>> pair;
            Map<String, List<String>> alone;
            try (Connection p = pg.connect("pair"); Connection s = pg.connect("single")) {
                pair = ResultDigest.of(p);
                alone = ResultDigest.of(s);
                List<List<String>> counts = ResultDigest.exposureCounts(p);
                assertThat(counts.get(0)).as("exposure counters kept by concurrent writers").isNotEmpty()
                        .isEqualTo(counts.get(1));
                List<List<String>> incidents = ResultDigest.incidentCounters(p);
                assertThat(incidents.get(0)).as("incident counters (V23) kept by concurrent writers, one killed")
                        .isNotEmpty().isEqualTo(incidents.get(1));
            }
            assertThat(alone.get("records").stream().mapToLong(r -> Long.parseLong(r.split(" \\| ")[2])).sum())
                    .as("every record stored once").isEqualTo(total);
            assertThat(alone.get("exposures")).as("the workload's leaks were found").isNotEmpty();
            assertThat(alone.get("quarantine")).isEmpty();
            for (String part : alone.keySet()) {
                List<String> missing = new ArrayList<>(alone.get(part));
                missing.removeAll(pair.get(part));
                List<String> extra = new ArrayList<>(pair.get(part));
                extra.removeAll(alone.get(part));
                assertThat(pair.get(part)).as("%s of the pair (one killed at %d of %d records) against one instance "
                        + "alone: %d rows against %d; only alone (first 5): %s; only in the pair (first 5): %s", part,
                        killedAt, total, pair.get(part).size(), alone.get(part).size(),
                        missing.subList(0, Math.min(5, missing.size())), extra.subList(0, Math.min(5, extra.size())))
                        .isEqualTo(alone.get(part));
            }
            long leaked = 0;
            for (JsonNode i : JSON.readTree(single.get("/api/incidents", "admin:" + PASSWORD).body())) {
                leaked += i.path("leaked_responses").asLong();
            }
            assertThat(leaked).as("leaked responses against the runtime's ground truth")
                    .isEqualTo(fleet.leakingResponses());
            // a change made through A reaches a dashboard open on B: PostgreSQL's notifications (V24)
            String id = JSON.readTree(b.get("/api/incidents?limit=1", "admin:" + PASSWORD).body()).get(0).path("id")
                    .asText();
            try (EventStream onB = EventStream.open("http://localhost:" + b.port(), "admin", PASSWORD)) {
                onB.settle(500);
                assertThat(a.send("POST", "/api/incidents/" + id + "/status", "{\"status\":\"TRIAGED\"}",
                        "admin:" + PASSWORD).statusCode()).isEqualTo(200);
                assertThat(onB.next(10)).as("B's dashboards told of A's change").isEqualTo("incidents");
            }
            // B went on with A's streams from their stored state (snapshot and records), not from scratch
            assertThat(b.log()).contains("Kafka intake: reading partitions [0, 1, 2, 3, 4, 5]")
                    .contains("Rebuilt the detector of");
            System.out.printf("ScaleOutIT: %d records over %d partitions; A had %s and was killed at %d records; "
                    + "%d findings, %d exposures, %d leaked responses, equal in both databases%n", total,
                    PARTITIONS, aHad, killedAt, alone.get("findings").size(), alone.get("exposures").size(), leaked);
        }
    }

    /** A fresh directory under target/, kept after the run for its logs. */
    static Path workDirectory(String name) throws IOException {
        Path dir = Path.of("target", name).toAbsolutePath();
        if (Files.exists(dir)) {
            try (var files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
        Files.createDirectories(dir);
        return dir;
    }

    static Map<String, String> env(PgServer pg, String database, String bootstrap, String topic) {
        Map<String, String> env = ServiceProcess.productionEnv(pg == null ? null : pg.jdbcUrl(database), bootstrap,
                topic, PASSWORD);
        env.put("VIGIE_KAFKA_GROUP_ID", database);
        env.put("VIGIE_KAFKA_SESSION_TIMEOUT", "6s");
        env.put("VIGIE_KAFKA_MAX_POLL_RECORDS", "500");
        // snapshots often, so a taken-over detector starts from one
        env.put("VIGIE_DETECTION_SNAPSHOT_EVERY", "1000");
        env.put("JAVA_TOOL_OPTIONS", "-Xmx640m");
        // dashboards hear of changes through PostgreSQL's notifications only: the fallback check waits an hour
        env.put("VIGIE_DASHBOARD_PUSH_CHECK_EVERY", "1h");
        return env;
    }

    /** The partitions an instance reads now, from its readiness check. */
    static Set<Integer> partitions(ServiceProcess s) throws Exception {
        HttpResponse<String> r = s.get("/q/health/ready", null);
        for (JsonNode check : JSON.readTree(r.body()).path("checks")) {
            if (check.path("name").asText().equals("kafka-intake")) {
                String list = check.path("data").path("partitions").asText("[]");
                return list.length() <= 2 ? Set.of() : new TreeSet<>(List.of(list.substring(1, list.length() - 1)
                        .split(", ")).stream().map(Integer::parseInt).collect(Collectors.toSet()));
            }
        }
        return Set.of();
    }

    /** Waits until the instances read {@code total} partitions between them, each at least its minimum. */
    static void awaitPartitions(Map<ServiceProcess, Integer> minimum, int total) throws Exception {
        long until = System.currentTimeMillis() + 90_000;
        while (true) {
            int sum = 0;
            boolean each = true;
            for (Map.Entry<ServiceProcess, Integer> e : minimum.entrySet()) {
                Set<Integer> p = partitions(e.getKey());
                sum += p.size();
                each &= p.size() >= e.getValue();
            }
            if (each && sum == total) {
                return;
            }
            assertThat(System.currentTimeMillis()).as("the group assigned the partitions in time").isLessThan(until);
            Thread.sleep(200);
        }
    }

    static void awaitRecords(Connection c, long atLeast) throws Exception {
        long until = System.currentTimeMillis() + 180_000;
        while (ResultDigest.records(c) < atLeast) {
            assertThat(System.currentTimeMillis()).as("%d records stored in time", atLeast).isLessThan(until);
            Thread.sleep(100);
        }
    }

    /** Waits until the group has committed the end of every partition of the topic. */
    static void awaitConsumed(String topic, String group) throws Exception {
        long until = System.currentTimeMillis() + 300_000;
        try (Admin admin = Admin.create(KafkaResource.adminProperties())) {
            long[] at;
            while ((at = KafkaResource.committed(admin, topic, group))[0] < at[1]) {
                assertThat(System.currentTimeMillis()).as("group %s consumed %s in time", group, topic)
                        .isLessThan(until);
                Thread.sleep(250);
            }
        }
    }
}
