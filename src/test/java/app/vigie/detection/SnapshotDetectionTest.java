package app.vigie.detection;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/** Every detection test again, with a snapshot every 7 records: rebuilt detectors start from their snapshots. */
@QuarkusTest
@TestProfile(SnapshotDetectionTest.FrequentSnapshots.class)
public class SnapshotDetectionTest extends DetectionTest {

    /** A snapshot every 7 records. */
    public static class FrequentSnapshots implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("vigie.detection.snapshot-every", "7");
        }
    }

    @Inject
    AgroalDataSource dataSource;

    @Test
    void snapshotsAreTaken() throws Exception {
        forgettingTheDetectorsMidScenarioChangesNothing();
        try (var c = dataSource.getConnection(); var st = c.createStatement();
                var rs = st.executeQuery("select count(*), min(seq) from detector_snapshot")) {
            rs.next();
            assertThat(rs.getLong(1)).isPositive();
            assertThat(rs.getLong(2)).isGreaterThanOrEqualTo(7);
        }
    }
}
