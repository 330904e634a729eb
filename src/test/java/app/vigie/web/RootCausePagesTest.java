package app.vigie.web;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

import app.vigie.testing.Api;
import app.vigie.testing.PdfChecks;

/**
 * The known causes an incident's findings match (root-causes/): on the incident page and in the incident report, in
 * each language, with the findings that support them; none where nothing matches, saying which findings no known
 * cause accounts for.
 */
@QuarkusTest
class RootCausePagesTest {

    /** The shared example of the 2026 shape: over-long prompts rejected but served over stale pages. */
    private static String rejectedPromptIncident(String p) {
        Api.post(Api.renamed(Api.example("03-pd-rejected-prompt.ndjson"), p)).then().statusCode(200);
        return Api.admin().get("/api/incidents").then().statusCode(200).extract().jsonPath()
                .getString("find { it.deployment == '" + p + "/glm-5.3/prod-eu' }.id");
    }

    @Test
    void aRejectedRequestServedIsTheCauseOnThePageAndInTheReportInEachLanguage() throws Exception {
        String p = Api.uniquePrefix();
        String id = rejectedPromptIncident(p);
        assertThat(id).isNotNull();
        String base = "/api/incidents/" + id + "/documents/incident-report";

        JsonPath json = Api.admin().get(base + ".json?lang=en").then().statusCode(200).extract().jsonPath();
        // the 2026 shape: a window larger than the pool, and rejected prompts served
        assertThat(json.getList("technical_cause.causes.id")).containsExactly("context-exceeds-pool",
                "rejected-request-served");
        // its own finding and the coverage gap and reads it explains support it; nothing is left unaccounted for
        assertThat(json.getList("technical_cause.causes[1].support.rule")).contains("REJECTED_REQUEST_SERVED",
                "TRANSFER_COVERAGE_GAP", "CROSS_TENANT_READ");
        assertThat(json.getList("technical_cause.unaccounted")).isEmpty();
        assertThat(json.getString("technical_cause.catalogue_version")).isEqualTo("2026-12-06");

        String en = Api.admin().get(base + ".html?lang=en").then().statusCode(200).extract().asString();
        assertThat(en).contains("2.2. A rejected request served all the same", "This is the shape of the 2026 incident",
                "Abort a rejected request on every node", "sgl-project/sglang#34208",
                "https://github.com/sgl-project/sglang/pull/34208", "They are hints for the engine team, not proof");
        String fr = Api.admin().get(base + ".html?lang=fr").then().statusCode(200).extract().asString();
        assertThat(fr).contains("2.2. Une requête rejetée servie malgré tout", "C&#39;est la forme de l&#39;incident de 2026",
                "Interrompre une requête rejetée sur tous les nœuds", "sgl-project/sglang#34208",
                "demande de fusion en cours d&#39;examen", "Ce sont des pistes pour l'équipe du moteur")
                // a document in French quotes no English title, and says nothing in English
                .doesNotContain("[bugfix]", "Checks that would", "pull request", "First seen");

        byte[] pdf = Api.admin().get(base + ".pdf?lang=fr").then().statusCode(200).extract().asByteArray();
        assertThat(PdfChecks.pdfa3uFailures(pdf)).isEmpty();
        assertThat(PdfChecks.text(pdf).replaceAll("\\s+", " ")).contains("Une requête rejetée servie malgré tout",
                "Contrôles qui l'auraient empêché");

        Api.account(p + "-dpo", "dpo", null);
        DashboardActionsTest.Browser dpo = DashboardActionsTest.signIn(p + "-dpo", p + "-dpo-password",
                "/incidents/" + id);
        String page = dpo.page("/incidents/" + id + "?lang=en");
        assertThat(page).contains("data-hint=\"rejected-request-served\"", "Probable technical cause",
                "<span data-rule=\"REJECTED_REQUEST_SERVED\">Rejected request served (")
                .doesNotContain("data-hint=\"transfer-coverage-gap\"", "Findings no known cause accounts for");
        String pageFr = DutyWordsPageTest.visibleText(dpo.page("/incidents/" + id + "?lang=fr"));
        assertThat(pageFr).contains("Cause technique probable", "Une requête rejetée servie malgré tout",
                "Contrôles qui l'auraient empêché").doesNotContain("Checks that would", "[bugfix]");
    }

    @Test
    void readsWithoutAnyOtherFindingMatchNoKnownCauseAndTheDocumentsSaySo() {
        String p = Api.uniquePrefix();
        String id = Api.leakingIncident(p, p + "-acme", p + "-globex");
        String base = "/api/incidents/" + id + "/documents/incident-report";
        JsonPath json = Api.admin().get(base + ".json?lang=en").then().statusCode(200).extract().jsonPath();
        assertThat(json.getList("technical_cause.causes")).isEmpty();
        assertThat(json.getList("technical_cause.unaccounted.rule")).containsExactly("CROSS_TENANT_READ");
        assertThat(Api.admin().get(base + ".html?lang=en").then().statusCode(200).extract().asString())
                .contains("None of the known runtime faults of Vigie's catalogue of root causes",
                        "Findings no known cause accounts for");
        assertThat(Api.admin().get(base + ".html?lang=fr").then().statusCode(200).extract().asString())
                .contains("Aucun des défauts connus du catalogue des causes de Vigie",
                        "Constats qu'aucune cause connue n'explique");
    }
}
