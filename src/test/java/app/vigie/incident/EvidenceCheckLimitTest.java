package app.vigie.incident;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

import app.vigie.platform.Permits;
import app.vigie.testing.Api;

/**
 * Issue 41, point 7: at most {@value IncidentService#CHECKS_AT_ONCE} evidence checks run at once (each replays every
 * record its incident rests on); one more asker gets 503 with Retry-After, and a check that ends gives its place back.
 */
@QuarkusTest
class EvidenceCheckLimitTest {

    @Inject
    IncidentService incidents;

    @Test
    void aCheckBeyondThoseRunningIsRefusedUntilOneEnds() {
        String id = Api.leakingIncident(Api.uniquePrefix(), "k-acme", "k-globex");
        String check = "/api/incidents/" + id + "/evidence-check";
        List<Permits.Permit> running = new ArrayList<>();
        try {
            for (int i = 0; i < IncidentService.CHECKS_AT_ONCE; i++) {
                running.add(incidents.evidenceChecks().take());
            }
            Response busy = Api.admin().get(check);
            assertThat(busy.statusCode()).isEqualTo(503);
            assertThat(busy.header("Retry-After")).isNotNull();
            assertThat(busy.jsonPath().getString("detail")).contains("evidence checks");
        } finally {
            running.forEach(Permits.Permit::close);
        }
        Api.admin().get(check).then().statusCode(200);
        assertThat(incidents.evidenceChecks().available()).isEqualTo(IncidentService.CHECKS_AT_ONCE);
    }
}
