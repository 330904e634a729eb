package app.vigie.alert;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;

import app.vigie.testing.Api;

/**
 * An alert whose body the retention job replaced by its SHA-256 (body null, body_purged_at set) is not an alert
 * waiting to be written: the outbox does not fold new exposures into it, no worker makes its body again, and it is
 * not counted as waiting for a channel; the same row without body_purged_at is all three.
 */
@QuarkusTest
class AlertBodyPurgeTest {
    @Inject
    AgroalDataSource dataSource;

    @Test
    void aPurgedBodyIsNotAnAlertStillToSend() throws Exception {
        String p = Api.uniquePrefix();
        UUID incident = UUID.fromString(Api.leakingIncident(p, p + "-acme", p + "-globex"));
        String tenant = p + "-initech";
        try (Connection c = dataSource.getConnection()) {
            long id;
            try (PreparedStatement ps = c.prepareStatement("""
                    insert into customer_alert (incident_id, tenant, phase, idempotency_key, created_at,
                      exposed_requests, received_requests, body, ack_token, body_sha256, body_purged_at)
                    values (?, ?, 'UPDATE', ?, now(), 1, 0, null, ?, 'ab', now()) returning id""")) {
                ps.setObject(1, incident);
                ps.setString(2, tenant);
                ps.setString(3, p + "-key");
                ps.setString(4, p + "-token");
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    id = rs.getLong(1);
                }
            }
            assertThat(OutboxStore.unsent(c, incident, tenant)).isFalse();
            assertThat(OutboxStore.waitingForChannel(c, tenant)).doesNotContainKey(id);
            assertThat(DeliveryStore.unfixed(c, id)).isEmpty();
            try (PreparedStatement ps = c.prepareStatement(
                    "update customer_alert set body_purged_at = null where id = ?")) {
                ps.setLong(1, id);
                ps.executeUpdate();
            }
            assertThat(OutboxStore.unsent(c, incident, tenant)).isTrue();
            assertThat(OutboxStore.waitingForChannel(c, tenant)).containsKey(id);
            assertThat(DeliveryStore.unfixed(c, id)).isPresent();
        }
    }
}
