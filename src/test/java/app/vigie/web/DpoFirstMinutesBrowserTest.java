package app.vigie.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Download;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import com.microsoft.playwright.options.FilePayload;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

import app.vigie.demo.DemoTest;
import app.vigie.testing.Api;
import app.vigie.testing.Axe;
import app.vigie.testing.Chromium;
import app.vigie.testing.InChromium;

/**
 * The DPO's first five minutes on the demo incident (the reference runtime's 2026 incident running inside the
 * service), in a real Chromium, every step found by its visible text and its role: from the overview, the incident
 * and its next deadline; which customers to alert and whether they were; what is late; the regulator pack downloaded
 * and its manifest checked against its files. In French, then in English; axe-core finds nothing on each page seen;
 * screenshots of the overview and the incident page in both languages kept under target/screenshots.
 */
@QuarkusTest
@TestProfile(DemoTest.Demo.class)
class DpoFirstMinutesBrowserTest extends InChromium {
    @TestHTTPResource("/")
    URL root;

    /** The words a DPO reads, per language. */
    record Words(String locale, String openIncidents, String nextDeadline, String customers, String late,
            String toDo, String pack, String alertColumn, List<String> alertStates, String tenants, String importTitle,
            String preview, String previewed, List<String> statuses) {
    }

    static final Words FR = new Words("fr-FR", "Incidents ouverts", "Prochaine échéance", "Clients", "En retard",
            "À faire maintenant", "Dossier pour l'autorité de contrôle (ZIP)", "Alerte",
            List.of("remise le", "non remise", "aucune alerte"), "Clients", "Importer des clients",
            "Voir l'aperçu de l'import", "1 client à enregistrer, 0 ligne refusée",
            List.of("à faire", "en retard", "objectif dépassé"));
    static final Words EN = new Words("en-GB", "Open incidents", "Next deadline", "Customers", "Late",
            "What to do next", "Regulator pack (ZIP)", "Alert", List.of("delivered", "not delivered", "no alert"),
            "Tenants", "Import tenants", "Preview the import", "1 tenant to save, 0 lines refused",
            List.of("to do", "late", "target passed"));

    @Test
    void theFirstFiveMinutesInFrenchThenInEnglish() throws Exception {
        // the demo's incident opens by itself
        Awaitility.await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500))
                .until(() -> Api.incident(DemoTest.DEPLOYMENT), i -> i != null && i.get("exposures").size() > 0);
        List<String> axe = new ArrayList<>();
        for (Words w : List.of(FR, EN)) {
            firstMinutes(w, axe);
        }
        assertThat(axe).as("axe-core violations").isEmpty();
    }

    private void firstMinutes(Words w, List<String> axe) throws Exception {
        String lang = w.locale().substring(0, 2);
        try (BrowserContext context = browser.newContext(new Browser.NewContextOptions().setLocale(w.locale())
                .setViewportSize(1280, 900).setAcceptDownloads(true))) {
            Page page = DashboardBrowserTest.signIn(context, root.toString(), "admin", Api.ADMIN_PASSWORD);
            // 1. the overview: the demo's incident, its next deadline named in words and counting down
            assertThat(page.getByRole(AriaRole.HEADING, new Page.GetByRoleOptions().setName(w.openIncidents())
                    .setLevel(1)).isVisible()).isTrue();
            Locator row = page.getByRole(AriaRole.ROW).filter(new Locator.FilterOptions()
                    .setHasText(DemoTest.DEPLOYMENT));
            assertThat(row.count()).isEqualTo(1);
            assertThat(row.getByRole(AriaRole.TIMER).count() + row.locator("time").count()).isPositive();
            axe.addAll(Axe.violations(page).stream().map(v -> lang + " overview " + v).toList());
            page.screenshot(new Page.ScreenshotOptions().setPath(Chromium.SHOTS.resolve("cockpit-overview-" + lang
                    + ".png")).setFullPage(true));

            // 2. the incident: the next deadline first
            page.waitForNavigation(() -> row.getByRole(AriaRole.LINK, new Locator.GetByRoleOptions()
                    .setName(DemoTest.DEPLOYMENT)).click());
            Locator header = page.getByRole(AriaRole.REGION, new Page.GetByRoleOptions().setName(w.nextDeadline()));
            assertThat(header.textContent()).contains(w.nextDeadline(), w.late());
            assertThat(header.locator("time").first().textContent()).isNotBlank();

            // 3. which customers to alert, and whether they were alerted
            Locator customersHeading = page.getByRole(AriaRole.HEADING, new Page.GetByRoleOptions()
                    .setName(Pattern.compile("^" + w.customers() + " \\(\\d+\\)$")));
            int customers = Integer.parseInt(customersHeading.textContent().replaceAll("\\D", ""));
            assertThat(customers).isGreaterThan(1);
            Locator table = page.getByRole(AriaRole.TABLE).filter(new Locator.FilterOptions()
                    .setHas(page.getByRole(AriaRole.COLUMNHEADER, new Page.GetByRoleOptions().setName(w.alertColumn())
                            .setExact(true))));
            List<String> rows = table.getByRole(AriaRole.ROW).allTextContents().subList(1, customers + 1);
            assertThat(rows).hasSize(customers).allSatisfy(r -> assertThat(w.alertStates()).anyMatch(r::contains));

            // 4. what is late, and what to do next (each with its action)
            // the header's count of late obligations is the count of rows of "what to do next" whose status is late
            int late = Integer.parseInt(header.getByRole(AriaRole.LINK).filter(new Locator.FilterOptions()
                    .setHasText(Pattern.compile("^\\d+$"))).last().textContent());
            assertThat(page.getByRole(AriaRole.HEADING, new Page.GetByRoleOptions().setName(w.toDo())).isVisible())
                    .isTrue();
            Locator toDo = page.getByRole(AriaRole.TABLE, new Page.GetByRoleOptions().setName(Pattern.compile(
                    w.toDo().equals("À faire maintenant") ? "^Les obligations ouvertes" : "^Every party")));
            List<String> statuses = toDo.getByRole(AriaRole.ROW).all().stream().skip(1)
                    .map(r -> r.getByRole(AriaRole.CELL).nth(4).textContent().strip()).toList();
            assertThat(statuses).isNotEmpty().allSatisfy(st -> assertThat(st).isIn(w.statuses()));
            assertThat(late).isEqualTo((int) statuses.stream().filter(w.statuses().get(1)::equals).count());
            axe.addAll(Axe.violations(page).stream().map(v -> lang + " incident " + v).toList());
            page.screenshot(new Page.ScreenshotOptions().setPath(Chromium.SHOTS.resolve("cockpit-incident-" + lang
                    + ".png")).setFullPage(true));

            // 5. what to send to the authority: the regulator pack, its manifest true to its files
            Download download = page.waitForDownload(() -> page.getByRole(AriaRole.LINK,
                    new Page.GetByRoleOptions().setName(w.pack()).setExact(true)).click());
            assertThat(download.suggestedFilename()).endsWith("-" + lang + ".zip");
            Map<String, byte[]> files = unzip(Files.readAllBytes(download.path()));
            JsonNode manifest = new ObjectMapper().readTree(files.get("manifest.json"));
            assertThat(manifest.get("language").asText()).isEqualTo(lang);
            assertThat(manifest.get("files")).hasSize(files.size() - 1);
            for (JsonNode f : manifest.get("files")) {
                byte[] body = files.get(f.get("name").asText());
                assertThat(body).as(f.get("name").asText()).isNotNull();
                assertThat(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body)))
                        .isEqualTo(f.get("sha256").asText());
            }
            assertThat(files.keySet()).contains("incident-report.pdf", "exposures.csv", "findings.csv")
                    .anyMatch(n -> n.startsWith("controllers/") && n.endsWith("/processor-alert.pdf"));

            // and the directory: a tenant file previewed before anything is saved
            page.getByRole(AriaRole.NAVIGATION).getByRole(AriaRole.LINK, new Locator.GetByRoleOptions()
                    .setName(w.tenants()).setExact(true)).click();
            page.getByLabel(Pattern.compile("YAML")).setInputFiles(new FilePayload("tenants.yaml",
                    "application/yaml", ("tenants:\n  - id: first-minutes-" + lang + "\n    legal_name: Essai SA\n"
                            + "    country: FR\n").getBytes(StandardCharsets.UTF_8)));
            page.waitForNavigation(() -> page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions()
                    .setName(w.preview())).click());
            Locator preview = page.getByRole(AriaRole.TABLE).filter(new Locator.FilterOptions()
                    .setHasText(w.previewed()));
            assertThat(preview.count()).isEqualTo(1);
            assertThat(preview.getByRole(AriaRole.ROW).nth(1).textContent()).contains("first-minutes-" + lang);
            axe.addAll(Axe.violations(page).stream().map(v -> lang + " tenants preview " + v).toList());
        }
    }

    private static Map<String, byte[]> unzip(byte[] zip) throws Exception {
        Map<String, byte[]> out = new LinkedHashMap<>();
        try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(zip))) {
            for (ZipEntry e = in.getNextEntry(); e != null; e = in.getNextEntry()) {
                out.put(e.getName(), in.readAllBytes());
            }
        }
        return out;
    }
}
