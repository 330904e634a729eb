package app.vigie.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import jakarta.inject.Inject;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;

import app.vigie.testing.Api;
import app.vigie.web.pages.DashboardEvents;

/**
 * The overview's server-sent events come from PostgreSQL's notifications (V24): a change committed by any writer
 * (here the intake, then a plain SQL statement from another connection, as another instance would write) reaches an
 * open dashboard as an {@code incidents} event, counted as a notification received.
 */
@QuarkusTest
class DashboardEventsTest {
    @Inject
    DashboardEvents events;

    @Inject
    AgroalDataSource dataSource;

    @Test
    void aCommittedChangeReachesAnOpenDashboardThroughTheDatabase() throws Exception {
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(events::listening);
        String p = Api.uniquePrefix();
        Api.account(p + "-dpo", "dpo", null);
        DashboardActionsTest.Browser dpo = DashboardActionsTest.signIn(p + "-dpo", p + "-dpo-password", "/");
        BlockingQueue<String> received = new LinkedBlockingQueue<>();
        HttpClient http = HttpClient.newHttpClient();
        HttpResponse<Stream<String>> stream = http.send(HttpRequest.newBuilder(
                URI.create("http://localhost:" + RestAssured.port + "/events"))
                .header("Accept", "text/event-stream")
                .header("Cookie", dpo.cookies().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                        .collect(Collectors.joining("; ")))
                .build(), HttpResponse.BodyHandlers.ofLines());
        assertThat(stream.statusCode()).isEqualTo(200);
        Thread reader = new Thread(() -> stream.body().filter(l -> l.startsWith("event:"))
                .forEach(l -> received.add(l.substring(6).strip())));
        reader.setDaemon(true);
        reader.start();
        try {
            Thread.sleep(500);  // the subscription is in place and any earlier event has passed
            received.clear();

            long before = events.notifications();
            Api.leakingIncident(p, p + "-acme", p + "-globex");
            assertThat(nextEvent(received)).isEqualTo("incidents");
            assertThat(events.notifications()).isGreaterThan(before);

            // a change committed from another connection, as another instance would
            Thread.sleep(500);
            received.clear();
            long quiet = events.notifications();
            try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
                s.executeUpdate("update incident set updated_at = now() where deployment = '" + p + "/dep'");
            }
            assertThat(nextEvent(received)).isEqualTo("incidents");
            assertThat(events.notifications()).isGreaterThan(quiet);
        } finally {
            stream.body().close();
        }
    }

    /** The next event other than a keep-alive ping, within 10 s. */
    private static String nextEvent(BlockingQueue<String> received) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < until) {
            String e = received.poll(100, TimeUnit.MILLISECONDS);
            if (e != null && !e.equals("ping")) {
                return e;
            }
        }
        return null;
    }
}
