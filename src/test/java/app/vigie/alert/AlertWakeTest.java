package app.vigie.alert;

import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

import app.vigie.testing.Api;
import app.vigie.testing.WebhookReceiver;

/**
 * A leak's alert leaves when the transaction that wrote it commits, not at the sender's next poll: with the poll an
 * hour away, the INITIAL alert still reaches the receiver within seconds of the leaking log's post.
 */
@QuarkusTest
@TestProfile(AlertWakeTest.SlowPoll.class)
class AlertWakeTest {
    /** The sender's poll an hour apart: only the wake at commit can send within the test. */
    public static class SlowPoll implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("vigie.alerts.deliver-every", "PT1H");
        }
    }

    @Test
    void theAlertLeavesAtItsCommitNotAtTheNextPoll() throws Exception {
        String p = Api.uniquePrefix();
        String victim = p + "-acme";
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            AlertDeliveryTest.webhookTenant(victim, receiver);
            Api.leakingIncident(p, victim, p + "-globex");
            AlertDeliveryTest.await("the INITIAL alert, with the poll an hour away",
                    () -> receiver.received().stream().anyMatch(r -> "INITIAL".equals(r.phase())));
        }
    }
}
