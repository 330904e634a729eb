package app.vigie.pack;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.test.junit.QuarkusTest;

import app.vigie.testing.Api;
import app.vigie.testing.PdfChecks;
import app.vigie.web.DashboardActionsTest;

/**
 * The regulator pack: every file the manifest lists is in the ZIP with the size and SHA-256 it gives, and nothing
 * else; the whole incident's pack holds the report, each controller's documents (the issued notification too), the
 * register entries, every finding and exposure; a controller's pack on its portal holds its own only, another
 * customer's requests not named.
 */
@QuarkusTest
class RegulatorPackTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theIncidentsPackHoldsWhatItsManifestListsAndTheManifestTellsTheTruth() throws Exception {
        String p = Api.uniquePrefix();
        String acme = p + "-acme";
        String globex = p + "-globex";
        Api.admin().contentType("application/json").body("{\"legal_name\":\"Acme SAS\",\"country\":\"FR\"}")
                .put("/api/tenants/" + acme).then().statusCode(200);
        String id = Api.leakingIncident(p, acme, globex);
        String register = Api.admin().contentType("application/json").body("{\"incident_id\":\"" + id
                + "\",\"tenant\":\"" + acme + "\"}").post("/api/register").then().statusCode(201).extract()
                .path("hash");
        Api.admin().post("/api/incidents/" + id + "/tenants/" + acme
                + "/documents/authority-notification/versions?lang=fr").then().statusCode(201);

        var answer = Api.admin().get("/api/incidents/" + id + "/regulator-pack.zip?lang=fr").then().statusCode(200)
                .contentType("application/zip").extract();
        assertThat(answer.header("Content-Disposition")).contains("regulator-pack-" + id.substring(0, 8) + "-fr.zip");
        Map<String, byte[]> files = unzip(answer.asByteArray());
        JsonNode manifest = checkedManifest(files);
        assertThat(manifest.get("format").asText()).isEqualTo(RegulatorPackService.FORMAT);
        assertThat(manifest.get("incident_id").asText()).isEqualTo(id);
        assertThat(manifest.get("language").asText()).isEqualTo("fr");
        assertThat(manifest.get("generated_by").asText()).isEqualTo("admin");
        assertThat(manifest.get("title").asText()).isEqualTo("Dossier du sous-traitant pour l'autorité de contrôle, "
                + "relatif à une violation de données à caractère personnel");
        assertThat(files.keySet()).contains("incident-report.pdf", "incident-report.json",
                "controllers/tenant-" + acme + "/processor-alert.pdf",
                "controllers/tenant-" + acme + "/authority-notification.pdf",
                "controllers/tenant-" + acme + "/data-subject-communication.pdf",
                "controllers/tenant-" + acme + "/authority-notification-v1.pdf",
                "controllers/tenant-" + globex + "/processor-alert.pdf", "register/entries.json",
                "register/entries.csv",
                "alerts.csv", "findings.csv", "findings.json", "exposures.csv", "exposures.json");
        // each file about one customer names it
        for (JsonNode f : manifest.get("files")) {
            String name = f.get("name").asText();
            assertThat(f.get("tenant").isNull() ? null : f.get("tenant").asText()).as(name)
                    .isEqualTo(name.startsWith("controllers/tenant-" + acme + "/") ? acme
                            : name.startsWith("controllers/tenant-" + globex + "/") ? globex : null);
        }
        // every alert, one row per delivery or one for an alert without a channel
        assertThat(new String(files.get("alerts.csv"), StandardCharsets.UTF_8)).contains("," + acme + ",INITIAL,",
                "," + globex + ",INITIAL,");
        // every description in the pack's language: the words of templates/notices/words.yaml, no English
        for (JsonNode f : manifest.get("files")) {
            assertThat(f.get("description").asText()).as(f.get("name").asText()).isNotBlank()
                    .doesNotStartWith("The ").doesNotContain("pack.");
        }

        // the data: the API's findings and exposures, each one once
        int findings = JSON.readTree(Api.all("/api/incidents/" + id + "/findings")).size();
        int exposures = JSON.readTree(Api.all("/api/incidents/" + id + "/exposures")).size();
        assertThat(findings).isPositive();
        assertThat(JSON.readTree(files.get("findings.json")).size()).isEqualTo(findings);
        assertThat(lines(files.get("findings.csv"))).hasSize(findings + 1);
        assertThat(JSON.readTree(files.get("exposures.json")).size()).isEqualTo(exposures);
        assertThat(lines(files.get("exposures.csv"))).hasSize(exposures + 1);
        assertThat(new String(files.get("exposures.csv"), StandardCharsets.UTF_8)).contains(acme + "," + p + "a,"
                + globex + "," + p + "b");
        JsonNode entries = JSON.readTree(files.get("register/entries.json"));
        assertThat(entries.get("chain").get("valid").asBoolean()).isTrue();
        assertThat(entries.get("entries")).hasSize(1);
        assertThat(entries.get("entries").get(0).get("hash").asText()).isEqualTo(register);
        assertThat(new String(files.get("register/entries.csv"), StandardCharsets.UTF_8)).contains(register);
        assertThat(PdfChecks.pdfa3uFailures(files.get("incident-report.pdf"))).isEmpty();
        assertThat(PdfChecks.text(files.get("controllers/tenant-" + acme + "/processor-alert.pdf")))
                .contains("Acme SAS")
                .contains("Alerte");

        // asked of an incident that does not exist, or for a tenant it does not affect: 404, no ZIP begun
        Api.admin().get("/api/incidents/00000000-0000-4000-8000-000000000000/regulator-pack.zip").then()
                .statusCode(404).contentType("application/problem+json");
        Api.admin().get("/api/incidents/" + id + "/tenants/" + p + "-initech/regulator-pack.zip").then()
                .statusCode(404);
        Api.admin().get("/api/incidents/" + id + "/regulator-pack.zip?lang=de").then().statusCode(400);
    }

    @Test
    void aControllersPackOnItsPortalHoldsItsOwnAndNamesNoOtherCustomer() throws Exception {
        String p = Api.uniquePrefix();
        String acme = p + "-acme";
        String globex = p + "-globex";
        String id = Api.leakingIncident(p, acme, globex);
        String other = Api.leakingIncident(p + "x", p + "x-initech", p + "x-umbrella");
        Api.admin().contentType("application/json").body("{\"incident_id\":\"" + id + "\",\"tenant\":\"" + globex
                + "\"}").post("/api/register").then().statusCode(201);
        String acmeHash = Api.admin().contentType("application/json").body("{\"incident_id\":\"" + id
                + "\",\"tenant\":\"" + acme + "\"}").post("/api/register").then().statusCode(201).extract().path("hash");
        Api.account(p + "-acme-user", "customer", acme);
        DashboardActionsTest.Browser a = DashboardActionsTest.signIn(p + "-acme-user", p + "-acme-user-password",
                "/portal");
        assertThat(a.page("/portal/incidents/" + id + "?lang=en")).contains("regulator-pack.zip");
        byte[] zip = given().cookies(a.cookies()).get("/portal/incidents/" + id + "/regulator-pack.zip?lang=en")
                .then().statusCode(200).contentType("application/zip").extract().asByteArray();
        Map<String, byte[]> files = unzip(zip);
        JsonNode manifest = checkedManifest(files);
        assertThat(manifest.get("controller").asText()).isEqualTo(acme);
        assertThat(files.keySet()).containsExactlyInAnyOrder("processor-alert.pdf", "authority-notification.pdf",
                "data-subject-communication.pdf", "register/entries.json", "register/entries.csv", "alerts.csv",
                "exposures.csv", "exposures.json", "manifest.json");
        assertThat(manifest.get("files")).allSatisfy(f -> assertThat(f.get("tenant").asText()).isEqualTo(acme));
        JsonNode own = JSON.readTree(files.get("exposures.json"));
        assertThat(own).isNotEmpty();
        for (JsonNode e : own) {
            assertThat(e.get("direction").asText()).isEqualTo("EXPOSED");
            assertThat(e.get("own_request").asText()).isEqualTo(p + "a");
            assertThat(e.get("counterpart").asText()).isEqualTo("ANOTHER_CUSTOMER");
            assertThat(e.get("counterpart_request").isNull()).isTrue();
        }
        // acme's own register entry, with its hash; globex's is globex's: not in acme's pack; nothing of the chain's
        // other registers (its count, its head) nor who recorded an entry
        JsonNode register = JSON.readTree(files.get("register/entries.json"));
        assertThat(register.get("chain_valid").asBoolean()).isTrue();
        assertThat(register.get("entries")).singleElement().satisfies(e -> {
            assertThat(e.get("register").asText()).isEqualTo(acme);
            assertThat(e.get("hash").asText()).isEqualTo(acmeHash);
            assertThat(e.has("recorded_by")).isFalse();
        });
        assertThat(register.has("chain")).isFalse();
        // nor globex, nor its request, in any file
        for (Map.Entry<String, byte[]> f : files.entrySet()) {
            String text = f.getKey().endsWith(".pdf") ? PdfChecks.text(f.getValue())
                    : new String(f.getValue(), StandardCharsets.UTF_8);
            assertThat(text).as(f.getKey()).doesNotContain(globex).doesNotContain(p + "b");
        }
        // another tenant's incident: as if it did not exist
        given().cookies(a.cookies()).get("/portal/incidents/" + other + "/regulator-pack.zip").then()
                .statusCode(404);

        // the reader's side: globex's pack holds what its request received, never acme's name or request
        Api.account(p + "-globex-user", "customer", globex);
        DashboardActionsTest.Browser g = DashboardActionsTest.signIn(p + "-globex-user",
                p + "-globex-user-password", "/portal");
        Map<String, byte[]> theirs = unzip(given().cookies(g.cookies()).get("/portal/incidents/" + id
                + "/regulator-pack.zip?lang=fr").then().statusCode(200).extract().asByteArray());
        checkedManifest(theirs);
        assertThat(JSON.readTree(theirs.get("exposures.json"))).isNotEmpty().allSatisfy(e -> {
            assertThat(e.get("direction").asText()).isEqualTo("RECEIVED");
            assertThat(e.get("own_request").asText()).isEqualTo(p + "b");
        });
        for (Map.Entry<String, byte[]> f : theirs.entrySet()) {
            String text = f.getKey().endsWith(".pdf") ? PdfChecks.text(f.getValue())
                    : new String(f.getValue(), StandardCharsets.UTF_8);
            assertThat(text).as(f.getKey()).doesNotContain(acme).doesNotContain(p + "a\"").doesNotContain(p + "a,");
        }
    }

    /** A tenant name of the logs may hold a slash or a space: its pack's link on the incident page still reaches it. */
    @Test
    void aTenantNamedWithASlashHasItsPackAndItsDocuments() throws Exception {
        String p = Api.uniquePrefix();
        String odd = p + "/acme eu";
        String id = Api.leakingIncident(p, odd, p + "-globex");
        DashboardActionsTest.Browser dpo = DashboardActionsTest.signIn("admin", Api.ADMIN_PASSWORD, "/");
        String page = dpo.page("/incidents/" + id + "?lang=en");
        // the name as one segment of the path: its slash and its space percent-encoded
        Matcher link = Pattern.compile("href=\"(/incidents/" + id + "/tenants/" + p
                + "%2Facme%20eu/regulator-pack.zip)[^\"]*\"").matcher(page);
        assertThat(link.find()).as("the pack's link of %s", odd).isTrue();
        byte[] zip = given().urlEncodingEnabled(false).cookies(dpo.cookies()).get(link.group(1)).then()
                .statusCode(200).extract().asByteArray();
        assertThat(checkedManifest(unzip(zip)).get("controller").asText()).isEqualTo(odd);
    }

    /** The manifest, after checking that it lists every other file of the ZIP once, with its size and SHA-256. */
    private static JsonNode checkedManifest(Map<String, byte[]> files) throws IOException {
        assertThat(files).containsKey(PackWriter.MANIFEST);
        JsonNode manifest = JSON.readTree(files.get(PackWriter.MANIFEST));
        assertThat(manifest.get("hash_algorithm").asText()).isEqualTo("SHA-256");
        Map<String, JsonNode> listed = new LinkedHashMap<>();
        manifest.get("files").forEach(f -> listed.put(f.get("name").asText(), f));
        assertThat(listed.keySet()).containsExactlyInAnyOrderElementsOf(files.keySet().stream()
                .filter(n -> !n.equals(PackWriter.MANIFEST)).toList());
        listed.forEach((name, f) -> {
            assertThat(f.get("sha256").asText()).as(name).isEqualTo(PackWriter.sha256(files.get(name)));
            assertThat(f.get("bytes").asLong()).as(name).isEqualTo(files.get(name).length);
            assertThat(f.get("media_type").asText()).as(name).isNotBlank();
        });
        return manifest;
    }

    static Map<String, byte[]> unzip(byte[] zip) throws IOException {
        Map<String, byte[]> out = new LinkedHashMap<>();
        try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(zip))) {
            for (ZipEntry e = in.getNextEntry(); e != null; e = in.getNextEntry()) {
                assertThat(out.put(e.getName(), in.readAllBytes())).as("one entry named " + e.getName()).isNull();
            }
        }
        return out;
    }

    private static List<String> lines(byte[] csv) {
        return new String(csv, StandardCharsets.UTF_8).lines().toList();
    }
}
