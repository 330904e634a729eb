package app.vigie.incident;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.stream.Collectors;

import jakarta.inject.Inject;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;

import app.vigie.testing.Api;
import app.vigie.web.DashboardActionsTest;
import app.vigie.testing.EventStream;

/**
 * The overview's server-sent events come from PostgreSQL's notifications (V24): a change committed by any writer
 * (here the intake, then a plain SQL statement from another connection, as another instance would write) reaches an
 * open dashboard as an {@code incidents} event, counted as a notification received.
 */
@QuarkusTest
class IncidentChangesTest {
    @Inject
    IncidentChanges events;

    @Inject
    AgroalDataSource dataSource;

    @Test
    void aCommittedChangeReachesAnOpenDashboardThroughTheDatabase() throws Exception {
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(events::listening);
        String p = Api.uniquePrefix();
        Api.account(p + "-dpo", "dpo", null);
        DashboardActionsTest.Browser dpo = DashboardActionsTest.signIn(p + "-dpo", p + "-dpo-password", "/");
        String cookies = dpo.cookies().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining("; "));
        try (EventStream stream = EventStream.open("http://localhost:" + RestAssured.port, cookies)) {
            stream.settle(500);  // the subscription is in place and any earlier event has passed
            long before = events.notifications();
            Api.leakingIncident(p, p + "-acme", p + "-globex");
            assertThat(stream.next(10)).isEqualTo("incidents");
            assertThat(events.notifications()).isGreaterThan(before);

            // a change committed from another connection, as another instance would
            stream.settle(500);
            long quiet = events.notifications();
            try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
                s.executeUpdate("update incident set updated_at = now() where deployment = '" + p + "/dep'");
            }
            assertThat(stream.next(10)).isEqualTo("incidents");
            assertThat(events.notifications()).isGreaterThan(quiet);
        }
    }
}
