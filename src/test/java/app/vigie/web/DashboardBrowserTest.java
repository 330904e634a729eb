package app.vigie.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Download;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Response;
import com.microsoft.playwright.options.AriaRole;
import com.microsoft.playwright.options.WaitForSelectorState;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;

import app.vigie.detection.AmendmentsServiceTest;
import app.vigie.testing.Api;
import app.vigie.testing.Axe;
import app.vigie.testing.Chromium;
import app.vigie.testing.InChromium;
import app.vigie.testing.PdfChecks;

/**
 * The dashboard in Debian's Chromium, driven by Playwright: sign in through the form, see a leaking log's incident
 * appear by itself with its deadline counting down, in English and French; screenshots kept under
 * target/screenshots.
 */
@QuarkusTest
class DashboardBrowserTest extends InChromium {
    static final Path SHOTS = Chromium.SHOTS;
    @TestHTTPResource("/")
    URL root;

    /** A leaking incident of tenants p-acme and p-globex in the provider's register, and a rejected record naming p. */
    static String incidentRegisteredWithARejectedRecord(String p) {
        String id = Api.leakingIncident(p, p + "-acme", p + "-globex");
        Api.admin().contentType("application/json").body("{\"incident_id\":\"" + id + "\"}").post("/api/register")
                .then().statusCode(201);
        Api.post("{\"rejected\":\"" + p + "\"}\n").then().statusCode(200);
        return id;
    }

    static Page signIn(BrowserContext context, String url, String user, String password) {
        Page page = context.newPage();
        page.navigate(url);
        assertThat(page.url()).endsWith("/login");
        page.fill("#j_username", user);
        page.fill("#j_password", password);
        page.waitForNavigation(() -> page.click("button[type=submit]"));
        return page;
    }

    @Test
    void aLeakAppearsOnTheOverviewByItselfWithItsDeadlineCountingDown() throws Exception {
        try (BrowserContext context = browser.newContext(new Browser.NewContextOptions().setLocale("en-GB")
                .setViewportSize(1280, 900))) {
            Page wrong = signIn(context, root.toString(), "admin", "not-the-password");
            assertThat(wrong.url()).endsWith("/login-error");
            assertThat(wrong.textContent("p.error")).contains("Wrong user name or password");

            Page page = signIn(context, root.toString(), "admin", Api.ADMIN_PASSWORD);
            assertThat(page.textContent("h1")).isEqualTo("Open incidents");
            Response reload = page.reload();
            assertThat(reload.headers().get("content-security-policy")).contains("frame-ancestors 'none'");
            assertThat(reload.headers().get("x-content-type-options")).isEqualTo("nosniff");

            // a leaking log arrives: its incident shows up without a reload, pushed by a server-sent event (the
            // table's own periodic refresh is every 60 s: waiting at most 10 s shows the push)
            String p = Api.uniquePrefix();
            Api.admin().contentType("application/json").body("{\"legal_name\":\"Acme SAS\",\"country\":\"FR\","
                    + "\"alert_delay\":\"PT12H\"}").put("/api/tenants/" + p + "-acme").then().statusCode(200);
            String id = Api.leakingIncident(p, p + "-acme", p + "-globex");
            Locator row = page.locator("tr[data-incident='" + id + "']");
            row.waitFor(new Locator.WaitForOptions().setState(WaitForSelectorState.VISIBLE).setTimeout(10_000));
            assertThat(row.textContent()).contains(p + "/dep", "data breach");

            Locator countdown = row.locator("time.countdown");
            String first = countdown.textContent();
            assertThat(first).startsWith("in ");
            // ticking in the browser (waited for, not timed: a loaded machine may run the timer late)
            page.waitForCondition(() -> !countdown.textContent().equals(first),
                    new Page.WaitForConditionOptions().setTimeout(15_000));
            assertThat(countdown.textContent()).startsWith("in ");
            // the next deadline in words: the processor's alert to Acme under its 12-hour contract, with its article
            assertThat(row.locator(".due").textContent()).contains("Alert to the controller → Acme SAS",
                    "GDPR Art. 33(2)").doesNotContain("gdpr-33-2");
            page.screenshot(new Page.ScreenshotOptions().setPath(SHOTS.resolve("overview-en.png")).setFullPage(true));

            // the incident page: the exposure matrix drawn, each tenant's obligations ticking, a PDF to download
            page.waitForNavigation(() -> row.locator("a").click());
            assertThat(page.textContent("h1")).isEqualTo(p + "/dep");
            Locator matrix = page.getByRole(AriaRole.TABLE, new Page.GetByRoleOptions()
                    .setName("Whose tokens reached whom"));
            assertThat(matrix.getByRole(AriaRole.ROW, new Locator.GetByRoleOptions().setName(p + "-acme"))
                    .textContent()).contains("Another customer's tokens 8 delivered · 0 contained");
            assertThat(page.locator("svg.leaks g.bar title").allTextContents()).singleElement().asString()
                    .startsWith("1 response with another customer's tokens from ");
            assertThat(page.locator("h3").allTextContents()).anyMatch(h -> h.contains("Acme SAS"));
            // the processor's alerts to both tenants tick; NIS2's wait for the significance decision (recital 31
            // of Implementing Regulation 2024/2690), the CNIL's for the alert's delivery
            assertThat(page.locator("time.countdown").count()).isGreaterThanOrEqualTo(2);
            String href = page.locator("a[href*='processor-alert.pdf']").first().getAttribute("href");
            assertThat(href).startsWith("/incidents/");  // the session's own path, not the API's Basic one
            Download download = page.waitForDownload(
                    () -> page.locator("a[href*='processor-alert.pdf']").first().click());
            byte[] pdf = Files.readAllBytes(download.path());
            assertThat(download.suggestedFilename()).endsWith(".pdf");
            assertThat(PdfChecks.pdfa3uFailures(pdf)).isEmpty();
            assertThat(PdfChecks.text(pdf)).contains("Acme SAS");

            // act: record a measure and triage the incident, through the page's forms
            page.fill("#measure-text", "KV pool resized to the advertised context; over-long prompts aborted");
            page.waitForNavigation(() -> page.click("#measure button[type=submit]"));
            assertThat(page.textContent("#notice")).contains("Recorded.");
            assertThat(page.locator("ul.measures li").allTextContents())
                    .anyMatch(m -> m.contains("KV pool resized") && m.contains("admin"));
            page.check("#status input[value=TRIAGED]");
            page.waitForNavigation(() -> page.click("#status button[type=submit]"));
            assertThat(page.textContent("section.headline")).contains("triaged").doesNotContain("TRIAGED");
            assertThat(page.locator("ol.timeline li").allTextContents())
                    .anyMatch(e -> e.contains("status change") && e.contains("admin"))
                    .anyMatch(e -> e.contains("measure taken"))
                    .anyMatch(e -> e.contains("first exposure"));
            // a dismissal without its reason is refused on the page, nothing changes
            page.check("#status input[value=DISMISSED]");
            page.click("#status button[type=submit]");
            page.waitForSelector("#notice[role=alert]");
            assertThat(page.textContent("#notice")).contains("a reason is required");
            assertThat(Api.admin().get("/api/incidents/" + id).then().extract().jsonPath().getString("status"))
                    .isEqualTo("TRIAGED");
            page.screenshot(new Page.ScreenshotOptions().setPath(SHOTS.resolve("incident-en.png")).setFullPage(true));
        }
    }

    /**
     * Spec 1.3, amendment 3, as the DPO sees it: an incident whose only exposure is possible is a security event; its
     * tokens stand in the matrix and its response in the picture in a colour of their own (amber), named as possibly
     * read. Screenshot incident-possible-en.png.
     */
    @Test
    void aPossibleExposureIsShownInItsOwnColour() throws Exception {
        String p = Api.uniquePrefix();
        Api.post(AmendmentsServiceTest.possibleThenCertain(p)[0]).then().statusCode(200);
        String id = RestAssured.given().auth().preemptive().basic("admin", Api.ADMIN_PASSWORD).get("/api/incidents")
                .then().statusCode(200).extract().jsonPath().getString("find { it.deployment == '" + p
                        + "/llama-8b/prod-pd' }.id");
        try (BrowserContext context = browser.newContext(new Browser.NewContextOptions().setLocale("en-GB")
                .setViewportSize(1280, 900))) {
            Page page = signIn(context, root.toString() + "incidents/" + id, "admin", Api.ADMIN_PASSWORD);
            Locator matrix = page.getByRole(AriaRole.TABLE, new Page.GetByRoleOptions()
                    .setName("Whose tokens reached whom"));
            Locator cell = matrix.locator("td.possible");
            assertThat(cell.textContent()).isEqualTo("4 possibly read");
            assertThat(cell.evaluate("e => getComputedStyle(e).boxShadow").toString()).contains("rgb(230, 149, 0)");
            assertThat(page.locator("svg.leaks rect.possible").evaluate("e => getComputedStyle(e).fill").toString())
                    .isEqualTo("rgb(230, 149, 0)");
            assertThat(page.locator("svg.leaks rect.delivered").count()).isZero();
            assertThat(page.textContent("p.possible-decision")).contains("They are not counted as a breach until the"
                    + " DPO decides whether they are one");
            assertThat(page.locator("select[name=decision] option").allTextContents()).anyMatch(o -> o.contains(
                    "the possible exposures (pages overwritten while a transfer read them) are a personal data"
                    + " breach"));
            // a customer touched by possible exposures only is not said to have been read, nor to have received
            Locator customers = page.locator("table.customers");
            assertThat(customers.locator("tr[data-tenant='" + p + "-globex']").textContent())
                    .contains("its data possibly read by others (not established)").doesNotContain("its data read by");
            assertThat(customers.locator("tr[data-tenant='" + p + "-acme']").textContent())
                    .contains("possibly received others' data (not established)");
            assertThat(page.locator("#leaks-caption").textContent()).contains("0 responses with another customer's",
                    "1 more response that may have carried another customer's tokens");
            page.screenshot(new Page.ScreenshotOptions().setPath(SHOTS.resolve("incident-possible-en.png"))
                    .setFullPage(true));
            // the processor alert to the controller whose data may have been read, in French
            page.navigate(root.toString() + "incidents/" + id + "/tenants/" + p + "-globex/documents/processor-alert.html?lang=fr");
            assertThat(page.textContent("h1")).isEqualTo("Alerte de violation possible de données à caractère personnel");
            assertThat(page.textContent("body")).contains("Ce qui a pu être lu", "ni établie ni");
            page.screenshot(new Page.ScreenshotOptions().setPath(SHOTS.resolve("processor-alert-possible-fr.png"))
                    .setFullPage(true));
        }
    }

    @Test
    void theRegisterAuditTrailTenantsAndQuarantinePagesAndSigningOut() throws Exception {
        String p = Api.uniquePrefix();
        String id = incidentRegisteredWithARejectedRecord(p);
        try (BrowserContext context = browser.newContext(new Browser.NewContextOptions().setLocale("en-GB")
                .setViewportSize(1280, 900))) {
            Page page = signIn(context, root.toString() + "register", "admin", Api.ADMIN_PASSWORD);
            assertThat(page.textContent("h1")).isEqualTo("Personal data breach register");
            assertThat(page.textContent("p.notice")).contains("Chain verified");
            assertThat(page.locator("nav a[aria-current=page]").textContent()).isEqualTo("Register");
            page.screenshot(new Page.ScreenshotOptions().setPath(SHOTS.resolve("register-en.png")).setFullPage(true));
            Download csv = page.waitForDownload(() -> page.click("text=CSV"));
            assertThat(Files.readString(csv.path())).startsWith("entry,register").contains(id);

            page.click("nav >> text=Audit trail");
            page.fill("#f-action", "register.append");
            page.waitForNavigation(() -> page.click("form.filters button"));
            assertThat(page.locator("table.audit tbody tr").allTextContents()).isNotEmpty()
                    .allMatch(r -> r.contains("register.append"));
            page.screenshot(new Page.ScreenshotOptions().setPath(SHOTS.resolve("audit-en.png")).setFullPage(true));

            page.click("nav >> text=Quarantine");
            assertThat(page.textContent("table.incidents")).contains(p);
            page.screenshot(new Page.ScreenshotOptions().setPath(SHOTS.resolve("quarantine-en.png")));
            page.click("nav >> text=Tenants");
            assertThat(page.textContent("h1")).isEqualTo("Tenants directory");

            // keyboard: the skip link is the first stop and leads to the content
            page.keyboard().press("Tab");
            assertThat((String) page.evaluate("document.activeElement.className")).isEqualTo("skip");

            page.waitForNavigation(() -> page.click("form.logout button"));
            assertThat(page.url()).endsWith("/login");
            page.navigate(root.toString() + "register");
            assertThat(page.url()).endsWith("/login");
        }
    }

    /**
     * The settings page from the menu: an administrator records the provider's identity, the page says it was saved
     * and by whom; a refused value is said in the page's language; in English and French (screenshots looked at).
     */
    @Test
    void theSettingsPageRecordsTheProvidersIdentityInBothLanguages() throws Exception {
        String p = Api.uniquePrefix();
        try (BrowserContext context = browser.newContext(new Browser.NewContextOptions().setLocale("en-GB")
                .setViewportSize(1280, 900))) {
            Page page = signIn(context, root.toString(), "admin", Api.ADMIN_PASSWORD);
            page.waitForNavigation(() -> page.click("nav >> text=Settings"));
            assertThat(page.textContent("h1")).isEqualTo("The provider's identity");
            assertThat(page.getByLabel("Legal name").inputValue()).isEqualTo("Nuvola SAS");
            page.getByLabel("Legal name").fill("Nimbus Cloud " + p);
            page.getByLabel("Postal address").fill("12 rue de la Paix\n75002 Paris");
            page.getByLabel("Data protection officer", new Page.GetByLabelOptions().setExact(true))
                    .fill("Jeanne Martin");
            page.getByLabel("Data protection officer's e-mail").fill("dpo@nimbus.example");
            page.getByLabel("The DPO's designation number at the CNIL (if any)").fill("DPO-12345");
            page.waitForNavigation(() -> page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Save"))
                    .click());
            assertThat(page.textContent("#notice")).contains("The provider's identity was saved.");
            assertThat(page.textContent("main")).contains("Saved by admin on");
            page.screenshot(new Page.ScreenshotOptions().setPath(SHOTS.resolve("settings-en.png")).setFullPage(true));

            page.navigate(root.toString() + "settings?lang=fr");
            assertThat(page.getByLabel("Dénomination sociale").inputValue()).isEqualTo("Nimbus Cloud " + p);
            page.getByLabel("Contact pour les incidents de sécurité").fill("x".repeat(200) + "y");
            page.evaluate("document.getElementById('contact').removeAttribute('maxlength')");
            page.getByLabel("Contact pour les incidents de sécurité").fill("x".repeat(201));
            page.waitForNavigation(() -> page.click("form.settings button[type=submit]"));
            assertThat(page.textContent("#notice[role=alert]"))
                    .contains("Contact pour les incidents de sécurité : 200 caractères au plus.");
            page.screenshot(new Page.ScreenshotOptions().setPath(SHOTS.resolve("settings-fr.png")).setFullPage(true));
        } finally {
            Api.admin().contentType("application/json").body("{\"legal_name\":\"Nuvola SAS\","
                    + "\"contact\":\"soc@nuvola.example\"}").put("/api/settings/provider").then().statusCode(200);
        }
    }

    /**
     * Every page passes axe-core's WCAG 2.1 A and AA rules (labels, names, contrast, landmarks, language), in English
     * and French, with an incident holding every kind of content, and after a refused action (the error shown).
     */
    @Test
    void everyPageMeetsWcagAAInBothLanguages() throws Exception {
        String p = Api.uniquePrefix();
        String id = incidentRegisteredWithARejectedRecord(p);
        List<String> found = new ArrayList<>();
        for (String locale : List.of("en-GB", "fr-FR")) {
            try (BrowserContext context = browser.newContext(new Browser.NewContextOptions().setLocale(locale)
                    .setBypassCSP(true))) {
                Page login = context.newPage();
                login.navigate(root.toString() + "login");
                Axe.violations(login).forEach(v -> found.add(locale + " /login " + v));
                Page page = signIn(context, root.toString(), "admin", Api.ADMIN_PASSWORD);
                for (String path : List.of("", "?filter=late", "incidents/" + id, "register", "tenants", "quarantine",
                        "audit", "alerts", "alerts?state=undelivered", "settings")) {
                    page.navigate(root.toString() + path);
                    Axe.violations(page).forEach(v -> found.add(locale + " /" + path + " " + v));
                }
                page.navigate(root.toString() + "incidents/" + id);
                page.check("#status input[value=DISMISSED]");
                page.click("#status button[type=submit]");
                page.waitForSelector("#notice[role=alert]");
                Axe.violations(page).forEach(v -> found.add(locale + " refused action " + v));
            }
        }
        assertThat(found).isEmpty();
    }

    /** A customer in the browser: its portal, its own incident only, acknowledging its alert; WCAG AA there too. */
    @Test
    void aCustomerSeesOnlyItsOwnInItsPortal() throws Exception {
        String p = Api.uniquePrefix();
        String id = Api.leakingIncident(p, p + "-acme", p + "-globex");
        String other = Api.leakingIncident(p + "x", p + "x-initech", p + "x-umbrella");
        Api.account(p + "-acme-user", "customer", p + "-acme");
        try (BrowserContext context = browser.newContext(new Browser.NewContextOptions().setLocale("fr-FR")
                .setViewportSize(1280, 900))) {
            Page page = signIn(context, root.toString(), p + "-acme-user", p + "-acme-user-password");
            assertThat(page.url()).endsWith("/portal");
            assertThat(page.textContent("h1")).contains("Vos incidents");
            assertThat(page.locator("table.incidents tbody tr").count()).isEqualTo(1);
            assertThat(Axe.violations(page)).isEmpty();
            page.waitForNavigation(() -> page.click("text=" + p + "/dep"));
            assertThat(page.textContent("main")).contains(p + "a").doesNotContain(p + "-globex");
            page.waitForNavigation(() -> page.click("text=Confirmer la réception"));
            assertThat(page.textContent("#notice")).contains("Réception enregistrée");
            assertThat(Axe.violations(page)).isEmpty();
            page.screenshot(new Page.ScreenshotOptions().setPath(SHOTS.resolve("portal-incident-fr.png"))
                    .setFullPage(true));
            Response elsewhere = page.navigate(root.toString() + "portal/incidents/" + other);
            assertThat(elsewhere.status()).isEqualTo(404);
            assertThat(page.navigate(root.toString() + "incidents/" + id).status()).isEqualTo(403);
        }
    }

    @Test
    void aFrenchBrowserGetsTheFrenchPagesAndTheApiNeverRedirects() throws Exception {
        try (BrowserContext context = browser.newContext(new Browser.NewContextOptions().setLocale("fr-FR"))) {
            Page login = context.newPage();
            login.navigate(root.toString());
            assertThat(login.textContent("h1")).isEqualTo("Connexion");
            Page page = signIn(context, root.toString(), "admin", Api.ADMIN_PASSWORD);
            assertThat(page.textContent("h1")).isEqualTo("Incidents ouverts");
            assertThat(page.locator("html").getAttribute("lang")).isEqualTo("fr");
            page.screenshot(new Page.ScreenshotOptions().setPath(SHOTS.resolve("overview-fr.png")));
        }
        // the API keeps its contract: 401 with a problem document, never a redirect to the login page
        RestAssured.given().redirects().follow(false).get("/api/incidents").then().statusCode(401)
                .contentType("application/problem+json");
    }
}
