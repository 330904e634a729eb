package app.vigie.runtime.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

class AuditLogWriterTest {
    private static final Instant T = Instant.parse("2026-08-27T10:15:03.123456Z");

    @Test
    void numbersRecordsFromOneAndRestartsOnReboot() {
        List<String> lines = new ArrayList<>();
        AuditLogWriter w = new AuditLogWriter("eu/n1/colo/dp0", "m/prod", "b1", lines::add);
        w.config(T, 16, 64, 1024, 1000);
        w.heartbeat(T);
        w.reboot("b2");
        w.config(T, 16, 64, 1024, 1000);

        assertThat(lines).hasSize(3);
        assertThat(lines.get(0)).startsWith("{\"v\":1,\"stream\":\"eu/n1/colo/dp0\",\"boot\":\"b1\",\"seq\":1,"
                + "\"ts\":\"2026-08-27T10:15:03.123Z\",\"deployment\":\"m/prod\",\"type\":\"CONFIG\"");
        assertThat(lines.get(1)).contains("\"seq\":2", "\"type\":\"HEARTBEAT\"");
        assertThat(lines.get(2)).contains("\"boot\":\"b2\"", "\"seq\":1");
    }

    @Test
    void configOnlyFirst() {
        AuditLogWriter w = new AuditLogWriter("s", "d", "b", line -> { });
        w.heartbeat(T);
        assertThatThrownBy(() -> w.config(T, 16, 64, 1024, 1000)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void escapesStringsAndWritesOptionalFieldsOnlyWhenGiven() {
        List<String> lines = new ArrayList<>();
        AuditLogWriter w = new AuditLogWriter("s", "d", "b", lines::add);
        w.admit(T, "r\"1", "t\\1", 5, false, "too\nlong");
        w.alloc(T, "r", "t", List.of(new PageRun(3, 2), new PageRun(9, 1)), "PREALLOC", null);
        w.share(T, "r", "t", List.of(new PageRun(0, 2)), List.of("aa", "bb"));
        w.xferCommit(T, "r", "t", 10, 1, null);

        assertThat(lines.get(0)).contains("\"request\":\"r\\\"1\"", "\"tenant\":\"t\\\\1\"",
                "\"verdict\":\"REJECT\"", "\"reason\":\"too\\nlong\"");
        assertThat(lines.get(1)).contains("\"pages\":[[3,2],[9,1]]").doesNotContain("claimed_tokens");
        assertThat(lines.get(2)).contains("\"fp\":[\"aa\",\"bb\"]");
        assertThat(lines.get(3)).doesNotContain("checksum_ok");
    }

    @Test
    void timestampsAreRfc3339UtcMillisecondsAtEveryEdge() {
        DateTimeFormatter reference = DateTimeFormatter
                .ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);
        List<Instant> instants = new ArrayList<>(List.of(
                Instant.parse("2026-08-27T23:59:59.999Z"), Instant.parse("2026-08-28T00:00:00.000Z"),
                Instant.parse("2028-02-29T12:00:00.005Z"), Instant.parse("1969-12-31T23:59:59.999Z"),
                Instant.parse("2026-03-29T01:00:00.010Z"), Instant.parse("2026-10-25T00:59:59.990Z"),
                Instant.parse("2026-08-27T10:15:03.123456Z")));
        Random random = new Random(5);
        for (int i = 0; i < 5000; i++) {
            instants.add(Instant.ofEpochMilli(1_700_000_000_000L + (long) (random.nextDouble() * 200_000_000_000L)));
        }
        List<String> lines = new ArrayList<>();
        AuditLogWriter w = new AuditLogWriter("s", "d", "b", lines::add);
        for (Instant t : instants) {
            w.heartbeat(t);
        }
        for (int i = 0; i < instants.size(); i++) {
            String expected = reference.format(instants.get(i).truncatedTo(ChronoUnit.MILLIS));
            assertThat(lines.get(i)).as(instants.get(i).toString()).contains("\"ts\":\"" + expected + "\"");
        }
    }

    @Test
    void stringsThatNeedEscapingAreEscapedAndOthersCopiedAsTheyAre() {
        List<String> lines = new ArrayList<>();
        AuditLogWriter w = new AuditLogWriter("eu/\"n1\"\\x\t", "d\u0001", "b", lines::add);
        w.heartbeat(T);
        assertThat(lines.get(0)).contains("\"stream\":\"eu/\\\"n1\\\"\\\\x\\t\"")
                .contains("\"deployment\":\"d\\u0001\"");
        new AuditLogWriter("plain/é", "d", "b", lines::add).heartbeat(T);
        assertThat(lines.get(1)).contains("\"stream\":\"plain/é\"");
    }
}
