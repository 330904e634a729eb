package app.vigie.web;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

import app.vigie.tenant.Tenant;
import app.vigie.tenant.TenantFile;
import app.vigie.testing.Api;

/**
 * The tenant directory's page imports a YAML or CSV file: a preview names each line's change and each line's errors,
 * nothing is saved before the preview is confirmed, a file with an error is saved not at all; the directory exported
 * in either format imports back unchanged.
 */
@QuarkusTest
class TenantImportTest {

    @Test
    void aFileIsPreviewedLineByLineAndSavedOnlyWhenConfirmedAndWhole() {
        String p = Api.uniquePrefix();
        Api.admin().contentType("application/json").body("{\"legal_name\":\"Acme SAS\",\"country\":\"FR\"}")
                .put("/api/tenants/" + p + "-acme").then().statusCode(200);
        DashboardActionsTest.Browser dpo = DashboardActionsTest.signIn("admin", Api.ADMIN_PASSWORD, "/tenants");
        String yaml = """
                tenants:
                  - id: %1$s-acme
                    legal_name: Acme SAS
                    country: FR
                  - id: %1$s-globex
                    legal_name: Globex GmbH
                    country: DE
                    alert_channels:
                      - type: email
                        target: dpo@globex.example
                  - id: %1$s-initech
                    legal_name: Initech
                    country: france
                  - id: %1$s-globex
                    legal_name: Globex again
                    country: DE
                    colour: blue
                """.formatted(p);
        Response preview = upload(dpo, "tenants.yaml", yaml);
        assertThat(preview.statusCode()).isEqualTo(200);
        String page = preview.asString();
        // each line with its change or its errors, on the line where its entry starts
        assertThat(rowOf(page, 2)).contains(p + "-acme", "unchanged");
        assertThat(rowOf(page, 5)).contains(p + "-globex", "new");
        assertThat(rowOf(page, 11)).contains(p + "-initech", "country");
        assertThat(rowOf(page, 14)).contains("colour");
        assertThat(page).contains("2 tenants to save, 2 lines refused")
                .doesNotContain("action=\"/tenants/import/confirm\"");
        // nothing was saved, and a confirmation of that file is refused whole
        Api.admin().get("/api/tenants/" + p + "-globex").then().statusCode(404);
        Response refused = dpo.post("/tenants/import/confirm", "csrf", dpo.token(), "name", "tenants.yaml",
                "content", yaml, "lang", "en");
        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(refused.asString()).contains("nothing was imported", "line 11");
        Api.admin().get("/api/tenants/" + p + "-globex").then().statusCode(404);

        // corrected: previewed, then confirmed from the preview's own form
        String good = yaml.substring(0, yaml.indexOf("  - id: " + p + "-initech"));
        String ok = upload(dpo, "tenants.yaml", good).then().statusCode(200).extract().asString();
        assertThat(ok).contains("2 tenants to save, 0 lines refused").contains("action=\"/tenants/import/confirm\"");
        dpo.post("/tenants/import/confirm", "csrf", dpo.token(), "name", "tenants.yaml", "content", good, "lang",
                "en").then().statusCode(303);
        Api.admin().get("/api/tenants/" + p + "-globex").then().statusCode(200);
        assertThat(Api.admin().get("/api/audit-trail?target=tenant:" + p + "-globex").then().extract().jsonPath()
                .getList("action", String.class)).containsExactly("tenant.create");
        assertThat(dpo.page("/tenants?lang=en&done=1")).contains("The tenants were saved.");
    }

    @Test
    void aWebhookNoAlertCouldReachIsALineRefusedWithItsReason() {
        String p = Api.uniquePrefix();
        DashboardActionsTest.Browser dpo = DashboardActionsTest.signIn("admin", Api.ADMIN_PASSWORD, "/tenants");
        String yaml = """
                tenants:
                  - id: %1$s-meta
                    legal_name: Meta SAS
                    country: FR
                    alert_channels:
                      - type: webhook
                        target: http://169.254.169.254/latest/meta-data/
                """.formatted(p);
        Response preview = upload(dpo, "tenants.yaml", yaml);
        assertThat(preview.statusCode()).isEqualTo(200);
        assertThat(rowOf(preview.asString(), 2)).contains(p + "-meta", "169.254.169.254",
                "vigie.alerts.webhook.allowed-networks");
        assertThat(preview.asString()).doesNotContain("action=\"/tenants/import/confirm\"");
        Api.admin().get("/api/tenants/" + p + "-meta").then().statusCode(404);
    }

    @Test
    void theDirectoryExportedImportsBackUnchangedInBothFormats() {
        String p = Api.uniquePrefix();
        Api.admin().contentType("application/json").body("{\"legal_name\":\"Acme, \\\"the\\\" SAS\",\"country\":\"FR\","
                + "\"dpo\":{\"name\":\"Jeanne\",\"email\":\"dpo@acme.example\",\"phone\":\"+33 1 23 45 67 89\"},"
                + "\"alert_channels\":[{\"type\":\"email\",\"target\":\"alerts@acme.example\"}],"
                + "\"alert_delay\":\"PT12H\",\"jurisdictions\":[\"gdpr\",\"nis2\"]}")
                .put("/api/tenants/" + p + "-acme").then().statusCode(200);
        DashboardActionsTest.Browser dpo = DashboardActionsTest.signIn("admin", Api.ADMIN_PASSWORD, "/tenants");
        for (String format : List.of("yaml", "csv")) {
            String exported = given().cookies(dpo.cookies()).get("/tenants/export." + format).then().statusCode(200)
                    .extract().asString();
            assertThat(exported).as(format).contains(p + "-acme");
            String page = upload(dpo, "tenants." + format, exported).then().statusCode(200).extract().asString();
            assertThat(page).as(format).contains("0 lines refused").doesNotContain(">new<").doesNotContain(">updated<");
            assertThat(rowWith(page, p + "-acme")).as(format).contains("unchanged");
        }
        // the phone's "+" came back without the quote the CSV put before it (a spreadsheet formula guard)
        List<TenantFile.Entry> read = TenantFile.read("t.csv", TenantFile.csv(List.of(new Tenant(p, "A", "FR",
                null, new Tenant.Dpo(null, null, "+33 1"), List.of(), null, List.of(), List.of(), false, null, null))),
                id -> Optional.empty());
        assertThat(read).singleElement().satisfies(e -> assertThat(e.tenant().dpo().phone()).isEqualTo("+33 1"));
    }

    /**
     * A CSV of some columns changes those only: the directory's alert channels and DPO stay when the file does not
     * name them (a spreadsheet of delays must not silence anyone's alerts); the preview names the fields changed. A
     * file saved with semicolons reads; one that is not UTF-8 is a clear 400.
     */
    @Test
    void aCsvOfSomeColumnsChangesThoseOnlyAndSaysWhich() {
        String p = Api.uniquePrefix();
        Api.admin().contentType("application/json").body("{\"legal_name\":\"Acme SAS\",\"country\":\"FR\","
                + "\"alert_channels\":[{\"type\":\"email\",\"target\":\"alerts@acme.example\"}]}")
                .put("/api/tenants/" + p + "-acme").then().statusCode(200);
        DashboardActionsTest.Browser dpo = DashboardActionsTest.signIn("admin", Api.ADMIN_PASSWORD, "/tenants");
        String csv = "id;alert_delay\r\n" + p + "-acme;PT12H\r\n";
        String page = upload(dpo, "delays.csv", csv).then().statusCode(200).extract().asString();
        assertThat(rowOf(page, 2)).contains("updated: Contract delay").doesNotContain("Alert channels");
        dpo.post("/tenants/import/confirm", "csrf", dpo.token(), "name", "delays.csv", "content", csv, "lang", "en")
                .then().statusCode(303);
        var stored = Api.admin().get("/api/tenants/" + p + "-acme").then().statusCode(200).extract().jsonPath();
        assertThat(stored.getString("alert_delay")).isEqualTo("PT12H");
        assertThat(stored.getString("alert_channels[0].target")).isEqualTo("alerts@acme.example");
        assertThat(stored.getString("legal_name")).isEqualTo("Acme SAS");
        // Latin-1 bytes (a spreadsheet's default "CSV"): refused with the reason, not a 500
        byte[] latin1 = ("id,legal_name,country\r\n" + p + "-b,Soci\u00e9t\u00e9 B,FR\r\n")
                .getBytes(StandardCharsets.ISO_8859_1);
        Response refused = given().cookies(dpo.cookies()).contentType("multipart/form-data; boundary=" + BOUNDARY)
                .body(concat(multipartHead(dpo.token(), "b.csv"), latin1, ("\r\n--" + BOUNDARY + "--\r\n")
                        .getBytes(StandardCharsets.UTF_8))).post("/tenants/import");
        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(refused.asString()).contains("not UTF-8");
    }

    @Test
    void aCsvWithABadLineNamesItAndOnlyTheDpoMayImport() {
        String p = Api.uniquePrefix();
        DashboardActionsTest.Browser dpo = DashboardActionsTest.signIn("admin", Api.ADMIN_PASSWORD, "/tenants");
        String csv = "id,legal_name,country,alert_channels\r\n" + p + "-a,A SA,FR,email:a@a.example\r\n"
                + "\"" + p + "-b\",\"B, \"\"quoted\"\"\nSA\",FR,smoke-signal\r\n" + p + "-c,C SA,FR\r\n";
        String page = upload(dpo, "t.csv", csv).then().statusCode(200).extract().asString();
        assertThat(rowOf(page, 2)).contains("new");
        assertThat(rowOf(page, 3)).contains("type:target");     // the channel without its type
        assertThat(rowOf(page, 5)).contains("expected 4 cells"); // the quoted cell's line break counted
        // "provider" names the provider's own register: no tenant takes it
        Api.admin().contentType("application/json").body("{\"legal_name\":\"P SA\",\"country\":\"FR\"}")
                .put("/api/tenants/provider").then().statusCode(400);
        // an analyst sees the page, not the import
        Api.account(p + "-analyst", "analyst", null);
        DashboardActionsTest.Browser analyst = DashboardActionsTest.signIn(p + "-analyst", p + "-analyst-password",
                "/tenants");
        assertThat(analyst.page("/tenants?lang=en")).doesNotContain("action=\"/tenants/import\"");
        assertThat(upload(analyst, "t.csv", csv).statusCode()).isEqualTo(403);
        // without the form's token: refused, as every form, and nothing read
        assertThat(given().cookies(dpo.cookies()).contentType("multipart/form-data; boundary=" + BOUNDARY)
                .body(multipart(null, "t.csv", csv)).post("/tenants/import").statusCode()).isEqualTo(403);
    }

    /** The file posted as a browser posts it: multipart, with its Content-Length (the service refuses chunks). */
    static Response upload(DashboardActionsTest.Browser b, String name, String text) {
        return given().cookies(b.cookies()).contentType("multipart/form-data; boundary=" + BOUNDARY)
                .body(multipart(b.token(), name, text)).post("/tenants/import");
    }

    private static final String BOUNDARY = "vigie-test-boundary-7MA4YWxkTrZu0gW";

    private static byte[] multipartHead(String token, String name) {
        String full = new String(multipart(token, name, ""), StandardCharsets.UTF_8);
        return full.substring(0, full.lastIndexOf("\r\n--" + BOUNDARY + "--")).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    static byte[] multipart(String token, String name, String text) {
        StringBuilder out = new StringBuilder();
        if (token != null) {
            out.append("--").append(BOUNDARY).append("\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\n")
                    .append(token).append("\r\n");
        }
        out.append("--").append(BOUNDARY).append("\r\nContent-Disposition: form-data; name=\"lang\"\r\n\r\nen\r\n");
        out.append("--").append(BOUNDARY).append("\r\nContent-Disposition: form-data; name=\"file\"; filename=\"")
                .append(name).append("\"\r\nContent-Type: application/octet-stream\r\n\r\n").append(text)
                .append("\r\n--").append(BOUNDARY).append("--\r\n");
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** The preview's row of a line of the file. */
    private static String rowOf(String page, int line) {
        return rowWith(page, "<td class=\"n\">" + line + "</td>");
    }

    private static String rowWith(String page, String text) {
        for (String row : page.split("<tr")) {
            if (row.contains(text) && row.contains("<td class=\"n\">")) {
                return row;
            }
        }
        throw new AssertionError("no preview row with " + text);
    }
}
