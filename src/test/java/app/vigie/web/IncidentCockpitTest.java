package app.vigie.web;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.hamcrest.Matchers;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

import app.vigie.runtime.log.AuditLogWriter;
import app.vigie.runtime.log.PageRun;
import app.vigie.testing.Api;
import app.vigie.testing.Logs;

/**
 * The incident page as the DPO's cockpit: its header names the next deadline; what happened is drawn (leaking
 * responses over time, a matrix telling another customer's tokens from the same customer's and delivered from
 * contained); the evidence is paginated and downloadable; a missing customer is added to the directory and a
 * decision recorded from the page itself, a refusal showing why with what was typed kept.
 */
@QuarkusTest
public class IncidentCockpitTest {

    /**
     * A log where each of {@code readers} requests of {@code reader} reads 8 positions of a request of
     * {@code victim}, one a minute (every other one not delivered), and one request of the victim reads another of
     * its own; returns the incident's id.
     */
    public static String incidentWithManyLeaks(String p, String victim, String reader, int readers) {
        List<String> lines = new ArrayList<>();
        AuditLogWriter w = Api.leakPairs(lines, p, victim, reader, readers, Duration.ofMinutes(1), i -> i % 2 == 0);
        List<PageRun> pages = List.of(new PageRun(0, 2));
        Instant at = Api.LEAKS_FROM.plus(Duration.ofMinutes(readers));
        w.alloc(at, p + "own1", victim, pages, "PREFILL", null);
        w.write(at, p + "own1", victim, 0, 8, "COMPUTE", null);
        w.free(at, p + "own1", pages, "FINISH");
        w.alloc(at, p + "own2", victim, pages, "PREFILL", null);
        w.attach(at, p + "own2", victim, 8);
        w.finish(at, p + "own2", victim, "STOP", 200, 3, true);
        Api.post(Logs.body(lines)).then().statusCode(200).body("accepted", Matchers.equalTo(lines.size()));
        return Api.admin().get("/api/incidents").then().statusCode(200).extract().jsonPath()
                .getString("find { it.deployment == '" + p + "/dep' }.id");
    }

    @Test
    void theHeaderThePicturesAndTheEvidenceTellWhatHappened() {
        String p = Api.uniquePrefix();
        String acme = p + "-acme";
        String globex = p + "-globex";
        Api.admin().contentType("application/json").body("{\"legal_name\":\"Acme SAS\",\"country\":\"FR\"}")
                .put("/api/tenants/" + acme).then().statusCode(200);
        String id = incidentWithManyLeaks(p, acme, globex, 60);
        DashboardActionsTest.Browser dpo = DashboardActionsTest.signIn("admin", Api.ADMIN_PASSWORD, "/");
        String page = dpo.page("/incidents/" + id + "?lang=en");

        // the header: the soonest deadline in words, who holds it, its countdown; the pack to download
        String header = between(page, "<section class=\"headline\"", "</section>");
        assertThat(DutyWordsPageTest.visibleText(header)).contains("Next deadline", "Alert to the controller",
                "GDPR Art. 33(2)", "Customers affected 2", "Regulator pack (ZIP)");
        assertThat(header).contains("time class=\"countdown\"", "href=\"/incidents/" + id + "/regulator-pack.zip");

        // the matrix: acme's tokens read by globex, 30 responses delivered and 30 contained, 8 tokens each; acme's
        // own request reading another of acme's: the same customer, in its own cell
        String matrix = between(page, "<table class=\"incidents matrix\">", "</table>");
        String acmeRow = DutyWordsPageTest.visibleText(rowOf(matrix, "<th scope=\"row\">" + acme + "</th>"));
        assertThat(acmeRow).contains("Another customer's tokens 240 delivered · 240 contained",
                "The same customer's tokens 8 delivered · 0 contained");
        // the picture: 60 responses carried another customer's tokens (the read of acme's own is not one), 30
        // delivered; the first exposure and the detection marked
        String picture = between(page, "<figure class=\"leaks\">", "</figure>");
        assertThat(DutyWordsPageTest.visibleText(picture)).contains("60 responses with another customer's tokens from",
                "(30 delivered)");
        Matcher bars = Pattern.compile("<title>(\\d+) responses? with another customer").matcher(picture);
        int sum = 0;
        while (bars.find()) {
            sum += Integer.parseInt(bars.group(1));
        }
        assertThat(sum).as("every leaking response in one bar").isEqualTo(60);
        assertThat(picture).contains("class=\"mark detection\"", "class=\"mark first_exposure\"");

        // the evidence: 61 findings (60 reads of another customer's data, 1 of the same customer's), 50 a page
        assertThat(page).contains("Findings 1 to 50 of 61").contains("findings=2#findings\" rel=\"next\"");
        String second = dpo.page("/incidents/" + id + "?lang=en&findings=2");
        assertThat(second).contains("Findings 51 to 61 of 61").contains("rel=\"prev\"").doesNotContain("rel=\"next\"");
        assertThat(dpo.page("/incidents/" + id + "?lang=en&findings=99")).as("past the end: the last page")
                .contains("Findings 51 to 61 of 61");
        given().cookies(dpo.cookies()).get("/incidents/" + id + "?findings=0").then().statusCode(400);
        String csv = given().cookies(dpo.cookies()).get("/incidents/" + id + "/findings.csv").then().statusCode(200)
                .header("Content-Disposition", Matchers.containsString(".csv")).extract().asString();
        assertThat(csv.lines()).hasSize(62).first().asString().startsWith("id,rule,subject");
        assertThat(given().cookies(dpo.cookies()).get("/incidents/" + id + "/findings.json").then().statusCode(200)
                .extract().jsonPath().getList("rule")).hasSize(61).contains("CROSS_TENANT_READ", "INTRA_TENANT_READ");

        // in French: the same, in French words
        String fr = DutyWordsPageTest.visibleText(dpo.page("/incidents/" + id + "?lang=fr"));
        assertThat(fr).contains("Prochaine échéance", "Jetons d'un autre client 240 remis · 240 retenus",
                "60 réponses portant des jetons d'un autre client du", "Constats 1 à 50 sur 61",
                "Dossier pour l'autorité de contrôle (ZIP)");
    }

    @Test
    void aMissingCustomerIsAddedAndADecisionRecordedFromThePage() {
        String p = Api.uniquePrefix();
        String acme = p + "-acme";
        String globex = p + "-globex";
        String id = Api.leakingIncident(p, acme, globex);
        DashboardActionsTest.Browser dpo = DashboardActionsTest.signIn("admin", Api.ADMIN_PASSWORD, "/");

        // refused: the country is not an ISO code; the page says why, keeps what was typed, saves nothing
        Response refused = dpo.post("/incidents/" + id + "/directory", "csrf", dpo.token(), "tenant",
                globex, "legal_name", "Globex GmbH", "country", "Germany", "lang", "en");
        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(refused.asString()).contains("role=\"alert\"", "country").contains("value=\"Globex GmbH\"")
                .contains("<details class=\"map\" open>");
        Api.admin().get("/api/tenants/" + globex).then().statusCode(404);
        // done: the customer is in the directory, its row names its controller
        dpo.post("/incidents/" + id + "/directory", "csrf", dpo.token(), "tenant", globex, "legal_name",
                "Globex GmbH", "country", "DE", "email", "dpo@globex.example", "lang", "en").then().statusCode(303)
                .header("Location", Matchers.endsWith("#customers"));
        assertThat(Api.admin().get("/api/tenants/" + globex).then().statusCode(200).extract().jsonPath()
                .getString("alert_channels[0].target")).isEqualTo("dpo@globex.example");
        String page = dpo.page("/incidents/" + id + "?lang=en");
        assertThat(DutyWordsPageTest.visibleText(rowOf(page, "<tr data-tenant=\"" + globex + "\">")))
                .contains("Globex GmbH").doesNotContain("not in the directory");
        // its alert, which had no channel, now goes out on the channel just given
        assertThat(Api.admin().get("/api/alerts?incident=" + id).then().statusCode(200).extract().jsonPath()
                .getList("find { it.tenant == '" + globex + "' }.deliveries.channel", String.class))
                .containsExactly("email");
        // a second time: it is in the directory, changed on its own page
        assertThat(dpo.post("/incidents/" + id + "/directory", "csrf", dpo.token(), "tenant", globex,
                "legal_name", "Other", "country", "DE", "lang", "en").statusCode()).isEqualTo(409);
        // a tenant the incident does not touch: 404
        assertThat(dpo.post("/incidents/" + id + "/directory", "csrf", dpo.token(), "tenant", p + "-initech",
                "legal_name", "Initech", "country", "FR", "lang", "en").statusCode()).isEqualTo(404);

        // a decision: without an answer, refused and kept; with it, recorded and shown with its answer
        Response noAnswer = dpo.post("/incidents/" + id + "/decisions", "csrf", dpo.token(), "decision",
                "|significant", "justification", "a third of the customers affected", "lang", "en");
        assertThat(noAnswer.statusCode()).isEqualTo(400);
        assertThat(noAnswer.asString()).contains("answer yes or no", "a third of the customers affected");
        dpo.post("/incidents/" + id + "/decisions", "csrf", dpo.token(), "decision", "|significant", "value", "yes",
                "justification", "a third of the customers affected", "lang", "en").then().statusCode(303);
        assertThat(Api.admin().get("/api/incidents/" + id + "/case").then().statusCode(200).extract().jsonPath()
                .getBoolean("decisions.find { it.name == 'significant' }.value")).isTrue();
        assertThat(dpo.page("/incidents/" + id + "?lang=en")).contains("the incident is significant (NIS2) (yes)");
        // a decision the case does not have: refused with the API's reason
        assertThat(dpo.post("/incidents/" + id + "/decisions", "csrf", dpo.token(), "decision", "|no_such",
                "value", "no", "justification", "x", "lang", "en").statusCode()).isEqualTo(400);
    }

    private static String between(String html, String start, String end) {
        int from = html.indexOf(start);
        assertThat(from).as("the page has %s", start).isNotNegative();
        return html.substring(from, html.indexOf(end, from));
    }

    private static String rowOf(String html, String marker) {
        int at = html.indexOf(marker);
        assertThat(at).as(marker).isNotNegative();
        int start = html.lastIndexOf("<tr", at);
        return html.substring(start, html.indexOf("</tr>", at));
    }
}
