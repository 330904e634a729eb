package app.vigie.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import com.microsoft.playwright.Response;
import com.microsoft.playwright.options.WaitForSelectorState;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

import app.vigie.testing.Api;

/**
 * The dashboard in Debian's Chromium, driven by Playwright: sign in through the form, see a leaking log's incident
 * appear by itself with its deadline counting down, in English and French; screenshots kept under
 * target/screenshots.
 */
@QuarkusTest
class DashboardBrowserTest {
    static final Path SHOTS = Path.of("target", "screenshots");
    static final String CHROMIUM = System.getProperty("vigie.chromium", "/usr/bin/chromium");
    static Playwright playwright;
    static Browser browser;

    @TestHTTPResource("/")
    URL root;

    @BeforeAll
    static void browser() throws Exception {
        if (!Files.isExecutable(Path.of(CHROMIUM))) {
            throw new AssertionError(CHROMIUM + " is needed by this test; .ci/run installs it (apt-get install "
                    + "chromium)");
        }
        Files.createDirectories(SHOTS);
        playwright = Playwright.create(new Playwright.CreateOptions()
                .setEnv(Map.of("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")));
        browser = playwright.chromium().launch(new BrowserType.LaunchOptions().setExecutablePath(Path.of(CHROMIUM))
                .setHeadless(true).setArgs(List.of("--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                        "--disable-background-networking", "--disable-component-update", "--disable-sync",
                        "--no-first-run")));
    }

    @AfterAll
    static void close() {
        if (browser != null) {
            browser.close();
        }
        if (playwright != null) {
            playwright.close();
        }
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

            // a leaking log arrives: its incident shows up without a reload (htmx refreshes the table)
            String p = Api.uniquePrefix();
            Api.admin().contentType("application/json").body("{\"legal_name\":\"Acme SAS\",\"country\":\"FR\","
                    + "\"alert_delay\":\"PT12H\"}").put("/api/tenants/" + p + "-acme").then().statusCode(200);
            String id = Api.leakingIncident(p, p + "-acme", p + "-globex");
            Locator row = page.locator("tr[data-incident='" + id + "']");
            row.waitFor(new Locator.WaitForOptions().setState(WaitForSelectorState.VISIBLE).setTimeout(20_000));
            assertThat(row.textContent()).contains(p + "/dep", "data breach");

            Locator countdown = row.locator("time.countdown");
            String first = countdown.textContent();
            assertThat(first).startsWith("in ");
            // ticking in the browser (waited for, not timed: a loaded machine may run the timer late)
            page.waitForCondition(() -> !countdown.textContent().equals(first),
                    new Page.WaitForConditionOptions().setTimeout(15_000));
            assertThat(countdown.textContent()).startsWith("in ");
            assertThat(row.locator(".due").textContent()).contains("gdpr-33-2");
            page.screenshot(new Page.ScreenshotOptions().setPath(SHOTS.resolve("overview-en.png")).setFullPage(true));

            // the incident page: the exposure matrix drawn, each tenant's obligations ticking, a PDF to download
            page.waitForNavigation(() -> row.locator("a").click());
            assertThat(page.textContent("h1")).isEqualTo(p + "/dep");
            Locator cell = page.locator("svg.matrix rect");
            assertThat(cell.count()).isEqualTo(1);
            assertThat(page.locator("svg.matrix title").textContent()).isEqualTo(p + "-acme -> " + p + "-globex: 8");
            assertThat(page.locator("h3").allTextContents()).anyMatch(h -> h.contains("Acme SAS"));
            assertThat(page.locator("time.countdown").count()).isGreaterThan(3);
            String href = page.locator("a[href*='processor-alert.pdf']").first().getAttribute("href");
            assertThat(href).startsWith("/incidents/");  // the session's own path, not the API's Basic one
            com.microsoft.playwright.APIResponse pdf = context.request().get(root.toString().replaceAll("/$", "")
                    + href);
            assertThat(pdf.status()).isEqualTo(200);
            assertThat(pdf.headers().get("content-type")).isEqualTo("application/pdf");
            assertThat(app.vigie.testing.PdfChecks.pdfa3uFailures(pdf.body())).isEmpty();
            page.screenshot(new Page.ScreenshotOptions().setPath(SHOTS.resolve("incident-en.png")).setFullPage(true));
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
        io.restassured.RestAssured.given().redirects().follow(false).get("/api/incidents").then().statusCode(401)
                .contentType("application/problem+json");
    }
}
