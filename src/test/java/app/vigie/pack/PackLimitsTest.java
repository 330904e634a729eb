package app.vigie.pack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.OutputStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;

import app.vigie.problem.ProblemException;
import app.vigie.testing.Api;
import app.vigie.web.IncidentCockpitTest;

/**
 * Issue 41, point 7: the regulator pack takes its permit before it answers (at most {@value RegulatorPackService#AT_ONCE}
 * packs at once, counted from the moment one is granted, not from when its bytes start), and the evidence check
 * answers within a bound however many stored findings and exposures it fails to reproduce.
 */
@QuarkusTest
class PackLimitsTest {

    @Inject
    RegulatorPackService packs;

    @Inject
    AgroalDataSource dataSource;

    @Test
    void aPackHoldsItsPermitFromItsAnswerOnAndGivesItBack() throws Exception {
        String p = Api.uniquePrefix();
        String victim = p + "-acme";
        String id = Api.leakingIncident(p, victim, p + "-globex");
        List<RegulatorPackService.Pack> granted = new ArrayList<>();
        try {
            for (int i = 0; i < RegulatorPackService.AT_ONCE; i++) {
                granted.add(packs.incident(id, "en", null, "test"));
            }
            // granted but not yet written: the next asker waits, whichever pack it asks for
            assertThatThrownBy(() -> granted.add(packs.incident(id, "en", null, "test")))
                    .as("a pack beyond the " + RegulatorPackService.AT_ONCE + " granted")
                    .isInstanceOfSatisfying(ProblemException.class, e -> assertThat(e.status()).isEqualTo(503));
            assertThatThrownBy(() -> granted.add(packs.controller(id, victim, "en", null, "test")))
                    .isInstanceOfSatisfying(ProblemException.class, e -> assertThat(e.status()).isEqualTo(503));
            Response busy = Api.admin().get("/api/incidents/" + id + "/regulator-pack.zip");
            assertThat(busy.statusCode()).isEqualTo(503);
            assertThat(busy.header("Retry-After")).as("Retry-After of the 503").isNotNull();
        } finally {
            for (RegulatorPackService.Pack pack : granted) {
                try {
                    pack.body().write(OutputStream.nullOutputStream());
                } catch (Exception e) {
                    // written or not, its permit is given back
                }
            }
        }
        // written: the permits are back
        Api.admin().get("/api/incidents/" + id + "/regulator-pack.zip").then().statusCode(200);

        // 20 askers at once: each gets its pack or a 503, and the permits all come back
        ExecutorService pool = Executors.newFixedThreadPool(20);
        try {
            List<Callable<Integer>> asks = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                asks.add(() -> Api.admin().get("/api/incidents/" + id + "/regulator-pack.zip").statusCode());
            }
            List<Integer> statuses = new ArrayList<>();
            for (Future<Integer> f : pool.invokeAll(asks)) {
                statuses.add(f.get());
            }
            assertThat(statuses).allSatisfy(s -> assertThat(s).isIn(200, 503)).contains(200);
        } finally {
            pool.shutdownNow();
        }
        Api.admin().get("/api/incidents/" + id + "/tenants/" + victim + "/regulator-pack.zip").then().statusCode(200);
    }

    @Test
    void theEvidenceCheckAnswersWithinABound() throws Exception {
        String p = Api.uniquePrefix();
        int leaks = 150;
        String id = IncidentCockpitTest.incidentWithManyLeaks(p, p + "-acme", p + "-globex", leaks);
        // the records gone (as a purge would leave them): no stored exposure nor finding is judged again
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement("update stream_boot set purged_at = now() where stream = ?")) {
            ps.setString(1, p + "/s");
            assertThat(ps.executeUpdate()).isEqualTo(1);
        }
        JsonPath check = Api.admin().get("/api/incidents/" + id + "/evidence-check").then().statusCode(200)
                .extract().jsonPath();
        assertThat(check.getBoolean("reproduced")).isFalse();
        assertThat(check.getInt("exposures")).isEqualTo(leaks + 1);
        assertThat(check.getList("exposures_not_reproduced")).as("exposures named").hasSize(100);
        assertThat(check.getInt("exposures_not_reproduced_count")).isEqualTo(leaks + 1);
        assertThat(check.getList("findings_not_reproduced").size()).as("findings named").isLessThanOrEqualTo(100);
        assertThat(check.getInt("findings_not_reproduced_count")).isEqualTo(check.getInt("findings"));
    }
}
