package app.vigie.alert;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

import app.vigie.testing.Api;
import app.vigie.testing.WebhookReceiver;

/**
 * A leak's alert leaves when the transaction that wrote it commits, not at the sender's next poll: with the poll an
 * hour away, the INITIAL alert still reaches the receiver within seconds of the leaking log's post. A delivery another
 * instance commits wakes this one's sender through PostgreSQL's notification (V39).
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

    @Inject
    AgroalDataSource dataSource;

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

    /**
     * A delivery written by another writer than this instance's alert service (a plain JDBC insert, as another
     * instance's commit looks from here): no synchronization of this instance runs, only V39's notification can wake
     * its sender before the poll an hour away.
     */
    @Test
    void aDeliveryAnotherInstanceCommitsWakesThisSender() throws Exception {
        String p = Api.uniquePrefix();
        String victim = p + "-acme";
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            AlertDeliveryTest.webhookTenant(victim, receiver);
            Api.leakingIncident(p, victim, p + "-globex");
            AlertDeliveryTest.await("the INITIAL alert", () -> receiver.received().stream()
                    .anyMatch(r -> "INITIAL".equals(r.phase())));
            // the sender looks again when an attempt ends: let that look pass, so that only a wake-up can find the row
            AlertDeliveryTest.await("the first delivery recorded as delivered", () -> delivered(victim));
            Thread.sleep(1000);
            try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement("""
                    insert into alert_delivery (alert_id, channel, target, status, attempts, next_attempt_at,
                      updated_at)
                    select d.alert_id, d.channel, d.target, 'PENDING', 0, now(), now()
                    from alert_delivery d join customer_alert a on a.id = d.alert_id
                    where a.tenant = ? and a.phase = 'INITIAL' and d.channel = 'webhook'""")) {
                ps.setString(1, victim);
                assertThat(ps.executeUpdate()).isEqualTo(1);
            }
            AlertDeliveryTest.await("the delivery another instance wrote, with the poll an hour away",
                    () -> receiver.received().stream().filter(r -> "INITIAL".equals(r.phase())).count() == 2);
        }
    }

    private boolean delivered(String tenant) {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement("""
                select count(*) from alert_delivery d join customer_alert a on a.id = d.alert_id
                where a.tenant = ? and a.phase = 'INITIAL' and d.status = 'DELIVERED'""")) {
            ps.setString(1, tenant);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getLong(1) == 1;
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
