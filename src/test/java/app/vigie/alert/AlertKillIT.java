package app.vigie.alert;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import app.vigie.runtime.log.AuditLogWriter;
import app.vigie.runtime.log.PageRun;
import app.vigie.testing.Logs;
import app.vigie.testing.ServiceProcess;
import app.vigie.testing.WebhookReceiver;

/**
 * The packaged service killed (kill -9) while its webhook delivery waits for the receiver's answer: after the
 * restart the alert is delivered again, not lost, with the same Idempotency-Key and the same body.
 */
class AlertKillIT {
    private static final String PASSWORD = "alert-kill-it-password";
    private static final String ADMIN = "admin:" + PASSWORD;
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void anAlertInFlightWhenTheServiceDiesIsSentAgainWithTheSameKey(@TempDir Path tmp) throws Exception {
        try (WebhookReceiver receiver = new WebhookReceiver();
                ServiceProcess service = new ServiceProcess(tmp.resolve("data"), Map.of("VIGIE_ADMIN_PASSWORD",
                        PASSWORD, "VIGIE_ALERTS_DELIVER_EVERY", "200ms",
                        "VIGIE_WEBHOOK_ALLOWED_NETWORKS", "127.0.0.0/8"))) {  // the receiver is on loopback
            service.start();
            assertThat(service.send("PUT", "/api/tenants/acme", "{\"legal_name\":\"Acme SAS\",\"country\":\"FR\","
                    + "\"alert_channels\":[{\"type\":\"webhook\",\"target\":\"" + receiver.url() + "\"}]}", ADMIN)
                    .statusCode()).isEqualTo(200);
            receiver.secret(JSON.readTree(service.send("POST", "/api/tenants/acme/webhook-secret", "", ADMIN).body())
                    .path("secret").asText());
            CountDownLatch release = new CountDownLatch(1);
            receiver.holdNext(release);

            Instant t = Instant.parse("2026-08-27T09:00:00Z");
            List<String> lines = new ArrayList<>();
            AuditLogWriter w = new AuditLogWriter("it/s", "it/dep", "b1", lines::add);
            List<PageRun> pages = List.of(new PageRun(0, 2));
            w.config(t, 4, 16, 64, 60);
            w.alloc(t, "ra", "acme", pages, "PREFILL", null);
            w.write(t, "ra", "acme", 0, 8, "COMPUTE", null);
            w.free(t, "ra", pages, "FINISH");
            w.alloc(t, "rb", "globex", pages, "PREFILL", null);
            w.attach(t, "rb", "globex", 8);
            w.finish(t, "rb", "globex", "STOP", 200, 3, true);
            assertThat(service.postNdjson(Logs.body(lines), ADMIN).statusCode()).isEqualTo(200);

            if (!receiver.awaitHeld(60)) {
                throw new AssertionError("the delivery did not reach the receiver; alerts: "
                        + service.get("/api/alerts", ADMIN).body() + "\nservice log:\n" + service.log());
            }
            service.kill();  // while the receiver has not answered: nothing was committed as delivered
            release.countDown();

            service.start();
            long until = System.currentTimeMillis() + 60_000;
            JsonNode acme = null;
            while (System.currentTimeMillis() < until) {
                HttpResponse<String> r = service.get("/api/alerts", ADMIN);
                for (JsonNode a : JSON.readTree(r.body())) {
                    if (a.path("tenant").asText().equals("acme")) {
                        acme = a;
                    }
                }
                if (acme != null && acme.path("deliveries").path(0).path("status").asText().equals("DELIVERED")) {
                    break;
                }
                Thread.sleep(250);
            }
            assertThat(acme).isNotNull();
            assertThat(acme.path("deliveries").path(0).path("status").asText()).isEqualTo("DELIVERED");
            assertThat(receiver.received()).hasSize(2);
            assertThat(receiver.received()).extracting(WebhookReceiver.Received::idempotencyKey)
                    .containsOnly(acme.path("idempotency_key").asText());
            assertThat(receiver.received().get(1).body()).isEqualTo(receiver.received().get(0).body());
            assertThat(receiver.received()).allMatch(WebhookReceiver.Received::verified);
            assertThat(JSON.readTree(service.get("/api/alerts", ADMIN).body()).findValues("tenant").stream()
                    .filter(n -> n.asText().equals("acme")).count()).as("one alert, not two").isEqualTo(1);
        }
    }
}
