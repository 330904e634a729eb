package app.vigie.notice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.itextpdf.kernel.pdf.PdfArray;
import com.itextpdf.kernel.pdf.PdfDictionary;
import com.itextpdf.kernel.pdf.PdfDocument;
import com.itextpdf.kernel.pdf.PdfName;
import com.itextpdf.kernel.pdf.PdfReader;
import com.itextpdf.kernel.pdf.PdfStream;

import io.quarkus.test.junit.QuarkusTest;

import app.vigie.testing.Api;
import app.vigie.testing.MovableClock;
import app.vigie.testing.PdfChecks;

/**
 * The processor's alert to a controller: its JSON, its page in French and English, its PDF/A-3u (veraPDF), with its
 * JSON inside, rendered to PNG and read back; other customers are never named.
 */
@QuarkusTest
class ProcessorAlertTest {
    private static final String JSON = "application/json";
    private final ObjectMapper json = new ObjectMapper();

    @AfterEach
    void resetClock() {
        MovableClock.INSTANCE.reset();
    }

    @Test
    void theAlertSaysWhatHappenedToTheControllersOwnRequestsInBothLanguagesAndAsACheckedPdf() throws Exception {
        String p = Api.uniquePrefix();
        String victim = p + "-credit";
        String reader = p + "-intruder";
        Api.admin().contentType(JSON).body("{\"legal_name\":\"Crédit Léger & Fils SA\",\"country\":\"FR\","
                + "\"company_id\":\"552 120 222\",\"dpo\":{\"name\":\"Hélène Dupré\",\"email\":\"dpo@credit.example\"},"
                + "\"alert_delay\":\"PT12H\"}").put("/api/tenants/" + victim).then().statusCode(200);
        String id = Api.leakingIncident(p, victim, reader);
        Api.admin().contentType(JSON).body("{\"text\":\"Pool KV redimensionné ; coût estimé 1 200 € ; requêtes trop "
                + "longues désormais interrompues\",\"taken_at\":\"2026-08-27T13:00:00+02:00\"}")
                .post("/api/incidents/" + id + "/measures").then().statusCode(201);
        MovableClock.INSTANCE.set(Instant.parse("2026-10-25T00:30:00Z"));  // 02:30 CEST, the night Paris changes time
        String base = "/api/incidents/" + id + "/tenants/" + victim + "/documents/processor-alert";

        JsonNode data = json.readTree(Api.admin().get(base + ".json").then().statusCode(200).extract().asString());
        assertThat(data.get("language").asText()).isEqualTo("fr");  // a French controller, by default
        assertThat(data.at("/totals/exposed_tokens").asLong()).isEqualTo(8);
        assertThat(data.at("/exposed/0/other_requests").asInt()).isEqualTo(1);
        assertThat(data.at("/exposed/0/delivered").asInt()).isEqualTo(1);
        assertThat(data.at("/incident/first_exposure_at/local").asText()).startsWith("27 août 2026 à 11:00 (")
                .endsWith(", UTC+02:00)");
        assertThat(data.at("/incident/first_exposure_at/utc").asText()).isEqualTo("2026-08-27T09:00:00Z");
        assertThat(data.at("/generated_at/local").asText()).startsWith("25 octobre 2026 à 02:30").contains("UTC+02:00");
        assertThat(data.at("/duties").findValuesAsText("rule")).contains("gdpr-33-1", "gdpr-34", "gdpr-33-5");

        String fr = Api.admin().get(base + ".html").then().statusCode(200).contentType(containsString("text/html"))
                .extract().asString();
        assertThat(fr).contains("Alerte de violation de données à caractère personnel", "Crédit Léger &amp; Fils SA",
                "Hélène Dupré", "1 200 €", "article 33, paragraphe 2", "les personnes concernées")
                .doesNotContain("the persons concerned");
        String en = Api.admin().get(base + ".html?lang=en&zone=America/New_York").then().statusCode(200).extract()
                .asString();
        assertThat(en).contains("Personal data breach alert", "27 August 2026, 05:00 (").contains("UTC-04:00)");
        for (String page : new String[] {fr, en, data.toString()}) {
            assertThat(page).as("another customer is never named").doesNotContain(reader).doesNotContain(p + "b");
        }

        byte[] pdf = Api.admin().get(base + ".pdf").then().statusCode(200).contentType("application/pdf").extract()
                .asByteArray();
        assertThat(PdfChecks.pdfa3uFailures(pdf)).isEmpty();
        try (PdfDocument doc = new PdfDocument(new PdfReader(new ByteArrayInputStream(pdf)))) {
            assertThat(doc.getDocumentInfo().getTitle()).as("the PDF's title: the document's kind, then the controller")
                    .isEqualTo("Alerte du sous-traitant – violation de données – Crédit Léger & Fils SA");
            PdfArray af = doc.getCatalog().getPdfObject().getAsArray(PdfName.AF);
            assertThat(af).as("the JSON is an associated file").isNotNull();
            PdfDictionary spec = af.getAsDictionary(0);
            assertThat(spec.getAsName(PdfName.AFRelationship)).isEqualTo(PdfName.Data);
            PdfStream file = spec.getAsDictionary(PdfName.EF).getAsStream(PdfName.F);
            JsonNode inside = json.readTree(new String(file.getBytes(), StandardCharsets.UTF_8));
            assertThat(inside).isEqualTo(data);
        }
        Path png = PdfChecks.render(pdf, "processor-alert-fr");
        String text = PdfChecks.text(pdf);
        assertThat(text).contains("Alerte de violation de données à caractère personnel", "Crédit Léger & Fils SA", "200 €",
                "27 août 2026 à 11:00");
        String seen = PdfChecks.ocr(png);
        assertThat(seen).contains("Alerte de violation").contains("Crédit Léger");
    }

    /**
     * The alert says the controller's 72 hours run only while its notification is required: not once it has recorded
     * that the breach is unlikely to result in a risk (GDPR Art. 33(1)'s exception), in either language.
     */
    @Test
    void the72HoursAreNotSaidToRunOnceTheNotificationIsNotRequired() throws Exception {
        String p = Api.uniquePrefix();
        String victim = frenchController(p + "-credit", "Crédit Léger SA");
        String id = Api.leakingIncident(p, victim, p + "-intruder");
        String base = "/api/incidents/" + id + "/tenants/" + victim + "/documents/processor-alert.html";
        assertThat(Api.admin().get(base + "?lang=fr").then().statusCode(200).extract().asString())
                .contains("Votre délai de 72 heures pour notifier l'autorité de contrôle court");
        Api.admin().contentType(JSON).body("{\"value\":true,\"justification\":\"jetons de prompts de test\"}")
                .put("/api/incidents/" + id + "/tenants/" + victim + "/decisions/unlikely_risk").then().statusCode(200);
        assertThat(Api.admin().get(base + "?lang=fr").then().statusCode(200).extract().asString())
                .doesNotContain("Votre délai de 72 heures");
        assertThat(Api.admin().get(base + "?lang=en").then().statusCode(200).extract().asString())
                .doesNotContain("Your 72 hours");
    }

    /** Puts {@code tenant} in the directory as a French controller named {@code legalName}; returns the tenant. */
    private static String frenchController(String tenant, String legalName) {
        return Api.controller(tenant, legalName, "FR");
    }

    /**
     * The letter to the persons concerned says whose responses carried their data, as recorded: other customers' of
     * the provider, or only the controller's own other requests (an intra-tenant read), in both languages.
     */
    @Test
    void theLetterToThePersonsSaysWhoseResponsesCarriedTheirData() throws Exception {
        String p = Api.uniquePrefix();
        String victim = frenchController(p + "-clinic", "Clinique Sainte-Anne SAS");
        String cross = Api.leakingIncident(p + "x", victim, p + "-intruder");
        String own = Api.leakingIncident(p + "o", victim, victim);
        String doc = "/tenants/" + victim + "/documents/data-subject-communication.html?lang=";
        String crossFr = Api.admin().get("/api/incidents/" + cross + doc + "fr").then().statusCode(200).extract()
                .asString().replaceAll("\\s+", " ");
        assertThat(crossFr).contains("dans les réponses faites à d'autres clients du prestataire. Certains")
                .doesNotContain("d'autres demandes que");
        String ownFr = Api.admin().get("/api/incidents/" + own + doc + "fr").then().statusCode(200).extract()
                .asString().replaceAll("\\s+", " ");
        assertThat(ownFr).contains("dans les réponses faites à d'autres demandes que Clinique Sainte-Anne SAS avait"
                + " adressées à ce service. Certains").doesNotContain("autres clients");
        String ownEn = Api.admin().get("/api/incidents/" + own + doc + "en").then().statusCode(200).extract()
                .asString().replaceAll("\\s+", " ");
        assertThat(ownEn).contains("in the answers given to other requests that Clinique Sainte-Anne SAS had sent to"
                + " that service. Some").doesNotContain("other customers");
    }

    /**
     * The letter names the authority responsible for the controller (its establishment's: the lead authority, GDPR
     * Art. 56(1)), in words a person can use (not the BDSG paragraphs written for a German controller), and says
     * the person may also complain where they live or work (Art. 77(1)); a controller established outside the EEA
     * has no lead authority: only the person's own is named.
     */
    @Test
    void theLetterNamesTheControllersAuthorityAndWherePersonsMayAlsoComplain() throws Exception {
        String p = Api.uniquePrefix();
        String fr = frenchController(p + "-fr", "Clinique Sainte-Anne SAS");
        String de = controller(p + "-de", "Klinik Nord GmbH", "DE", "[\"DE\"]");
        String us = controller(p + "-us", "Acme Health Inc.", "US", "[\"FR\", \"DE\"]");
        String doc = "/documents/data-subject-communication.html?lang=";
        String frFr = letter(Api.leakingIncident(p + "f", fr, p + "-x1"), fr, doc + "fr");
        assertThat(frFr).contains("à une autorité de protection des données, notamment celle de l'État membre où "
                + "vous résidez habituellement, où vous travaillez ou où la violation aurait été commise (RGPD, art. "
                + "77), ou à l'autorité dont relève Clinique Sainte-Anne SAS : Commission nationale de "
                + "l'informatique et des libertés (CNIL)");
        String deId = Api.leakingIncident(p + "d", de, p + "-x2");
        String deFr = letter(deId, de, doc + "fr");
        assertThat(deFr).contains("ou à l'autorité dont relève Klinik Nord GmbH : l'autorité de protection des "
                + "données du Land allemand où le responsable du traitement a son établissement principal")
                .doesNotContain("BDSG");
        assertThat(letter(deId, de, doc + "en")).contains("to a data protection authority, in particular that of "
                + "the Member State where you usually live, where you work or where the alleged infringement took "
                + "place (GDPR Art. 77), or to the authority responsible for Klinik Nord GmbH: the data protection "
                + "authority of the German Land").doesNotContain("BDSG");
        for (String lang : List.of("fr", "en")) {
            byte[] pdf = Api.admin().get("/api/incidents/" + deId + "/tenants/" + de
                    + "/documents/data-subject-communication.pdf?lang=" + lang).then().statusCode(200).extract()
                    .asByteArray();
            assertThat(PdfChecks.text(pdf).replaceAll("\\s+", " ")).as(lang).contains(lang.equals("fr")
                    ? "RGPD, art. 77" : "GDPR Art. 77").doesNotContain("BDSG");
            PdfChecks.render(pdf, "letter-complaint-" + lang);
        }
        // a UK controller with data subjects in France: the GDPR's sentence, and the ICO under its own
        String uk = controller(p + "-uk", "Brit Health Ltd", "GB", "[\"GB\", \"FR\"]");
        String ukFr = letter(Api.leakingIncident(p + "k", uk, p + "-x4"), uk, doc + "fr");
        assertThat(ukFr).contains("(RGPD, art. 77).</li>").doesNotContain("(RGPD, art. 77), ou à")
                .contains("Vous pouvez aussi adresser une réclamation à l'autorité dont relève Brit Health Ltd : "
                        + "Bureau du commissaire à l'information du Royaume-Uni (ICO).");
        String usFr = letter(Api.leakingIncident(p + "u", us, p + "-x3"), us, doc + "fr");
        assertThat(usFr).contains("où vous résidez habituellement, où vous travaillez ou où la violation aurait été "
                + "commise (RGPD, art. 77).").doesNotContain("dont relève").doesNotContain("Land de l'établissement");
    }

    private static String letter(String incident, String tenant, String doc) {
        return Api.admin().get("/api/incidents/" + incident + "/tenants/" + tenant + doc).then().statusCode(200)
                .extract().asString().replaceAll("\\s+", " ").replace("&#39;", "'");
    }

    /** Puts {@code tenant} in the directory: its country and the countries of its data subjects (a JSON list). */
    private static String controller(String tenant, String legalName, String country, String jurisdictions) {
        Api.admin().contentType(JSON).body("{\"legal_name\":\"" + legalName + "\",\"country\":\"" + country
                + "\",\"jurisdictions\":" + jurisdictions + "}").put("/api/tenants/" + tenant).then().statusCode(200);
        return tenant;
    }

    /**
     * A controller with more requests exposed than a page lists: the body shows a summary and the first lines, Annex A
     * lists every request on pages of their own (numbered with the body's), the CSV attached to the PDF has every one,
     * the page (HTML) has the annex too; PDF/A-3u in both languages, the French one without English.
     */
    @Test
    void aLongListGoesToAnAnnexAndAnAttachedCsvAndThePdfStaysValid() throws Exception {
        String p = Api.uniquePrefix();
        String victim = p + "-bank";
        int n = ProcessorAlert.ANNEX_OVER + 30;
        String id = Api.leakingIncident(p, victim, p + "-reader", n);
        String base = "/api/incidents/" + id + "/tenants/" + victim + "/documents/processor-alert";
        List<String> requests = IntStream.range(0, n).mapToObj(i -> p + "a" + i).toList();

        String html = Api.admin().get(base + ".html?lang=en").then().statusCode(200).extract().asString();
        String body = html.substring(0, html.indexOf("<section class=\"annex\""));
        String annex = html.substring(html.indexOf("<section class=\"annex\""));
        assertThat(body).contains("In summary", "All of them are listed in Annex A", "first 20 of your " + n);
        assertThat(requests.stream().filter(r -> body.contains(">" + r + "<")).count()).as("the body's lines")
                .isEqualTo(ProcessorAlert.SHOWN);
        assertThat(requests).allSatisfy(r -> assertThat(annex).contains("<td>" + r + "</td>"));
        assertThat(annex).contains("Annex A – your requests whose data was exposed", "<th>Tokens exposed</th>",
                "<th>First exposure (Europe/Paris time)</th>", "<td>2026-08-27 11:00:00 +02:00</td>");

        for (String lang : List.of("en", "fr")) {
            byte[] pdf = Api.admin().get(base + ".pdf?lang=" + lang).then().statusCode(200).extract().asByteArray();
            PdfChecks.render(pdf, "processor-alert-annexed-" + lang);
            assertThat(PdfChecks.pdfa3uFailures(pdf)).as(lang).isEmpty();
            String text = PdfChecks.text(pdf);
            assertThat(requests).allSatisfy(r -> assertThat(text).contains(r));
            int pages;
            try (PdfDocument doc = new PdfDocument(new PdfReader(new ByteArrayInputStream(pdf)))) {
                pages = doc.getNumberOfPages();
                PdfArray af = doc.getCatalog().getPdfObject().getAsArray(PdfName.AF);
                assertThat(af.size()).as("the JSON and the CSV").isEqualTo(2);
                PdfDictionary spec = af.getAsDictionary(1);
                assertThat(spec.getAsString(PdfName.UF).toUnicodeString()).isEqualTo(ProcessorAlertAnnexes.CSV);
                assertThat(spec.getAsName(PdfName.AFRelationship)).isEqualTo(PdfName.Data);
                // every attachment described in the document's language
                assertThat(List.of(af.getAsDictionary(0), spec)).extracting(d -> d.getAsString(PdfName.Desc)
                        .toUnicodeString()).containsExactly(lang.equals("fr")
                                ? new String[] {"Les données du document (JSON)",
                                    "Les requêtes listées dans les annexes, pour un tableur (CSV)"}
                                : new String[] {"The document's data (JSON)",
                                    "The requests listed in the annexes, for a spreadsheet (CSV)"});
                List<String> csv = new String(spec.getAsDictionary(PdfName.EF).getAsStream(PdfName.F).getBytes(),
                        StandardCharsets.UTF_8).lines().toList();
                assertThat(csv).hasSize(n + 1);
                assertThat(csv.get(0)).isEqualTo("list,request,tokens,first_seen_at,other_requests,same_tenant,"
                        + "delivered,undetermined");
                assertThat(csv.get(1)).isEqualTo("exposed," + p + "a0,8,2026-08-27T09:00:00Z,1,false,1,0");
                assertThat(csv.get(n)).startsWith("exposed," + p + "a" + (n - 1) + ",8,2026-08-27T09:01:");
            }
            assertThat(pages).as("an annex of " + n + " lines after the body").isGreaterThan(2);
            assertThat(text).as("every page numbered, the annex's too").containsPattern(pages + "\\s*/\\s*" + pages)
                    .containsPattern("\\b1\\s*/\\s*" + pages);
            if (lang.equals("fr")) {
                assertThat(text).contains("Annexe A – vos requêtes dont les données ont été exposées", "En résumé")
                        .doesNotContain("Annex A", "Tokens exposed", "First exposure", "Read by");
            } else {
                assertThat(text).contains("Annex A – your requests whose data was exposed", "In summary");
            }
        }
        // a short list stays whole in the body: no annex, no CSV
        String small = Api.leakingIncident(p + "s", p + "-small", p + "-reader");
        byte[] pdf = Api.admin().get("/api/incidents/" + small + "/tenants/" + p + "-small/documents/"
                + "processor-alert.pdf?lang=en").then().statusCode(200).extract().asByteArray();
        assertThat(PdfChecks.text(pdf)).doesNotContain("Annex", "In summary");
        try (PdfDocument doc = new PdfDocument(new PdfReader(new ByteArrayInputStream(pdf)))) {
            assertThat(doc.getCatalog().getPdfObject().getAsArray(PdfName.AF).size()).isEqualTo(1);
        }
    }

    /**
     * A reader with no FINISH yet: its response may or may not have left the service. The alert says it is not known
     * yet, in both languages, never "no" (page-audit-log.md, "Clarifications": unknown delivery is null).
     */
    @Test
    void aResponseWithoutFinishIsNotKnownYetNotUndelivered() throws Exception {
        String p = Api.uniquePrefix();
        String victim = p + "-v";
        String reader = p + "-r";
        String id = Api.leakingIncident(p, victim, reader, false);
        String base = "/api/incidents/" + id + "/tenants/" + reader + "/documents/processor-alert";
        JsonNode data = json.readTree(Api.admin().get(base + ".json").then().statusCode(200).extract().asString());
        assertThat(data.at("/received/0/delivered").asInt()).isZero();
        assertThat(data.at("/received/0/undetermined").asInt()).isEqualTo(1);
        assertThat(data.at("/totals/responses_undetermined").asInt()).isEqualTo(1);
        String en = Api.admin().get(base + ".html?lang=en").then().statusCode(200).extract().asString();
        assertThat(en).contains("not known yet (the response has not finished)", "for 1 it is not known yet")
                .doesNotContain("<td>no</td>");
        String fr = Api.admin().get(base + ".html?lang=fr").then().statusCode(200).extract().asString();
        assertThat(fr).contains("pas encore connu (la réponse n'est pas terminée)")
                .doesNotContain("<td>non</td>");
        String victimView = Api.admin().get("/api/incidents/" + id + "/tenants/" + victim
                + "/documents/processor-alert.html?lang=en").then().statusCode(200).extract().asString();
        assertThat(victimView).contains("0 (1 not known yet)");
    }

    @Test
    void unknownDocumentsLanguagesZonesAndTenantsAreRefusedClearly() {
        String p = Api.uniquePrefix();
        String id = Api.leakingIncident(p, p + "-a", p + "-b");
        String base = "/api/incidents/" + id + "/tenants/" + p + "-a/documents/";
        Api.admin().get(base + "processor-alert.docx").then().statusCode(404).contentType("application/problem+json");
        Api.admin().get(base + "processor-alert.html?lang=de").then().statusCode(400)
                .body("detail", containsString("fr or en"));
        Api.admin().get(base + "processor-alert.html?zone=Paris").then().statusCode(400);
        Api.admin().get("/api/incidents/" + id + "/tenants/nobody/documents/processor-alert.json").then()
                .statusCode(404);
        // an unmapped controller still gets its alert, in English, its tenant name standing for it
        Api.admin().get(base + "processor-alert.html").then().statusCode(200)
                .body(containsString("Personal data breach alert")).body(containsString(p + "-a"));
    }
}
