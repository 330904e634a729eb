package app.vigie.web;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

import org.hamcrest.Matchers;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

import app.vigie.testing.Api;

/**
 * The customer portal over HTTP: a customer sees its own incidents and requests and never another tenant's (not even
 * their existence), acknowledges its alert (which records its awareness), and downloads its documents.
 */
@QuarkusTest
class PortalTest {

    @Test
    void aCustomerSeesItsOwnAndNothingElse() {
        String p = Api.uniquePrefix();
        String acme = p + "-acme";
        String globex = p + "-globex";
        String id = Api.leakingIncident(p, acme, globex);
        String elsewhere = Api.leakingIncident(p + "x", p + "x-initech", p + "x-umbrella");
        Api.account(p + "-acme-user", "customer", acme);
        Api.account(p + "-globex-user", "customer", globex);
        Api.account(p + "-initech-user", "customer", p + "-initech");

        // signed in, a customer lands on its portal
        DashboardActionsTest.Browser a = DashboardActionsTest.signIn(p + "-acme-user", p + "-acme-user-password",
                "/portal");
        assertThat(given().redirects().follow(false).cookies(a.cookies()).get("/").then().statusCode(303).extract()
                .header("Location")).endsWith("/portal");
        String home = a.page("/portal?lang=en");
        assertThat(home).contains(p + "/dep").doesNotContain(p + "x/dep");
        String page = a.page("/portal/incidents/" + id + "?lang=en");
        assertThat(page).contains(p + "a")  // its own request, exposed
                .doesNotContain(p + "b")     // the reading request belongs to another customer
                .doesNotContain(globex).contains("of another customer");
        DashboardActionsTest.Browser g = DashboardActionsTest.signIn(p + "-globex-user", p + "-globex-user-password",
                "/portal");
        assertThat(g.page("/portal/incidents/" + id + "?lang=en")).contains(p + "b").doesNotContain(p + "a<")
                .doesNotContain(acme);

        // another incident, another tenant's: as if it did not exist, through the pages and the API
        given().cookies(a.cookies()).get("/portal/incidents/" + elsewhere).then().statusCode(404);
        given().cookies(a.cookies()).get("/portal/incidents/" + elsewhere + "/documents/processor-alert.pdf").then()
                .statusCode(404);
        DashboardActionsTest.Browser i = DashboardActionsTest.signIn(p + "-initech-user",
                p + "-initech-user-password", "/portal");
        assertThat(i.page("/portal?lang=en")).contains("No incident touches your requests.");
        given().cookies(i.cookies()).get("/portal/incidents/" + id).then().statusCode(404);
        given().cookies(a.cookies()).get("/portal/incidents/" + id + "/documents/incident-report.pdf").then()
                .statusCode(404);
        given().redirects().follow(false).cookies(a.cookies()).get("/incidents/" + id).then().statusCode(403);
        Api.as(p + "-acme-user", p + "-acme-user-password").get("/api/incidents/" + id).then().statusCode(403);

        // its document, its own
        byte[] pdf = given().cookies(a.cookies()).get("/portal/incidents/" + id + "/documents/processor-alert.pdf")
                .then().statusCode(200).contentType("application/pdf").extract().asByteArray();
        assertThat(new String(pdf, 0, 5, StandardCharsets.US_ASCII)).isEqualTo("%PDF-");

        // acknowledging: its own alert only; the time becomes its awareness
        long alert = Api.admin().get("/api/alerts?incident=" + id).then().extract().jsonPath()
                .getLong("find { it.tenant == '" + acme + "' }.id");
        long other = Api.admin().get("/api/alerts?incident=" + id).then().extract().jsonPath()
                .getLong("find { it.tenant == '" + globex + "' }.id");
        assertThat(page).contains("action=\"/portal/alerts/" + alert + "/acknowledgement\"")
                .doesNotContain("/portal/alerts/" + other + "/");
        a.post("/portal/alerts/" + other + "/acknowledgement", "csrf", a.token()).then().statusCode(404);
        a.post("/portal/alerts/" + alert + "/acknowledgement").then().statusCode(403);  // no CSRF token
        a.post("/portal/alerts/" + alert + "/acknowledgement", "csrf", a.token(), "lang", "en").then()
                .statusCode(303);
        assertThat(a.page("/portal/incidents/" + id + "?lang=en&done=1")).contains("Receipt recorded")
                .contains("acknowledged");
        assertThat(Api.admin().get("/api/incidents/" + id + "/tenants/" + acme + "/case").then().extract()
                .jsonPath().getString("controller_aware_at")).isNotNull();
        assertThat(Api.admin().get("/api/incidents/" + id + "/tenants/" + globex + "/case").then().extract()
                .jsonPath().getString("controller_aware_at")).isNull();
    }

    @Test
    void theQuestionnaireFeedsTheSeverityAndTheCnilDraftAndCanBeRevised() {
        String p = Api.uniquePrefix();
        String acme = p + "-acme";
        String id = Api.leakingIncident(p, acme, p + "-globex");
        Api.admin().contentType("application/json").body("{\"legal_name\":\"Acme SAS\",\"country\":\"FR\"}")
                .put("/api/tenants/" + acme).then().statusCode(200);
        Api.account(p + "-acme-user", "customer", acme);
        DashboardActionsTest.Browser a = DashboardActionsTest.signIn(p + "-acme-user", p + "-acme-user-password",
                "/portal/incidents/" + id);
        String form = "/portal/incidents/" + id + "/questionnaire";

        // unanswered: a clear error, nothing recorded
        String refused = a.post(form, "csrf", a.token(), "lang", "en").then().statusCode(400).extract().asString();
        assertThat(refused).contains("role=\"alert\"").contains("say whether those requests carried personal data");
        a.post(form, "csrf", a.token(), "personal_data", "yes", "persons", "many", "identification", "limited")
                .then().statusCode(400).body(Matchers.containsString("whole number"));
        a.post(form, "personal_data", "no").then().statusCode(403);  // no CSRF token

        // health data of about 1,200 persons, directly identifiable: sensitive, the highest ease
        a.post(form, "csrf", a.token(), "lang", "fr", "personal_data", "yes", "categories", "identity",
                "categories", "contact", "special", "health", "persons", "1 200", "identification", "maximum")
                .then().statusCode(303);
        JsonPath st = Api.admin().get("/api/incidents/" + id + "/tenants/" + acme
                + "/statements").then().statusCode(200).extract().jsonPath();
        assertThat(st.getList("data_categories")).containsExactly("état civil, identité", "coordonnées");
        assertThat(st.getList("special_categories")).containsExactly("health");
        assertThat(st.getLong("approximate_persons")).isEqualTo(1200L);
        JsonPath cs = Api.admin().get("/api/incidents/" + id + "/tenants/" + acme + "/case")
                .then().statusCode(200).extract().jsonPath();
        assertThat(cs.getString("severity.inputs.category")).isEqualTo("sensitive");
        assertThat(cs.getString("severity.inputs.ei")).isEqualTo("maximum");
        assertThat(cs.getString("severity.inputs.confidentiality")).isEqualTo("known_recipients");
        String high = cs.getString("severity.level");
        assertThat(high).isIn("HIGH", "VERY_HIGH");
        String draft = given().cookies(a.cookies()).get("/portal/incidents/" + id
                + "/documents/authority-notification.html?lang=fr").then().statusCode(200).extract().asString();
        assertThat(draft).contains("état civil, identité").contains("1200");
        String page = a.page("/portal/incidents/" + id + "?lang=fr");
        assertThat(page).contains("value=\"health\" checked").contains("value=\"1200\"")
                .contains("Corriger mes réponses")
                // the special categories (Art. 9 and 10) in French, not their codes
                .contains("/> santé</label>").contains("/> condamnations pénales et infractions</label>")
                .doesNotContain("/> health</label>").doesNotContain("criminal convictions");
        assertThat(a.page("/portal/incidents/" + id + "?lang=en")).contains("/> health</label>")
                .contains("/> criminal convictions</label>");

        // revised: no personal data after all; the severity follows, the override a DPO set is kept
        Api.admin().contentType("application/json").body("{\"override\":{\"level\":\"MEDIUM\",\"justification\":"
                + "\"the DPO's view\"}}").put("/api/incidents/" + id + "/tenants/" + acme + "/severity").then()
                .statusCode(200);
        a.post(form, "csrf", a.token(), "lang", "en", "personal_data", "no").then().statusCode(303);
        cs = Api.admin().get("/api/incidents/" + id + "/tenants/" + acme + "/case").then().extract().jsonPath();
        assertThat(cs.getString("severity.inputs.category")).isEqualTo("simple");
        assertThat(cs.getString("severity.inputs.ei")).isEqualTo("negligible");
        assertThat(cs.getString("severity.override_level")).isEqualTo("MEDIUM");
        assertThat(Api.admin().get("/api/incidents/" + id + "/tenants/" + acme + "/statements").then().extract()
                .jsonPath().getList("data_categories")).isEmpty();
        assertThat(Api.admin().get("/api/audit-trail?actor=" + p + "-acme-user&action=case.severity").then()
                .extract().jsonPath().getList("$")).hasSize(2);
    }
}
