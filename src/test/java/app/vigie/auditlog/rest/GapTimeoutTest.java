package app.vigie.auditlog.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

import app.vigie.testing.Api;
import app.vigie.testing.Logs;
import app.vigie.testing.RecordingListener;

/** A record held behind a missing seq longer than the gap timeout releases it: the gap is declared lost. */
@QuarkusTest
@TestProfile(GapTimeoutTest.ShortTimeout.class)
class GapTimeoutTest {

    /** A 2 s timeout checked every second. */
    public static class ShortTimeout implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("vigie.ingest.gap-timeout", "2s", "vigie.ingest.gap-check-every", "1s");
        }
    }

    @Inject
    RecordingListener recorder;

    @Test
    void aGapOlderThanTheTimeoutIsDeclaredLost() {
        String s = Api.uniquePrefix() + "/s";
        List<String> lines = Logs.stream(s, 6);
        Api.post(Logs.body(Logs.pick(lines, 1, 2, 5, 6))).then().statusCode(200)
                .body("pending", equalTo(2));
        assertThat(recorder.appliedSeqs(s)).containsExactly(1L, 2L);

        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> recorder.appliedSeqs(s).size() == 4);

        assertThat(recorder.appliedSeqs(s)).containsExactly(1L, 2L, 5L, 6L);
        assertThat(recorder.gaps(s)).containsExactly(s + "/b1:3-4");
        Api.admin().get("/api/streams").then().body("find { it.stream == '" + s + "' }.lost_records", equalTo(2));
    }
}
