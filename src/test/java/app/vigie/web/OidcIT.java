package app.vigie.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.TimeoutError;
import com.microsoft.playwright.options.FormData;
import com.microsoft.playwright.options.RequestOptions;

import app.vigie.testing.Chromium;
import app.vigie.testing.Keycloak;
import app.vigie.testing.ServiceProcess;

/**
 * Production sign-in through an OpenID Connect provider: the packaged service with VIGIE_OIDC_ISSUER set to a real
 * Keycloak. The pages send the browser to the provider and back (authorization code flow); the roles come from the
 * ID token's vigie_roles claim; forms keep their CSRF check; signing out ends the provider's session too; the API
 * still takes HTTP Basic and answers 401, never a redirect.
 */
class OidcIT {
    private static final String ADMIN_PASSWORD = "oidc-it-admin-password";

    @Test
    void thePagesSignInThroughTheProviderAndTheApiKeepsBasic() throws Exception {
        Path tmp = Files.createTempDirectory("vigie-oidc-it");
        try (Keycloak kc = Keycloak.start(tmp);
                ServiceProcess service = new ServiceProcess(tmp.resolve("data"), Map.of(
                        "VIGIE_ADMIN_PASSWORD", ADMIN_PASSWORD, "VIGIE_OIDC_ISSUER", kc.issuer(),
                        "VIGIE_OIDC_CLIENT_SECRET", "tests-only-client-secret")).start();
                Chromium chromium = Chromium.launch()) {
            String root = "http://localhost:" + service.port();

            HttpResponse<String> api = service.get("/api/incidents", null);
            assertThat(api.statusCode()).isEqualTo(401);
            assertThat(api.headers().firstValue("content-type").orElse("")).contains("application/problem+json");
            assertThat(service.get("/api/incidents", "admin:" + ADMIN_PASSWORD).statusCode()).isEqualTo(200);

            Browser browser = chromium.browser();
            try (BrowserContext context = browser.newContext(new Browser.NewContextOptions().setLocale("en-GB"))) {
                Page page = signIn(context, root + "/", kc, "dana", "dana-tests-password");
                assertThat(page.url()).isEqualTo(root + "/");
                assertThat(page.textContent("h1")).isEqualTo("Open incidents");
                assertThat(page.textContent("span.user")).isEqualTo("dana");
                assertThat(page.navigate(root + "/audit").status()).isEqualTo(200);  // dpo: the audit trail
                page.screenshot(new Page.ScreenshotOptions().setPath(Chromium.SHOTS.resolve("oidc-audit-en.png")));

                // a form still needs its CSRF token with this kind of session
                assertThat(context.request().post(root + "/logout", RequestOptions
                        .create().setMaxRedirects(0).setForm(FormData.create()
                                .set("csrf", "forged"))).status()).isEqualTo(403);

                page.navigate(root + "/");
                page.waitForNavigation(() -> page.click("form.logout button"));
                try {
                    page.waitForURL(u -> u.startsWith(root + "/login"), new Page.WaitForURLOptions().setTimeout(15_000));
                    page.waitForSelector("h1");
                } catch (TimeoutError e) {
                    throw new AssertionError("signed out to " + page.url() + ": " + page.textContent("body"), e);
                }
                assertThat(page.textContent("main")).contains("identity provider");
                // the provider's session ended too: signing in again asks for the password
                page.navigate(root + "/");
                page.waitForURL("**/realms/vigie/**");
                assertThat(page.isVisible("#password")).isTrue();
            }
            try (BrowserContext context = browser.newContext()) {
                Page page = signIn(context, root + "/", kc, "ali", "ali-tests-password");
                assertThat(page.textContent("span.user")).isEqualTo("ali");
                assertThat(page.navigate(root + "/audit").status()).isEqualTo(403);  // an analyst: not the trail
                assertThat(page.navigate(root + "/register").status()).isEqualTo(200);
            }
        }
    }

    private static Page signIn(BrowserContext context, String url, Keycloak kc, String user, String password) {
        Page page = context.newPage();
        page.navigate(url);
        assertThat(page.url()).startsWith(kc.issuer() + "/protocol/openid-connect/auth");
        page.fill("#username", user);
        page.fill("#password", password);
        page.waitForNavigation(() -> page.click("#kc-login"));
        page.waitForURL(u -> !u.startsWith(kc.issuer()));
        return page;
    }
}
