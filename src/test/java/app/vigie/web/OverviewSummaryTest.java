package app.vigie.web;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;

import app.vigie.compliance.service.EscalationScheduler;
import app.vigie.testing.Api;
import app.vigie.testing.MovableClock;

/**
 * The overview's summary strip counts what asks for action over every open incident, each count a link to the list
 * it counts: obligations due within 24 hours and late (from the deadlines the last plan saved), alerts not delivered
 * and not acknowledged, affected customers missing from the directory. The filters show exactly the incidents,
 * alerts and tenants counted.
 */
@QuarkusTest
public class OverviewSummaryTest {

    @Inject
    EscalationScheduler escalations;

    @Inject
    AgroalDataSource dataSource;

    @AfterEach
    void resetClock() {
        MovableClock.INSTANCE.reset();
    }

    @Test
    void theStripCountsWhatAsksForActionAndItsLinksListIt() throws Exception {
        String p = Api.uniquePrefix();
        String acme = p + "-acme";
        String globex = p + "-globex";
        // acme agreed to be alerted within 12 hours and gave no channel; globex is not in the directory
        String id = DutyWordsPageTest.acmeReadByGlobex(p);
        Instant detected = Instant.parse(Api.admin().get("/api/incidents/" + id).then().statusCode(200).extract()
                .jsonPath().getString("detected_at"));
        Api.account(p + "-dpo", "dpo", null);
        DashboardActionsTest.Browser dpo = DashboardActionsTest.signIn(p + "-dpo", p + "-dpo-password", "/");

        // no reminder check has run yet: the overview plans the incident new since the last one itself, so that
        // it is counted and filtered at once (acme's alert is due within 24 hours)
        assertThat(dpo.page("/?filter=due-soon&lang=en")).contains("data-incident=\"" + id + "\"");

        // the check plans every running incident, saves its deadlines and counts the summary
        tick(detected.plus(Duration.ofHours(1)));
        String overview = dpo.page("/?lang=en");
        long dueSoon = count(overview, "obligations? due within 24 h");
        assertThat(dueSoon).isPositive();
        assertThat(overview).contains("href=\"/?filter=due-soon&amp;lang=en", "href=\"/?filter=late&amp;lang=en",
                "href=\"/alerts?state=undelivered&amp;lang=en", "href=\"/alerts?state=unacknowledged&amp;lang=en",
                "href=\"/tenants?lang=en");
        assertThat(dpo.page("/?filter=due-soon&lang=en")).contains("data-incident=\"" + id + "\"",
                "Only the incidents with an obligation due within 24 hours.");
        assertThat(dpo.page("/?filter=late&lang=en")).doesNotContain("data-incident=\"" + id + "\"");
        long lateBefore = count(overview, "obligations? late");

        // 13 hours on, the 12-hour alert to acme is late by contract: counted, and the late filter lists it
        tick(detected.plus(Duration.ofHours(13)));
        String later = dpo.page("/?lang=fr");
        assertThat(count(later, "obligations? en retard")).isGreaterThan(lateBefore);
        assertThat(dpo.page("/?filter=late&lang=fr")).contains("data-incident=\"" + id + "\"",
                "Seulement les incidents dont une obligation est en retard.");

        // acme has no channel: its alert is not delivered, so it is in that list and not in the other
        String undelivered = dpo.page("/alerts?state=undelivered&lang=en");
        assertThat(undelivered).contains("/incidents/" + id + "?lang=en\">", "Only the alerts of open incidents");
        assertThat(dpo.page("/alerts?state=unacknowledged&lang=en")).doesNotContain("/incidents/" + id + "?");
        assertThat(count(overview, "alerts? not delivered")).isPositive();

        // globex is missing from the directory, acme is not
        String tenants = dpo.page("/tenants?lang=en");
        String missing = tenants.substring(tenants.indexOf("id=\"missing\""));
        assertThat(missing).contains("<td>" + globex + "</td>").doesNotContain(acme);
        assertThat(count(overview, "customers? missing from the directory")).isPositive();

        // a filter that is not one is a clear 400, not a page of everything
        given().cookies(dpo.cookies()).get("/?filter=soon").then().statusCode(400);
        given().cookies(dpo.cookies()).get("/alerts?state=lost").then().statusCode(400);
    }

    /**
     * A service just started, before its first reminder check (no summary saved): the overview counts the strip
     * itself, once, rather than showing none.
     */
    @Test
    void beforeTheFirstCheckTheOverviewCountsTheStripItself() throws Exception {
        String p = Api.uniquePrefix();
        DutyWordsPageTest.acmeReadByGlobex(p);
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
            st.executeUpdate("delete from overview_summary");
        }
        DashboardActionsTest.Browser dpo = DashboardActionsTest.signIn("admin", Api.ADMIN_PASSWORD, "/");
        String overview = dpo.page("/?lang=en");
        assertThat(overview).contains("<nav class=\"summary\"");
        assertThat(count(overview, "customers? missing from the directory")).isPositive();
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("select count(*) from overview_summary")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt(1)).as("saved for the next views").isEqualTo(1);
        }
    }

    private void tick(Instant at) throws Exception {
        MovableClock.INSTANCE.set(at);
        escalations.tick(at);
    }

    /** The number in the strip's link whose text ends with {@code words}. */
    private static long count(String page, String words) {
        String strip = page.substring(page.indexOf("<nav class=\"summary\""), page.indexOf("</nav>",
                page.indexOf("<nav class=\"summary\"")));
        Matcher m = Pattern.compile(">(\\d+) " + words + "<").matcher(strip.replace("&nbsp;", " "));
        assertThat(m.find()).as("the strip says '%s': %s", words, strip).isTrue();
        return Long.parseLong(m.group(1));
    }
}
