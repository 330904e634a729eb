package app.vigie.compliance.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.TimeZone;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;

import app.vigie.testing.Api;

/**
 * A check's reminders are written by one statement per batch: their times are the instants planned whatever the JVM's
 * zone (a java.sql.Timestamp in an array goes as local text without an offset, which a UTC session reads shifted),
 * the keys the insert returns are those the check built (so that what it wrote is told from what another instance
 * wrote), and a key already there is not written again.
 */
@QuarkusTest
class EscalationStoreTest {
    @Inject
    AgroalDataSource dataSource;

    @Test
    void remindersKeepTheirInstantsWhateverTheJvmsZoneAndAreWrittenOnce() throws Exception {
        String p = Api.uniquePrefix();
        UUID incident = UUID.fromString(Api.leakingIncident(p, p + "-acme", p + "-globex"));
        // the night Paris moves to summer time: local text of these instants is ambiguous or missing there
        Instant due = Instant.parse("2026-03-29T01:30:00.123456Z");
        Instant fire = due.minus(Duration.ofHours(6));
        Escalation.Key key = new Escalation.Key(incident, p + "-acme", "gdpr-33-2", "controller", "T-6H", due);
        TimeZone zone = TimeZone.getDefault();
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                TimeZone.setDefault(TimeZone.getTimeZone("Europe/Paris"));
                Map<Escalation.Key, Long> written = EscalationStore.insert(c, List.of(
                        new EscalationStore.Pending(key, fire, "PENDING", false)), fire);
                assertThat(written).containsOnlyKeys(key);
                try (PreparedStatement ps = c.prepareStatement(
                        "select due_at, fire_at, fired_at from escalation where id = ?")) {
                    ps.setLong(1, written.get(key));
                    try (ResultSet rs = ps.executeQuery()) {
                        assertThat(rs.next()).isTrue();
                        assertThat(rs.getObject(1, OffsetDateTime.class).toInstant()).isEqualTo(due);
                        assertThat(rs.getObject(2, OffsetDateTime.class).toInstant()).isEqualTo(fire);
                        assertThat(rs.getObject(3, OffsetDateTime.class).toInstant()).isEqualTo(fire);
                    }
                }
                assertThat(EscalationStore.insert(c, List.of(new EscalationStore.Pending(key, fire, "PENDING",
                        false)), fire)).as("written already: nothing").isEmpty();
            } finally {
                TimeZone.setDefault(zone);
                c.rollback();
            }
        }
    }
}
