package app.vigie.notice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;

import app.vigie.testing.Api;
import app.vigie.testing.PdfChecks;

/** The provider's incident report for a regulator, and the register's PDF: rendered, checked, read back. */
@QuarkusTest
class IncidentReportTest {
    private static final String JSON = "application/json";

    @Test
    void theReportTellsTheFactsTimelineCauseExposureAndDecisions() throws Exception {
        String p = Api.uniquePrefix();
        String acme = p + "-acme";
        Api.admin().contentType(JSON).body("{\"legal_name\":\"Acme Santé SARL\",\"country\":\"FR\"}")
                .put("/api/tenants/" + acme).then().statusCode(200);
        String id = Api.leakingIncident(p, acme, p + "-globex");
        String base = "/api/incidents/" + id;
        String bare = Api.admin().get(base + "/documents/incident-report.html?lang=fr").then().statusCode(200)
                .extract().asString();
        assertThat(bare).contains("Aucune mesure enregistrée",  // the words come escaped, as data
                "une requête a lu des positions du cache écrites en dernier par la requête d&#39;un autre client")
                .doesNotContain("CROSS_TENANT_READ");  // a French report explains, it does not show codes

        Api.admin().contentType(JSON).body("{\"status\":\"TRIAGED\",\"reason\":\"Lecture croisée confirmée\"}")
                .post(base + "/status").then().statusCode(200);
        Api.admin().contentType(JSON).body("{\"text\":\"Nœud de décodage isolé\"}").post(base + "/measures").then()
                .statusCode(201);
        Api.admin().contentType(JSON).body("{\"value\":true,\"justification\":\"plus de 500 000 utilisateurs\"}")
                .put(base + "/decisions/significant").then().statusCode(200);

        String fr = Api.admin().get(base + "/documents/incident-report.html?lang=fr").then().statusCode(200)
                .extract().asString();
        assertThat(fr).contains("Rapport d'incident de fuite entre clients", "Lecture croisée confirmée",
                "changement d'état", "mesure prise", "Nœud de décodage isolé", "Acme Santé SARL",
                "plus de 500 000 utilisateurs", "Alerte précoce (directive NIS 2)").doesNotContain("nis2-23-4a");
        String en = Api.admin().get(base + "/documents/incident-report.html?lang=en&zone=UTC").then()
                .statusCode(200).extract().asString();
        assertThat(en).contains("Report of a cross-customer leak", "status change", "27 August 2026, 09:00 (");

        byte[] pdf = Api.admin().get(base + "/documents/incident-report.pdf?lang=fr").then().statusCode(200)
                .contentType("application/pdf").extract().asByteArray();
        assertThat(PdfChecks.pdfa3uFailures(pdf)).isEmpty();
        assertThat(PdfChecks.text(pdf)).contains("Acme Santé SARL", "Nœud de décodage isolé");
        PdfChecks.readBack(pdf, "incident-report-fr", "Rapport", "Lecture croisée confirmée", "confidentialité");

        Api.admin().get(base + "/documents/report.pdf").then().statusCode(404)
                .body("detail", containsString("incident-report"));
        Api.admin().get(base + "/documents/incident-report.pdf?lang=it").then().statusCode(400);

        // the register's PDF: its entries and the chain's head, verified when printed
        Api.admin().contentType(JSON).body("{\"incident_id\":\"" + id + "\",\"tenant\":\"" + acme + "\"}")
                .post("/api/register").then().statusCode(201);
        String head = Api.admin().get("/api/register/verify").then().statusCode(200).extract().jsonPath()
                .getString("head");
        byte[] register = Api.admin().get("/api/register/export.pdf?register=" + acme).then().statusCode(200)
                .contentType("application/pdf").extract().asByteArray();
        assertThat(PdfChecks.pdfa3uFailures(register)).isEmpty();
        String text = PdfChecks.text(register).replaceAll("\\s+", " ");
        assertThat(text).contains("Registre des violations de données à caractère personnel", "Acme Santé SARL",
                "Nœud de décodage isolé", head.substring(0, 16));
        PdfChecks.readBack(register, "register-fr", "Registre des violations", "Acme Santé SARL");
        Api.admin().get("/api/register/export.pdf?lang=de").then().statusCode(400);
        byte[] empty = Api.admin().get("/api/register/export.pdf?register=nobody&lang=en").then().statusCode(200)
                .extract().asByteArray();
        assertThat(PdfChecks.pdfa3uFailures(empty)).isEmpty();
        assertThat(PdfChecks.text(empty)).contains("Personal data breach register", "No entry.");
        PdfChecks.readBack(empty, "register-empty-en", "Personal data breach register");
    }
}
