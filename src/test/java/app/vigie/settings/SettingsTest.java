package app.vigie.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;

import app.vigie.testing.Api;
import app.vigie.web.DashboardActionsTest;

/**
 * The provider's identity on the settings page and at /api/settings/provider: the environment's values until an
 * administrator saves one; saved, it is audited, the documents state it at once (no restart), and a value that cannot
 * be saved is refused with its reason and shown again as typed. Others read it, never change it.
 */
@QuarkusTest
class SettingsTest {
    /** The test profile's environment values (application.properties, %test). */
    static final String NAME = "Nuvola SAS";
    static final String CONTACT = "soc@nuvola.example";

    @AfterEach
    void putTheTestProfilesIdentityBack() {
        Api.admin().contentType("application/json")
                .body(Map.of("legal_name", NAME, "contact", CONTACT)).put("/api/settings/provider").then()
                .statusCode(200);
    }

    @Test
    void anAdministratorSavesTheIdentityAuditedAndTheDocumentsStateItAtOnce() {
        String p = Api.uniquePrefix();
        String id = Api.leakingIncident(p, p + "-acme", p + "-globex");
        String alert = "/api/incidents/" + id + "/tenants/" + p + "-acme/documents/processor-alert.html?lang=en";
        assertThat(Api.admin().get(alert).then().statusCode(200).extract().asString()).contains(NAME);

        String name = "Nimbus Cloud " + p + " SAS";
        Api.admin().contentType("application/json").body(Map.of("legal_name", "  " + name + " ",
                "address", "12 rue de la Paix\r\n75002 Paris", "dpo_name", "Jeanne Martin",
                "dpo_email", "dpo@nimbus.example", "contact", "+33 1 23 45 67 89", "registration", "DPO-12345"))
                .put("/api/settings/provider").then().statusCode(200)
                .body("saved", equalTo(true)).body("updated_by", equalTo("admin"))
                .body("identity.legal_name", equalTo(name)).body("identity.address", equalTo("12 rue de la Paix\n75002 Paris"))
                .body("identified", equalTo(true));
        Api.account(p + "-auditor", "auditor", null);
        Api.as(p + "-auditor", p + "-auditor-password").get("/api/settings/provider").then().statusCode(200)
                .body("identity.registration", equalTo("DPO-12345"));
        // documents read it at once
        String html = Api.admin().get(alert).then().statusCode(200).extract().asString();
        assertThat(html).contains(name).contains("+33 1 23 45 67 89").doesNotContain(NAME);

        JsonPath trail = Api.admin().get("/api/audit-trail?target=settings:provider").then().statusCode(200)
                .extract().jsonPath();
        List<Object> afters = trail.getList("after");
        assertThat(trail.getList("action", String.class)).contains("settings.provider");
        assertThat(afters).anyMatch(a -> a.toString().contains(name) && a.toString().contains("DPO-12345"));
        // the same identity again: nothing changed, nothing audited
        int events = afters.size();
        Api.admin().contentType("application/json").body(Map.of("legal_name", name,
                "address", "12 rue de la Paix\n75002 Paris", "dpo_name", "Jeanne Martin",
                "dpo_email", "dpo@nimbus.example", "contact", "+33 1 23 45 67 89", "registration", "DPO-12345"))
                .put("/api/settings/provider").then().statusCode(200);
        assertThat(Api.admin().get("/api/audit-trail?target=settings:provider").then().extract().jsonPath()
                .getList("action")).hasSize(events);
    }

    @Test
    void aWrongIdentityIsRefusedWithEachReasonAndOnlyAnAdministratorChangesIt() {
        String p = Api.uniquePrefix();
        Api.admin().contentType("application/json").body(Map.of("legal_name", " ", "dpo_email", "not-an-address",
                "contact", "x".repeat(201), "registration", "DPO\n1"))
                .put("/api/settings/provider").then().statusCode(400).contentType("application/problem+json")
                .body("detail", containsString("'legal_name' is required"))
                .body("detail", containsString("'dpo_email' is not an e-mail address"))
                .body("detail", containsString("'contact' has at most 200 characters"))
                .body("detail", containsString("'registration' holds a control character"));
        Api.account(p + "-dpo", "dpo", null);
        Api.as(p + "-dpo", p + "-dpo-password").contentType("application/json")
                .body(Map.of("legal_name", "Mine", "contact", "me@x.example")).put("/api/settings/provider").then()
                .statusCode(403);
        Api.admin().get("/api/settings/provider").then().statusCode(200).body("identity.legal_name", equalTo(NAME));
    }

    @Test
    void thePageSavesWithItsTokenShowsARefusalWithWhatWasTypedAndIsReadOnlyForOthers() {
        String p = Api.uniquePrefix();
        DashboardActionsTest.Browser admin = DashboardActionsTest.signIn("admin", Api.ADMIN_PASSWORD,
                "/settings?lang=fr");
        assertThat(admin.page("/settings?lang=fr")).contains("L&#39;identité du sous-traitant", "Dénomination sociale",
                "value=\"" + NAME + "\"", "action=\"/settings\"");
        admin.post("/settings", "legal_name", "Sans jeton", "contact", CONTACT, "lang", "fr").then().statusCode(403);

        Response refused = admin.post("/settings", "csrf", admin.token(), "legal_name", "Nimbus <b>" + p + "</b>",
                "dpo_email", "pas-une-adresse", "contact", CONTACT, "lang", "fr");
        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(refused.asString()).contains("Non enregistré",
                "Courriel du délégué à la protection des données : ce n&#39;est pas une adresse électronique.",
                "Nimbus &lt;b&gt;" + p, "pas-une-adresse").doesNotContain("<b>" + p).doesNotContain("is not an");

        Response saved = admin.post("/settings", "csrf", admin.token(), "legal_name", "Nimbus " + p,
                "address", "1 quai Voltaire\n75007 Paris", "contact", CONTACT, "lang", "fr");
        assertThat(saved.statusCode()).isEqualTo(303);
        assertThat(saved.header("Location")).endsWith("/settings?lang=fr&saved=1");
        String page = admin.page("/settings?lang=fr&saved=1");
        assertThat(page).contains("L&#39;identité du sous-traitant a été enregistrée.", "Enregistrée par admin le",
                "value=\"Nimbus " + p + "\"", "1 quai Voltaire\n75007 Paris");
        Api.admin().get("/api/settings/provider").then().body("identity.legal_name", equalTo("Nimbus " + p));

        Api.account(p + "-analyst", "analyst", null);
        DashboardActionsTest.Browser analyst = DashboardActionsTest.signIn(p + "-analyst", p + "-analyst-password",
                "/settings?lang=en");
        String readOnly = analyst.page("/settings?lang=en");
        assertThat(readOnly).contains("Only an administrator can change these settings.", "Nimbus " + p)
                .doesNotContain("action=\"/settings\"");
        analyst.post("/settings", "csrf", analyst.token(), "legal_name", "Analyst SAS", "contact", CONTACT,
                "lang", "en").then().statusCode(403);
    }
}
