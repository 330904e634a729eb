package app.vigie.auditlog.kafka;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

import java.time.Duration;
import java.util.Map;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

import app.vigie.testing.Api;
import app.vigie.testing.Logs;

/** In production mode readiness reflects Kafka: no broker, not ready; HTTP intake still works meanwhile. */
@QuarkusTest
@TestProfile(KafkaReadinessTest.NoBroker.class)
class KafkaReadinessTest {

    /** Production mode with a broker address where nothing listens. */
    public static class NoBroker implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("vigie.mode", "production", "vigie.kafka.bootstrap-servers", "127.0.0.1:9",
                    "vigie.kafka.retry-backoff", "1s", "quarkus.log.category.\"org.apache.kafka\".level", "ERROR");
        }
    }

    @Test
    void notReadyWithoutKafka() {
        Awaitility.await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> given().get("/q/health/ready").then()
                .statusCode(503).body("checks.find { it.name == 'kafka-intake' }.status", equalTo("DOWN"))
                .body("checks.name", hasItem("kafka-intake")));
        Api.post(Logs.body(Logs.stream(Api.uniquePrefix() + "/s", 3))).then().statusCode(200)
                .body("accepted", equalTo(3));
    }
}
