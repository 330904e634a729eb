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
 * wrote), and a key already there is not written again. The deadlines a plan saves keep their instants too.
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

    @Inject
    ObligationService service;

    /** The deadlines a plan saves (the overview's due and late counts) are its instants, whatever the JVM's zone. */
    @Test
    void deadlinesKeepTheirInstantsWhateverTheJvmsZone() throws Exception {
        String p = Api.uniquePrefix();
        UUID incident = UUID.fromString(Api.leakingIncident(p, p + "-acme", p + "-globex"));
        TimeZone zone = TimeZone.getDefault();
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                Instant now = Instant.now();
                List<ObligationService.Plan> plans = service.plans(c, List.copyOf(CaseStore.incidents(c,
                        List.of(incident)).values()), now, (i, e) -> {
                            throw e;
                        });
                List<Long> expected = plans.get(0).obligations().stream()
                        .filter(o -> o.open() && o.dueAt() != null)
                        .map(o -> o.dueAt().getEpochSecond() * 1_000_000L + o.dueAt().getNano() / 1_000).toList();
                assertThat(expected).isNotEmpty();
                TimeZone.setDefault(TimeZone.getTimeZone("Europe/Paris"));
                DeadlineStore.save(c, plans, now);
                try (PreparedStatement ps = c.prepareStatement("""
                        select array_agg((extract(epoch from d) * 1000000)::bigint order by k)
                        from incident_deadline, unnest(due_at) with ordinality as u(d, k) where incident_id = ?""")) {
                    ps.setObject(1, incident);
                    try (ResultSet rs = ps.executeQuery()) {
                        assertThat(rs.next()).isTrue();
                        assertThat((Long[]) rs.getArray(1).getArray()).containsExactlyElementsOf(expected);
                    }
                }
            } finally {
                TimeZone.setDefault(zone);
                c.rollback();
            }
        }
    }
}
