package app.vigie.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

import app.vigie.testing.Api;

/** With the demo on, the reference runtime runs inside the service and an incident opens on its own. */
@QuarkusTest
@TestProfile(DemoTest.Demo.class)
public class DemoTest {
    public static final String DEPLOYMENT = "demo-test/" + Long.toString(System.nanoTime(), 36);

    public static class Demo implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("vigie.demo", "incident-2026", "vigie.demo.requests", "300", "vigie.demo.deployment",
                    DEPLOYMENT);
        }
    }

    @Test
    void anIncidentOpensWithExposuresOfTheRuntimesTenants() {
        JsonNode incident = Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
                .until(() -> Api.incident(DEPLOYMENT), i -> i != null && i.get("exposures").size() > 0);
        assertThat(incident.get("classification").asText()).isEqualTo("PERSONAL_DATA_BREACH");
        assertThat(incident.get("exposures").get(0).get("reader_tenant").asText()).startsWith("tenant-");
        assertThat(incident.get("tenants").toString()).contains("tenant-");
        assertThat(incident.get("findings").toString()).contains("REJECTED_REQUEST_SERVED")
                .contains("CONTEXT_EXCEEDS_POOL");
    }
}
