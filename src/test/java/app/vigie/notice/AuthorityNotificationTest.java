package app.vigie.notice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.test.junit.QuarkusTest;

import app.vigie.platform.Digests;
import app.vigie.testing.Api;
import app.vigie.testing.MovableClock;
import app.vigie.testing.PdfChecks;

/**
 * The controller's notification to its authority (CNIL-style draft): every document renders for a full and for a
 * minimal incident, in both languages, as HTML and as a PDF/A-3u; its JSON holds every element of Art. 33(3);
 * issued versions keep their history; a late one asks for its reasons.
 */
@QuarkusTest
class AuthorityNotificationTest {
    private static final String JSON = "application/json";
    private static final List<String> KINDS = List.of("processor-alert", "authority-notification",
            "data-subject-communication");
    /** A heading of each document's first page, as OCR must read it. */
    private static final Map<String, String> HEADINGS = Map.of(
            "processor-alert.fr", "Alerte de violation", "processor-alert.en", "breach alert",
            "authority-notification.fr", "Notification", "authority-notification.en", "Notification of a personal",
            "data-subject-communication.fr", "données personnelles", "data-subject-communication.en",
            "personal data may have been exposed");
    private final ObjectMapper json = new ObjectMapper();

    @AfterEach
    void resetClock() {
        MovableClock.INSTANCE.reset();
    }

    @Test
    void aMinimalIncidentRendersEveryDocumentWithWhatIsNotKnownSaid() throws Exception {
        String p = Api.uniquePrefix();
        String id = Api.leakingIncident(p, p + "-unmapped", p + "-other");
        String base = "/api/incidents/" + id + "/tenants/" + p + "-unmapped/documents/";
        for (String kind : KINDS) {
            for (String lang : List.of("fr", "en")) {
                String html = Api.admin().get(base + kind + ".html?lang=" + lang).then().statusCode(200).extract()
                        .asString();
                String unknown = switch (kind) {
                    case "processor-alert" -> p + "-unmapped";
                    case "authority-notification" -> lang.equals("fr") ? "ne sait pas pour l'instant" : "not known yet";
                    default -> lang.equals("fr") ? "Nous recherchons encore" : "We are still finding out";
                };
                assertThat(html).as(kind + " " + lang).contains(unknown).doesNotContain(p + "-other");
                byte[] pdf = Api.admin().get(base + kind + ".pdf?lang=" + lang).then().statusCode(200).extract()
                        .asByteArray();
                assertThat(PdfChecks.pdfa3uFailures(pdf)).as(kind + " " + lang).isEmpty();
                PdfChecks.readBack(pdf, kind + "-minimal-" + lang, HEADINGS.get(kind + "." + lang));
            }
        }
        JsonNode n = json.readTree(Api.admin().get(base + "authority-notification.json").then().statusCode(200)
                .extract().asString());
        assertThat(n.at("/dates/awareness/known").asBoolean()).isFalse();
        assertThat(n.at("/organisation/legal_name").isNull()).isTrue();
        assertThat(n.get("phase").asText()).isEqualTo("INITIAL");
        assertThat(n.get("version").isNull()).as("a preview is not a version").isTrue();
    }

    /**
     * The CNIL expects the complementary notification within 72 hours of the initial one's filing with it: counted from
     * the filing as recorded (a completion of the obligation), not from a draft issued here; nothing said before.
     */
    @Test
    void theComplementaryNotificationIsDueFromTheFilingWithTheCnil() throws Exception {
        String p = Api.uniquePrefix();
        String clinic = p + "-clinic";
        Api.admin().contentType(JSON).body("{\"legal_name\":\"Clinique du Parc SAS\",\"country\":\"FR\","
                + "\"dpo\":{\"name\":\"Zoé Lefèvre\",\"email\":\"dpo@parc.example\"}}").put("/api/tenants/" + clinic)
                .then().statusCode(200);
        String incident = "/api/incidents/" + Api.leakingIncident(p, clinic, p + "-other");
        Instant detected = Instant.parse(Api.admin().get(incident).then().extract().jsonPath()
                .getString("detected_at"));
        MovableClock.INSTANCE.set(detected.plus(Duration.ofHours(20)));
        String docs = incident + "/tenants/" + clinic + "/documents/authority-notification";
        Api.admin().post(docs + "/versions").then().statusCode(201).body("phase", equalTo("INITIAL"));
        assertThat(Api.admin().get(docs + ".html").then().statusCode(200).extract().asString())
                .doesNotContain("Notification complémentaire attendue");
        JsonNode due = json.readTree(Api.admin().get(docs + ".json").then().statusCode(200).extract().asString())
                .path("complementary_due_at");
        assertThat(due.isNull() || due.isMissingNode() || due.path("utc").isNull() || due.path("utc").isMissingNode())
                .as("no due time before the filing: " + due).isTrue();
        Instant filed = detected.plus(Duration.ofHours(10));
        Api.admin().contentType(JSON).body("{\"done_at\":\"" + filed + "\",\"evidence\":\"CNIL-2026-0077\"}")
                .post(incident + "/tenants/" + clinic + "/obligations/gdpr-33-1/supervisory_authority:FR/completions")
                .then().statusCode(201);
        assertThat(json.readTree(Api.admin().get(docs + ".json").then().statusCode(200).extract().asString())
                .at("/complementary_due_at/utc").asText()).isEqualTo(filed.plus(Duration.ofHours(72)).toString());
        assertThat(Api.admin().get(docs + ".html").then().statusCode(200).extract().asString())
                .contains("Notification complémentaire attendue", "72 heures après le dépôt de la notification initiale"
                        + " auprès de la CNIL");
    }

    /**
     * What the directory holds fills the form: a tenant recorded in the financial sector, as an insurer, gets its
     * sectors in the form's words in both languages, not "to be completed"; a sector without words is not shown as a
     * code; the controller's own statement of its sector comes first.
     */
    @Test
    void theSectorsTheDirectoryRecordsFillTheForm() throws Exception {
        String p = Api.uniquePrefix();
        String insurer = p + "-assur";
        Api.admin().contentType(JSON).body("{\"legal_name\":\"Assurances du Parc SA\",\"country\":\"FR\","
                + "\"sectors\":[\"financial\",\"insurance-undertaking\",\"retail-banking-x\"]}")
                .put("/api/tenants/" + insurer).then().statusCode(200);
        String docs = "/api/incidents/" + Api.leakingIncident(p, insurer, p + "-other") + "/tenants/" + insurer
                + "/documents/authority-notification.html?lang=";
        String fr = Api.admin().get(docs + "fr").then().statusCode(200).extract().asString();
        assertThat(fr).contains("<th>Secteur d'activité</th><td>Secteur financier, Entreprise d&#39;assurance</td>")
                .doesNotContain("retail-banking-x");
        assertThat(Api.admin().get(docs + "en").then().statusCode(200).extract().asString())
                .contains("<th>Sector of activity</th><td>Financial sector, Insurance undertaking</td>");
    }

    /**
     * The main establishment and the EU representative are fields of the directory, shown where they decide: a US
     * group with an Irish main establishment notifies the Irish authority alone (the lead, GDPR Art. 56(1)), and its
     * form says so; a US controller with only a representative (Art. 27) notifies every authority where its data
     * subjects are, and its form names the representative; both at once are refused.
     */
    @Test
    void theMainEstablishmentAndTheRepresentativeAreRecordedAndShownWhereTheyDecide() throws Exception {
        String p = Api.uniquePrefix();
        String group = p + "-group";
        Api.admin().contentType(JSON).body("{\"legal_name\":\"Acme Inc.\",\"country\":\"US\",\"main_establishment\":"
                + "\"IE\",\"jurisdictions\":[\"FR\",\"DE\"]}").put("/api/tenants/" + group).then().statusCode(200)
                .body("main_establishment", equalTo("IE"));
        String id = Api.leakingIncident(p, group, p + "-other");
        String docs = "/api/incidents/" + id + "/tenants/" + group + "/documents/authority-notification";
        JsonNode n = json.readTree(Api.admin().get(docs + ".json").then().statusCode(200).extract().asString());
        assertThat(n.get("authorities").findValuesAsText("code")).containsExactly("supervisory_authority:IE");
        assertThat(Api.admin().get(docs + ".html?lang=fr").then().statusCode(200).extract().asString())
                .contains("Établissement principal dans l'EEE (RGPD, art. 4, point 16)</th><td>Irlande (IE)");
        byte[] pdf = Api.admin().get(docs + ".pdf?lang=fr").then().statusCode(200).extract().asByteArray();
        assertThat(PdfChecks.text(pdf).replaceAll("\\s+", " ")).contains("Irlande (IE)");
        PdfChecks.render(pdf, "notification-main-establishment-fr");
        String solo = p + "-solo";
        Api.admin().contentType(JSON).body("{\"legal_name\":\"Solo LLC\",\"country\":\"US\",\"eu_representative\":"
                + "\"FR\",\"jurisdictions\":[\"FR\",\"DE\"]}").put("/api/tenants/" + solo).then().statusCode(200);
        String soloDocs = "/api/incidents/" + Api.leakingIncident(p + "s", solo, p + "-other2") + "/tenants/" + solo
                + "/documents/authority-notification";
        JsonNode m = json.readTree(Api.admin().get(soloDocs + ".json").then().statusCode(200).extract().asString());
        assertThat(m.get("authorities").findValuesAsText("code")).containsExactlyInAnyOrder(
                "supervisory_authority:FR", "supervisory_authority:DE");
        assertThat(Api.admin().get(soloDocs + ".html?lang=en").then().statusCode(200).extract().asString())
                .contains("Representative in the Union (GDPR Art. 27)</th><td>France (FR)");
        Api.admin().contentType(JSON).body("{\"legal_name\":\"Both LLC\",\"country\":\"US\",\"eu_representative\":"
                + "\"FR\",\"main_establishment\":\"IE\"}").put("/api/tenants/" + p + "-both").then().statusCode(400)
                .body("detail", containsString("not both"));
    }

    @Test
    void aFullIncidentIsNotifiedInVersionsThatKeepTheirHistoryAndALateOneGivesItsReasons() throws Exception {
        String p = Api.uniquePrefix();
        String clinic = p + "-clinic";
        Api.admin().contentType(JSON).body("{\"legal_name\":\"Clinique Sainte-Anne SAS\",\"country\":\"FR\","
                + "\"company_id\":\"775 664 887\",\"dpo\":{\"name\":\"Zoé Lefèvre\",\"email\":\"dpo@clinique.example\","
                + "\"phone\":\"+33 1 23 45 67 89\"}}").put("/api/tenants/" + clinic).then().statusCode(200);
        String id = Api.leakingIncident(p, clinic, p + "-other");
        String incident = "/api/incidents/" + id;
        Instant detected = Instant.parse(Api.admin().get(incident).then().extract().jsonPath()
                .getString("detected_at"));
        Instant aware = detected.plus(Duration.ofHours(2));
        MovableClock.INSTANCE.set(aware.plus(Duration.ofHours(1)));
        Api.admin().contentType(JSON).body("{\"aware_at\":\"" + aware + "\",\"evidence\":\"e-mail acknowledged\"}")
                .put(incident + "/tenants/" + clinic + "/awareness").then().statusCode(200);
        Api.admin().contentType(JSON).body("{\"inputs\":{\"category\":\"sensitive\",\"adjustment\":0,\"ei\":"
                + "\"maximum\",\"confidentiality\":\"unknown_recipients\",\"integrity\":\"none\",\"availability\":"
                + "\"none\"}}").put(incident + "/tenants/" + clinic + "/severity").then().statusCode(200);
        Api.admin().contentType(JSON).body("{\"text\":\"Cache KV vidé entre requêtes ; coût 3 400 €\"}")
                .post(incident + "/measures").then().statusCode(201);

        String statements = incident + "/tenants/" + clinic + "/statements";
        Api.admin().contentType(JSON).body("{\"special_categories\":[\"astrology\"],\"approximate_persons\":-1,"
                + "\"persons_informed\":\"NOT\"}").put(statements).then().statusCode(400)
                .body("detail", containsString("'special_categories' entries are"))
                .body("detail", containsString("'approximate_persons' is 0 or more"))
                .body("detail", containsString("'persons_not_informed_reason' is required"));
        Api.admin().contentType(JSON).body("{\"special_categories\":[null],\"data_categories\":[null]}").put(statements)
                .then().statusCode(400).body("detail", containsString("no null entry"));
        Api.admin().contentType(JSON).body("{\"data_categories\":[\"identité\",\"comptes rendus médicaux\"],"
                + "\"special_categories\":[\"health\"],\"approximate_records\":120,\"person_categories\":"
                + "[\"patients\"],\"approximate_persons\":40,\"likely_consequences\":\"Divulgation d'informations "
                + "de santé à un tiers\",\"security_measures_before\":\"Chiffrement au repos\","
                + "\"measures_proposed\":\"Audit du sous-traitant\",\"persons_informed\":\"PLANNED\","
                + "\"persons_informed_at\":\"2026-12-20T10:00:00+01:00\"}").put(statements).then().statusCode(200)
                .body("special_categories[0]", equalTo("health"));

        String docs = incident + "/tenants/" + clinic + "/documents/authority-notification";
        JsonNode draft = json.readTree(Api.admin().get(docs + ".json").then().statusCode(200).extract().asString());
        // GDPR Art. 33(3): (a) nature, categories and approximate numbers of persons and records; (b) the DPO;
        // (c) likely consequences; (d) measures taken or proposed
        assertThat(draft.at("/nature/confidentiality").asBoolean()).isTrue();
        assertThat(draft.at("/data/special_categories/0").asText()).isEqualTo("health");
        assertThat(draft.at("/data/approximate_records").asLong()).isEqualTo(120);
        assertThat(draft.at("/persons/categories/0").asText()).isEqualTo("patients");
        assertThat(draft.at("/persons/approximate_number").asLong()).isEqualTo(40);
        assertThat(draft.at("/dpo/name").asText()).isEqualTo("Zoé Lefèvre");
        assertThat(draft.at("/dpo/email").asText()).isEqualTo("dpo@clinique.example");
        assertThat(draft.at("/likely_consequences").asText()).contains("santé");
        assertThat(draft.at("/measures_taken/0/text").asText()).contains("3 400 €");
        assertThat(draft.at("/measures_proposed").asText()).isEqualTo("Audit du sous-traitant");
        assertThat(draft.at("/authorities/0/code").asText()).isEqualTo("supervisory_authority:FR");
        assertThat(draft.at("/severity/level").asText()).isEqualTo("VERY_HIGH");
        assertThat(draft.at("/delay/late").asBoolean()).isFalse();

        String fr = Api.admin().get(docs + ".html").then().statusCode(200).extract().asString();
        assertThat(fr).contains("Notification <strong>initiale</strong>", "Clinique Sainte-Anne SAS", "Zoé Lefèvre",
                "santé", "<strong>oui</strong> — Perte de confidentialité", "inconnu à ce stade — Perte d'intégrité",
                "suggestion de la méthode ENISA (score 4.5)", "très élevée", "prévue").doesNotContain("16. Motifs");

        String v1 = Api.admin().post(docs + "/versions").then().statusCode(201).body("version", equalTo(1))
                .body("phase", equalTo("INITIAL")).extract().jsonPath().getString("sha256");

        String v1Json = Api.admin().get(docs + "/versions/1.json").then().statusCode(200).extract().asString();

        // four days later, more is known: the complementary version, late, with its reasons
        MovableClock.INSTANCE.set(aware.plus(Duration.ofDays(4)));
        Api.admin().contentType(JSON).body("{\"data_categories\":[\"identité\"],\"special_categories\":[\"health\"],"
                + "\"approximate_persons\":55,\"persons_informed\":\"DONE\",\"persons_informed_at\":\""
                + aware.plus(Duration.ofDays(3)) + "\",\"delay_reasons\":\"Périmètre établi avec le sous-traitant\"}")
                .put(statements).then().statusCode(200);
        Api.admin().post(docs + "/versions").then().statusCode(201).body("version", equalTo(2))
                .body("phase", equalTo("COMPLEMENTARY"));
        JsonNode v2 = json.readTree(Api.admin().get(docs + "/versions/2.json").then().statusCode(200).extract()
                .asString());
        assertThat(v2.at("/history/0/version").asInt()).isEqualTo(1);
        assertThat(v2.at("/persons/approximate_number").asLong()).isEqualTo(55);
        assertThat(v2.at("/delay/late").asBoolean()).isTrue();
        assertThat(v2.at("/delay/reasons").asText()).contains("Périmètre");
        assertThat(Api.admin().get(docs + "/versions/1.json").then().extract().asString())
                .as("an issued version does not change").isEqualTo(v1Json);
        List<String> shas = Api.admin().get(docs + "/versions").then().statusCode(200).extract().jsonPath()
                .getList("sha256");
        String v2Json = Api.admin().get(docs + "/versions/2.json").then().extract().asString();
        assertThat(shas).containsExactly(v1, Digests.sha256Hex(v2Json));
        assertThat(Digests.sha256Hex(v1Json)).isEqualTo(v1);

        String html2 = Api.admin().get(docs + "/versions/2.html").then().statusCode(200).extract().asString();
        assertThat(html2).contains("Notification <strong>complémentaire</strong>", "n° 1 (initiale",
                "16. Motifs du retard", "Périmètre établi");
        byte[] pdf = Api.admin().get(docs + "/versions/2.pdf").then().statusCode(200).extract().asByteArray();
        assertThat(PdfChecks.pdfa3uFailures(pdf)).isEmpty();
        assertThat(PdfChecks.text(pdf)).contains("Zoé Lefèvre", "Clinique Sainte-Anne SAS", "complémentaire");
        PdfChecks.readBack(pdf, "authority-notification-fr-v2", "Clinique Sainte-Anne SAS", "complémentaire");
        Api.admin().get(docs + "/versions/3.pdf").then().statusCode(404);
        Api.admin().get(docs + "/versions/x.pdf").then().statusCode(404);

        String persons = Api.admin().get(incident + "/tenants/" + clinic + "/documents/data-subject-communication"
                + ".html").then().statusCode(200).extract().asString();
        assertThat(persons).contains("Vos données personnelles ont peut-être été exposées", "Clinique Sainte-Anne SAS",
                "santé", "Zoé Lefèvre", "libertés (CNIL)", "hameçonnage")
                .doesNotContain(p + "-other");
        byte[] personsPdf = Api.admin().get(incident + "/tenants/" + clinic
                + "/documents/data-subject-communication.pdf").then().statusCode(200).extract().asByteArray();
        assertThat(PdfChecks.pdfa3uFailures(personsPdf)).isEmpty();
        PdfChecks.readBack(personsPdf, "data-subject-communication-fr", "données personnelles",
                "Clinique Sainte-Anne SAS");

        Api.account("auditor7", "auditor", null);
        Api.as("auditor7", "auditor7-password").post(docs + "/versions").then().statusCode(403);
        Api.as("auditor7", "auditor7-password").get(docs + "/versions/1.pdf").then().statusCode(200);
    }
}
