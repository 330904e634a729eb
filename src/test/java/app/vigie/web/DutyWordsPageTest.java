package app.vigie.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;

import app.vigie.testing.Api;

/**
 * The dashboard names duties and findings in words, as the documents do: a duty by its kind and its legal reference in
 * the page's language (templates/notices/words.yaml and the compliance rules), a finding by its name and what it
 * means, counted per kind. No rule id nor detector code is left in the text a reader sees (they stay in attributes
 * for tools).
 */
@QuarkusTest
public class DutyWordsPageTest {
    private static final Pattern RULE_ID = Pattern.compile(
            "\\b(gdpr|nis2|dora|uk-gdpr|ch-nfadp|hipaa|us-ca|tn|eu-ai-act)-[0-9a-z-]+\\b");
    private static final Pattern DETECTOR_CODE = Pattern.compile("\\b(CROSS_TENANT_READ|INTRA_TENANT_READ|"
            + "CROSS_TENANT_SHARE|UNINITIALIZED_READ|REJECTED_REQUEST_SERVED|TRANSFER_COVERAGE_GAP|"
            + "TRANSFER_CHECKSUM_MISMATCH|CONTEXT_EXCEEDS_POOL|DOUBLE_ALLOC|STREAM_GAP|TABLE_EVICTED|"
            + "TRANSFER_SEND_MISSING|TRANSFER_SENT_FOREIGN|TRANSFER_OVERWRITTEN_IN_FLIGHT|SHARED_PAGE_FOREIGN|STREAM_UNSUPPORTED|RESTART_WHILE_OWNING)\\b");

    @Test
    void theIncidentPageNamesDutiesAndFindingsInWordsInEachLanguage() {
        String p = Api.uniquePrefix();
        Api.admin().contentType("application/json").body("{\"legal_name\":\"Acme SAS\",\"country\":\"FR\"}")
                .put("/api/tenants/" + p + "-acme").then().statusCode(200);
        String id = Api.leakingIncident(p, p + "-acme", p + "-globex");
        Api.account(p + "-dpo", "dpo", null);
        DashboardActionsTest.Browser dpo = DashboardActionsTest.signIn(p + "-dpo", p + "-dpo-password",
                "/incidents/" + id);

        String fr = dpo.page("/incidents/" + id + "?lang=fr");
        String frText = visibleText(fr);
        // the CNIL's notification: its kind and its reference in French, as the authority notification says them
        assertThat(frText).contains("Notification à l'autorité", "RGPD, art. 33, par. 1, 3 et 4",
                "Alerte au responsable du traitement", "RGPD, art. 33, par. 2");
        // recipients in French too: the persons concerned, the register (the planner's own names are English)
        assertThat(frText).contains("les personnes concernées", "le registre des violations")
                .doesNotContain("the persons concerned", "record of breaches");
        // findings by kind: the name, what it means (the documents' sentence) and how many
        Matcher kind = Pattern.compile("<tr data-rule=\"CROSS_TENANT_READ\"><th scope=\"row\">([^<]+)</th><td>([^<]+)"
                + "</td><td class=\"n\">(\\d+)</td>").matcher(fr);
        assertThat(kind.find()).as("a row for the cross-tenant reads").isTrue();
        assertThat(kind.group(1)).isEqualTo("Lecture des données d&#39;un autre client");
        assertThat(kind.group(2)).startsWith("Une requête a lu des positions du cache écrites en dernier")
                .endsWith(".");
        assertThat(Integer.parseInt(kind.group(3))).isEqualTo(1);
        assertThat(frText).contains("Constats 1 à 1 sur 1");
        assertNoCode(frText);

        String en = dpo.page("/incidents/" + id + "?lang=en");
        String enText = visibleText(en);
        assertThat(enText).contains("Notification to the authority", "GDPR Art. 33(1), 33(3), 33(4)",
                "Alert to the controller", "GDPR Art. 33(2)", "Read of another customer's data",
                "A request read cache positions last written by another customer's request.");
        assertNoCode(enText);
    }

    @Test
    void theOverviewNamesTheNextDeadlineInWords() {
        String p = Api.uniquePrefix();
        // a 12-hour alert delay agreed with acme: the processor's alert to it is the first deadline
        String id = acmeReadByGlobex(p);
        Api.account(p + "-dpo", "dpo", null);
        DashboardActionsTest.Browser dpo = DashboardActionsTest.signIn(p + "-dpo", p + "-dpo-password", "/");
        String fr = dpo.page("/incidents?lang=fr");
        Matcher row = Pattern.compile("<tr class=\"[^\"]*\" data-incident=\"" + id + "\">(.*?)</tr>", Pattern.DOTALL)
                .matcher(fr);
        assertThat(row.find()).as("the new incident on the first page of the overview").isTrue();
        String due = visibleText(row.group(1));
        assertThat(due).contains("Alerte au responsable du traitement → Acme SAS · " + p + "-acme",
                "RGPD, art. 33, par. 2");
        assertNoCode(due);
    }

    @Test
    void theIncidentPageSaysWhatToDoNextAndWhereEachCustomerStands() {
        String p = Api.uniquePrefix();
        String acme = p + "-acme";
        String globex = p + "-globex";
        String id = acmeReadByGlobex(p);
        Api.account(p + "-dpo", "dpo", null);
        DashboardActionsTest.Browser dpo = DashboardActionsTest.signIn(p + "-dpo", p + "-dpo-password",
                "/incidents/" + id);
        String en = dpo.page("/incidents/" + id + "?lang=en");

        // what to do next: every party's open obligations, the soonest first: the 12-hour alert to acme leads
        String next = section(en, "<table class=\"incidents next\">");
        List<String> rows = rows(next);
        assertThat(rows).hasSizeGreaterThan(2);
        // held by the provider (the processor alerts its controller), sent to Acme
        String first = visibleText(rows.get(0));
        assertThat(first).contains("The provider", "Alert to the controller", "GDPR Art. 33(2)", "Acme SAS",
                "to do", "Record as done");
        // the controller's own duties are held by Acme: its notification to the CNIL
        assertThat(rows.stream().map(DutyWordsPageTest::visibleText).filter(r -> r.contains("GDPR Art. 33(1)")))
                .singleElement().asString().contains("Acme SAS", "Notification to the authority", "(CNIL)")
                .doesNotContain("The provider");
        List<String> due = new ArrayList<>();
        for (String row : rows) {
            Matcher m = Pattern.compile("datetime=\"([^\"]+)\"").matcher(row);
            if (m.find()) {
                due.add(m.group(1));
            }
        }
        assertThat(due).as("due times in order").isSortedAccordingTo(Comparator.comparing(Instant::parse));
        // its action opens the form with that obligation chosen
        Matcher action = Pattern.compile("href=\"(/incidents/[^\"]+duty=[^\"#]+)#completion\"").matcher(rows.get(0));
        assertThat(action.find()).isTrue();
        // (decoded first: the test client encodes the path it is given once more)
        String form = dpo.page(URLDecoder.decode(action.group(1).replace("&amp;", "&"), StandardCharsets.UTF_8));
        assertThat(form).contains("<option value=\"" + acme + "|gdpr-33-2|controller\" selected>");

        // customers: how each was exposed, whether the directory knows it, where its alert stands
        String customers = section(en, "<table class=\"incidents customers\">");
        String acmeRow = visibleText(rowOf(customers, acme));
        assertThat(acmeRow).contains("Acme SAS", "its data read by others", "not delivered", "Alert to the controller");
        String globexRow = rowOf(customers, globex);
        assertThat(visibleText(globexRow)).contains("not in the directory", "received others' data");
        // the DPO adds it to the directory from here
        assertThat(globexRow).contains("action=\"/incidents/" + id + "/directory\"",
                "name=\"tenant\" value=\"" + globex + "\"");

        String fr = visibleText(dpo.page("/incidents/" + id + "?lang=fr"));
        assertThat(fr).contains("À faire maintenant", "Enregistrer comme faite", "ses données lues par d'autres",
                "a reçu des données d'autres clients", "absent de l'annuaire");
        assertNoCode(fr);
    }

    /**
     * An incident where globex's request read acme's tokens. acme (Acme SAS, FR) is in the directory, to be alerted
     * within 12 hours by contract, with no channel; globex is not in the directory. Returns the incident's id.
     */
    static String acmeReadByGlobex(String p) {
        Api.admin().contentType("application/json").body("{\"legal_name\":\"Acme SAS\",\"country\":\"FR\","
                + "\"alert_delay\":\"PT12H\"}").put("/api/tenants/" + p + "-acme").then().statusCode(200);
        return Api.leakingIncident(p, p + "-acme", p + "-globex");
    }

    private static String section(String html, String start) {
        int from = html.indexOf(start);
        assertThat(from).as("the page has %s", start).isNotNegative();
        return html.substring(from, html.indexOf("</table>", from));
    }

    private static List<String> rows(String table) {
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("<tr[ >].*?</tr>", Pattern.DOTALL)
                .matcher(table.substring(table.indexOf("<tbody>")));
        while (m.find()) {
            out.add(m.group());
        }
        return out;
    }

    private static String rowOf(String table, String tenant) {
        return rows(table).stream().filter(r -> r.contains("data-tenant=\"" + tenant + "\"")).findFirst()
                .orElseThrow(() -> new AssertionError("no row for " + tenant));
    }

    private static void assertNoCode(String text) {
        Matcher rule = RULE_ID.matcher(text);
        assertThat(rule.find()).as("a rule id in the text: %s", rule.find(0) ? rule.group() : "").isFalse();
        Matcher code = DETECTOR_CODE.matcher(text);
        assertThat(code.find()).as("a detector code in the text: %s", code.find(0) ? code.group() : "").isFalse();
    }

    /** What a reader sees: no scripts, no tags (so no attributes), entities of quotes read back. */
    static String visibleText(String html) {
        return html.replaceAll("(?s)<script.*?</script>", " ").replaceAll("(?s)<style.*?</style>", " ")
                .replaceAll("<[^>]*>", " ").replace("&#39;", "'").replace("&quot;", "\"").replace("&amp;", "&")
                .replaceAll("\\s+", " ");
    }
}
