package app.vigie.web;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import org.hamcrest.Matchers;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;

import app.vigie.testing.Api;

/**
 * The register, tenants, quarantine and audit-trail pages for a signed-in user: what each shows, its filters, its
 * exports through the session, bad filters said on the page (400), and what a user may not see.
 */
@QuarkusTest
class DashboardListsTest {

    @Test
    void theAuditTrailPageFiltersAndExports() {
        String p = Api.uniquePrefix();
        String id = Api.leakingIncident(p, p + "-acme", p + "-globex");
        Api.account(p + "-dpo", "dpo", null);
        Api.as(p + "-dpo", p + "-dpo-password").contentType("application/json")
                .body("{\"status\":\"CONFIRMED\"}").post("/api/incidents/" + id + "/status").then().statusCode(200);
        DashboardActionsTest.Browser b = DashboardActionsTest.signIn(p + "-dpo", p + "-dpo-password", "/audit");
        String page = b.page("/audit?actor=" + p + "-dpo&lang=fr");
        assertThat(page).contains("Journal d&#39;audit")  // the page's words are HTML-escaped
                .contains("incident.status").contains("CONFIRMED")
                .contains("aria-current=\"page\"");
        assertThat(b.page("/audit?actor=nobody-" + p)).contains("No event.");
        String bad = given().cookies(b.cookies()).queryParam("from", "2026-03-29 02:30").queryParam("lang", "en").get("/audit").then().statusCode(400)
                .extract().asString();
        assertThat(bad).contains("role=\"alert\"").contains("does not exist in Europe/Paris");
        String csv = given().cookies(b.cookies()).get("/audit/export.csv?actor=" + p + "-dpo").then().statusCode(200)
                .extract().asString();
        assertThat(csv).startsWith("id,at_utc").contains("incident.status");
    }

    /** The overview pages its open incidents by 50, newest first, with links between pages; a bad page is a 400. */
    @Test
    void theOverviewPagesItsIncidentsNewestFirst() {
        String p = Api.uniquePrefix();
        List<String> ids = new ArrayList<>();
        for (int k = 0; k <= 50; k++) {
            ids.add(Api.leakingIncident(p + "-k" + k, p + "-acme", p + "-globex"));
        }
        Api.account(p + "-dpo", "dpo", null);
        DashboardActionsTest.Browser b = DashboardActionsTest.signIn(p + "-dpo", p + "-dpo-password", "/");
        String first = b.page("/?lang=en");
        assertThat(first).contains("data-incident=\"" + ids.get(50) + "\"")
                .doesNotContain("data-incident=\"" + ids.get(0) + "\"").contains("rel=\"next\"")
                .doesNotContain("rel=\"prev\"").containsPattern("[\\d,]+ open incidents, newest first; page 1 of \\d+");
        assertThat(first.split("<tr class=", -1).length - 1).isEqualTo(50);
        assertThat(b.page("/incidents?lang=en&page=2")).contains("data-incident=\"" + ids.get(0) + "\"")
                .contains("rel=\"prev\"");
        assertThat(first).contains("hx-get=\"/incidents?lang=en&amp;zone=Europe/Paris&amp;page=1\"");
        String last = b.page("/?page=9999&lang=en");
        assertThat(last).doesNotContain("rel=\"next\"").contains("rel=\"prev\"");
        assertThat(RestAssured.given().redirects().follow(false).cookies(b.cookies())
                .get("/?page=abc").statusCode()).isEqualTo(400);
    }

    @Test
    void theOverviewShowsTheHighestSeverityAssessedAmongTheTenants() {
        String p = Api.uniquePrefix();
        String victim = p + "-acme";
        String id = Api.leakingIncident(p, victim, p + "-globex");
        Api.account(p + "-dpo", "dpo", null);
        DashboardActionsTest.Browser b = DashboardActionsTest.signIn(p + "-dpo", p + "-dpo-password", "/");
        Supplier<String> row = () -> {
            String html = b.page("/incidents?lang=en");
            int at = html.indexOf("data-incident=\"" + id + "\"");
            assertThat(at).isPositive();
            return html.substring(at, html.indexOf("</tr>", at));
        };
        assertThat(row.get()).contains("not assessed");
        for (String[] t : new String[][] {{p + "-globex", "MEDIUM"}, {victim, "VERY_HIGH"}}) {
            Api.admin().contentType("application/json").body("{\"override\":{\"level\":\"" + t[1]
                    + "\",\"justification\":\"assessed by the controller\"}}")
                    .put("/api/incidents/" + id + "/tenants/" + t[0] + "/severity").then().statusCode(200);
        }
        assertThat(row.get()).contains("very high").doesNotContain("not assessed").doesNotContain("medium");
        assertThat(b.page("/incidents/" + id + "?lang=fr")).contains("gravité : très élevée")
                .contains("gravité : moyenne").contains("<dd>ouvert").contains("<td>à faire</td>")
                .doesNotContain("<td>OPEN").doesNotContain("<td>PENDING</td>");
    }

    @Test
    void registerTenantsAndQuarantinePages() {
        String p = Api.uniquePrefix();
        String victim = p + "-acme";
        String id = Api.leakingIncident(p, victim, p + "-globex");
        Api.admin().contentType("application/json").body("{\"legal_name\":\"Acme <SAS>\",\"country\":\"FR\","
                + "\"alert_channels\":[{\"type\":\"email\",\"target\":\"sec@acme.example\"}]}")
                .put("/api/tenants/" + victim).then().statusCode(200);
        Api.admin().contentType("application/json").body("{\"incident_id\":\"" + id + "\",\"tenant\":\"" + victim
                + "\"}").post("/api/register").then().statusCode(201);
        Api.post("{\"not\":\"a record " + p + "\"}\n").then().statusCode(200);
        Api.account(p + "-analyst", "analyst", null);
        DashboardActionsTest.Browser b = DashboardActionsTest.signIn(p + "-analyst", p + "-analyst-password", "/");

        String register = b.page("/register?register=" + victim);
        assertThat(register).contains("Chain verified").contains(victim).contains(id.substring(0, 8));
        assertThat(given().cookies(b.cookies()).get("/register/export.csv?register=" + victim).then().statusCode(200)
                .extract().asString()).contains(victim);
        byte[] pdf = given().cookies(b.cookies()).get("/register/export.pdf?register=" + victim + "&lang=en").then()
                .statusCode(200).contentType("application/pdf").extract().asByteArray();
        assertThat(new String(pdf, 0, 5, StandardCharsets.US_ASCII)).isEqualTo("%PDF-");

        assertThat(b.page("/tenants")).contains("Acme &lt;SAS&gt;").contains("email: sec@acme.example")
                .doesNotContain("Acme <SAS>");
        String quarantine = b.page("/quarantine?source=http");
        assertThat(quarantine).contains("a record " + p).contains("Quarantine of rejected records");

        // an analyst reads the register but not the audit trail; bad input is a 400, never a 500
        given().redirects().follow(false).cookies(b.cookies()).get("/audit").then().statusCode(403);
        given().cookies(b.cookies()).get("/quarantine?page=0").then().statusCode(400);
        given().cookies(b.cookies()).get("/quarantine?source=ftp").then().statusCode(400);
        given().cookies(b.cookies()).get("/register?incident=not-a-uuid").then().statusCode(Matchers
                .anyOf(Matchers.is(400), Matchers.is(404)));
    }
}
