package app.vigie.auditlog.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;

import app.vigie.auditlog.intake.IncomingLine;
import app.vigie.auditlog.intake.Source;
import app.vigie.auditlog.record.AuditRecord;
import app.vigie.auditlog.record.Body;
import app.vigie.auditlog.store.RecordStore.HeldRecord;
import app.vigie.auditlog.store.RecordStore.Long2;
import app.vigie.auditlog.store.RecordStore.NewRecord;

/** Records kept in segments, read back by seq, by range and as held records, on the real PostgreSQL. */
@QuarkusTest
class RecordStoreTest {
    /** Stream ids of this test only: no cursor row is needed to store records, and no other test uses these. */
    private static final AtomicLong IDS = new AtomicLong(7_000_000_000L + new Random().nextInt(1_000_000) * 100L);

    @Inject
    AgroalDataSource dataSource;

    @ConfigProperty(name = "quarkus.datasource.jdbc.url")
    String jdbcUrl;

    @ConfigProperty(name = "quarkus.datasource.username")
    String username;

    private static String line(long seq, int padding) {
        return "{\"seq\": " + seq + ", \"pad\": \"" + "x".repeat(padding) + "\"}";
    }

    private static NewRecord record(long id, long seq, String text) {
        byte[] b = ("##" + text + "##").getBytes(StandardCharsets.UTF_8);
        // The line is a slice of a larger buffer, as it is in a batch.
        IncomingLine line = new IncomingLine(Source.HTTP, "t", seq, b, 2, b.length - 4, true);
        return new NewRecord(id, new AuditRecord("s", "b", seq, Instant.EPOCH, "d", new Body.Heartbeat()), line);
    }

    private void insert(List<NewRecord> records) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            RecordStore.insertNew(c, records, "http", Instant.parse("2026-12-02T10:00:00Z"));
            c.commit();
        }
    }

    private long segments(long id) throws SQLException {
        return count("select count(*) from record_segment where stream_boot_id = ?", id);
    }

    /** The one number a query with one parameter answers. */
    private long count(String sql, Object parameter) throws SQLException {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setObject(1, parameter);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    @Test
    void manyRecordsInAnyOrderAreStoredInBoundedSegmentsAndReadBackBySeq() throws Exception {
        long id = IDS.incrementAndGet();
        long other = IDS.incrementAndGet();
        List<NewRecord> records = new ArrayList<>();
        for (long seq = 1; seq <= 10_000; seq++) {
            records.add(record(id, seq, line(seq, (int) (seq % 300))));
        }
        for (long seq = 1; seq <= 3; seq++) {
            records.add(record(other, seq, line(seq, 5)));
        }
        Collections.shuffle(records, new Random(7));
        insert(records);

        assertThat(segments(id)).as("10,000 seqs in spans of at most 4096").isEqualTo(3);
        assertThat(segments(other)).isEqualTo(1);
        try (Connection c = dataSource.getConnection()) {
            List<StoredRecord> range = RecordStore.range(c, id, 4000, 200);
            assertThat(range).extracting(StoredRecord::seq).containsExactly(
                    LongStream.range(4000, 4200).boxed().toArray(Long[]::new));
            assertThat(range).allSatisfy(r -> assertThat(r.body()).isEqualTo(line(r.seq(), (int) (r.seq() % 300))));
            assertThat(RecordStore.range(c, id, 9990, 4096)).hasSize(11);

            Map<Long2, String> bodies = RecordStore.bodies(c, List.of(new Long2(id, 1), new Long2(id, 5000),
                    new Long2(id, 9999), new Long2(id, 10_001), new Long2(other, 2), new Long2(other, 4)));
            assertThat(bodies).containsOnlyKeys(new Long2(id, 1), new Long2(id, 5000), new Long2(id, 9999),
                    new Long2(other, 2));
            assertThat(bodies.get(new Long2(id, 5000))).isEqualTo(line(5000, 5000 % 300));
            assertThat(bodies.get(new Long2(other, 2))).isEqualTo(line(2, 5));
        }
    }

    @Test
    void heldRecordsAreFoundAcrossOverlappingSegments() throws Exception {
        long id = IDS.incrementAndGet();
        insert(List.of(record(id, 5, line(5, 1)), record(id, 7, line(7, 1)), record(id, 4100, line(4100, 1)),
                record(id, 9000, line(9000, 1))));
        assertThat(segments(id)).as("5..4100 fit one span, 9000 starts another").isEqualTo(2);
        try (Connection c = dataSource.getConnection()) {
            assertThat(RecordStore.firstHeld(c, id, 1).seq()).isEqualTo(5);
            assertThat(RecordStore.firstHeld(c, id, 6).seq()).isEqualTo(7);
            assertThat(RecordStore.firstHeld(c, id, 8).seq()).isEqualTo(4100);
            assertThat(RecordStore.firstHeld(c, id, 4101).seq()).isEqualTo(9000);
            assertThat(RecordStore.firstHeld(c, id, 9001)).isNull();
        }
        // Seq 6 arrives later: its segment starts after the first one, and is still found first.
        insert(List.of(record(id, 6, line(6, 1))));
        try (Connection c = dataSource.getConnection()) {
            HeldRecord held = RecordStore.firstHeld(c, id, 6);
            assertThat(held.seq()).isEqualTo(6);
            assertThat(held.receivedAt()).isEqualTo(Instant.parse("2026-12-02T10:00:00Z"));
            assertThat(RecordStore.range(c, id, 1, 10)).extracting(StoredRecord::seq).containsExactly(5L, 6L, 7L);
        }
    }

    @Test
    void linesOfAnyLengthAndWithLineFeedsInsideComeBackExactly() throws Exception {
        long id = IDS.incrementAndGet();
        String withLineFeed = "{\"seq\":\n2, \"é\": \"€\"}";
        List<NewRecord> records = new ArrayList<>(List.of(record(id, 1, line(1, 0)), record(id, 2, withLineFeed),
                record(id, 3, line(3, 127)), record(id, 4, line(4, 20_000))));
        // Ten lines of 1 MiB: a segment stops before 8 MiB, so they take two.
        for (long seq = 5; seq < 15; seq++) {
            records.add(record(id, seq, line(seq, (1 << 20) - 40)));
        }
        insert(records);
        assertThat(segments(id)).isEqualTo(2);
        try (Connection c = dataSource.getConnection()) {
            List<StoredRecord> all = RecordStore.range(c, id, 1, 100);
            assertThat(all).hasSize(14);
            assertThat(all.get(1).body()).isEqualTo(withLineFeed);
            assertThat(all.get(3).body()).isEqualTo(line(4, 20_000));
            assertThat(all.get(13).body()).isEqualTo(line(14, (1 << 20) - 40));
        }
    }

    /** A database of a version before V7 keeps its records: each becomes a segment of one. */
    @Test
    void theMigrationToSegmentsKeepsEveryRecordStoredBefore() throws Exception {
        String name = "v7_" + Long.toString(System.nanoTime(), 36);
        try (Connection admin = dataSource.getConnection(); Statement s = admin.createStatement()) {
            s.execute("create database " + name);
        }
        String url = jdbcUrl.substring(0, jdbcUrl.lastIndexOf('/') + 1) + name;
        Flyway.configure().dataSource(url, username, null).locations("classpath:db/migration").target("6").load()
                .migrate();
        try (Connection c = DriverManager.getConnection(url, username, null); Statement s = c.createStatement()) {
            s.execute("""
                    insert into audit_record (stream_boot_id, seq, type, ts, body, source, received_at) values
                    (1, 1, 'CONFIG', now(), '{"v":1,"x":"é"}', 'http', '2026-10-25T00:30:00Z'),
                    (1, 3, 'FREE', now(), '{"v":1,"y":3}', 'kafka', '2026-10-25T01:30:00Z')""");
        }
        Flyway.configure().dataSource(url, username, null).locations("classpath:db/migration").load().migrate();
        try (Connection c = DriverManager.getConnection(url, username, null)) {
            c.setAutoCommit(false);
            assertThat(RecordStore.range(c, 1, 1, 10)).containsExactly(new StoredRecord(1, 1, "{\"v\":1,\"x\":\"é\"}"),
                    new StoredRecord(1, 3, "{\"v\":1,\"y\":3}"));
            assertThat(RecordStore.firstHeld(c, 1, 2))
                    .isEqualTo(new HeldRecord(3, Instant.parse("2026-10-25T01:30:00Z")));
            assertThat(RecordStore.bodies(c, List.of(new Long2(1, 3)))).containsEntry(new Long2(1, 3),
                    "{\"v\":1,\"y\":3}");
        } finally {
            try (Connection admin = dataSource.getConnection(); Statement s = admin.createStatement()) {
                s.execute("drop database " + name + " with (force)");
            }
        }
    }

    /**
     * The bound on boots per deployment, counted in the database only when needed (BootCountStore): between counts
     * the count is the last one plus what this instance created, and a chunk that could go past the bound counts
     * again, so that one instance never does; pairs another instance created are seen at the next count.
     */
    @Test
    void bootsPerDeploymentAreCountedWhenNeededAndNeverPastTheBoundFromOneInstance() throws Exception {
        String deployment = "bounds-" + IDS.incrementAndGet();
        AtomicLong clock = new AtomicLong();
        long second = 1_000_000_000L;
        BootCountStore boots = new BootCountStore(5, 10 * second, second, clock::get);
        assertThat(open(boots, deployment, "a1", "a2")).as("counted (0), both created").isEqualTo(2);
        // another instance opens one
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(
                "insert into stream_boot (stream, boot, deployment, first_seen_at, last_seen_at) "
                        + "values (?, 'b', ?, now(), now())")) {
            ps.setString(1, deployment + "/other");
            ps.setString(2, deployment);
            ps.executeUpdate();
        }
        clock.addAndGet(second / 2);
        assertThat(open(boots, deployment, "a3")).as("2 + 1 of 5: not counted again, created").isEqualTo(1);
        clock.addAndGet(second);
        assertThat(open(boots, deployment, "a4", "a5", "a6"))
                .as("3 + 3 could pass 5: counted again (4, with the other instance's), one created").isEqualTo(1);
        assertThat(pairs(deployment)).isEqualTo(5);
        clock.addAndGet(second / 2);
        assertThat(open(boots, deployment, "a7")).as("at the bound, by the last count").isZero();
        clock.addAndGet(20 * second);
        assertThat(open(boots, deployment, "a8")).as("counted again after 10 s: still at the bound").isZero();
        assertThat(open(boots, deployment, "a1", "a2")).as("known pairs are no new ones").isEqualTo(2);
        assertThat(pairs(deployment)).isEqualTo(5);
        // a deployment at its bound whose chunks bring known pairs only is not counted again (it was once a second)
        long counted = boots.databaseCounts();
        for (int i = 0; i < 3; i++) {
            clock.addAndGet(2 * second);
            assertThat(open(boots, deployment, "a1", "a3")).isEqualTo(2);
        }
        assertThat(boots.databaseCounts()).isEqualTo(counted);
    }

    /**
     * A chunk whose transaction rolls back (a retry, a rehearsal) created no pair: the intake makes the counts forget
     * (IngestService.rolledBack), so that the retry is not refused for pairs that were never made.
     */
    @Test
    void aRolledBackChunksPairsAreNotCountedOnceForgotten() throws Exception {
        String deployment = "rollback-" + IDS.incrementAndGet();
        BootCountStore boots = new BootCountStore(2, Long.MAX_VALUE, Long.MAX_VALUE, () -> 0L);
        Map<RecordStore.StreamKey, String> keys = Map.of(new RecordStore.StreamKey(deployment + "/x", "b"), deployment,
                new RecordStore.StreamKey(deployment + "/y", "b"), deployment);
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            assertThat(RecordStore.lockCursors(c, keys, Instant.now(), boots)).hasSize(2);
            c.rollback();
        }
        assertThat(open(boots, deployment, "p", "q")).as("counted 2 by the rolled-back chunk: refused").isZero();
        boots.forget();
        assertThat(open(boots, deployment, "p", "q")).as("counted again: 0, both made").isEqualTo(2);
        assertThat(pairs(deployment)).isEqualTo(2);
    }

    /** Locks (and creates where the bound allows) the cursors of these streams of a deployment: how many it has. */
    private int open(BootCountStore boots, String deployment, String... streams) throws SQLException {
        Map<RecordStore.StreamKey, String> keys = new HashMap<>();
        for (String s : streams) {
            keys.put(new RecordStore.StreamKey(deployment + "/" + s, "b"), deployment);
        }
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            int n = RecordStore.lockCursors(c, keys, Instant.now(), boots).size();
            c.commit();
            return n;
        }
    }

    private long pairs(String deployment) throws SQLException {
        return count("select count(*) from stream_boot where deployment = ?", deployment);
    }
}
