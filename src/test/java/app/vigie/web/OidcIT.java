package app.vigie.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Response;
import com.microsoft.playwright.TimeoutError;
import com.microsoft.playwright.options.Cookie;
import com.microsoft.playwright.options.FormData;
import com.microsoft.playwright.options.RequestOptions;

import app.vigie.testing.Chromium;
import app.vigie.testing.Keycloak;
import app.vigie.testing.ServiceProcess;

/**
 * Production sign-in through an OpenID Connect provider: the packaged service with VIGIE_OIDC_ISSUER set to a real
 * Keycloak whose users may edit their username. The pages send the browser to the provider and back (authorization
 * code flow); a user is its issuer and subject: the account bound to them, or, bound to none, the staff roles of the
 * ID token's vigie_roles claim, never a customer's tenant; forms keep their CSRF check; signing out ends the session
 * in Vigie (any copy of its cookie) and the provider's; the API still takes HTTP Basic and answers 401, never a
 * redirect.
 */
class OidcIT {
    private static final String ADMIN_PASSWORD = "oidc-it-admin-password";
    private static final String ADMIN = "admin:" + ADMIN_PASSWORD;

    private static Keycloak kc;
    private static ServiceProcess service;
    private static Chromium chromium;
    private static String root;

    @BeforeAll
    static void start() throws Exception {
        Path tmp = Files.createTempDirectory("vigie-oidc-it");
        kc = Keycloak.start(tmp);
        service = new ServiceProcess(tmp.resolve("data"), Map.of(
                "VIGIE_ADMIN_PASSWORD", ADMIN_PASSWORD, "VIGIE_OIDC_ISSUER", kc.issuer(),
                "VIGIE_OIDC_CLIENT_SECRET", "tests-only-client-secret")).start();
        chromium = Chromium.launch();
        root = "http://localhost:" + service.port();
        // acme's customer account in Vigie (a password for the API; the pages sign in through the provider)
        assertThat(service.send("PUT", "/api/accounts/acme-dpo", """
                {"password": "acme-dpo-tests-password", "roles": ["customer"], "tenant": "acme"}""", ADMIN)
                .statusCode()).isEqualTo(200);
    }

    @AfterAll
    static void stop() throws Exception {
        if (chromium != null) {
            chromium.close();
        }
        if (service != null) {
            service.close();
        }
        if (kc != null) {
            kc.close();
        }
    }

    @Test
    void thePagesSignInThroughTheProviderAndTheApiKeepsBasic() throws Exception {
        HttpResponse<String> api = service.get("/api/incidents", null);
        assertThat(api.statusCode()).isEqualTo(401);
        assertThat(api.headers().firstValue("content-type").orElse("")).contains("application/problem+json");
        assertThat(service.get("/api/incidents", ADMIN).statusCode()).isEqualTo(200);

        Browser browser = chromium.browser();
        try (BrowserContext context = browser.newContext(new Browser.NewContextOptions().setLocale("en-GB"))) {
            Page page = signIn(context, root + "/", "dana", "dana-tests-password");
            assertThat(page.url()).isEqualTo(root + "/");
            assertThat(page.textContent("h1")).isEqualTo("Open incidents");
            // bound to no account: the claim's staff role, under a name holding the subject (no account has it)
            assertThat(page.textContent("span.user")).isEqualTo("dana (oidc:" + kc.userId("dana") + ")");
            assertThat(page.navigate(root + "/audit").status()).isEqualTo(200);  // dpo: the audit trail
            page.screenshot(new Page.ScreenshotOptions().setPath(Chromium.SHOTS.resolve("oidc-audit-en.png")));

            // a form still needs its CSRF token with this kind of session
            assertThat(context.request().post(root + "/logout", RequestOptions
                    .create().setMaxRedirects(0).setForm(FormData.create()
                            .set("csrf", "forged"))).status()).isEqualTo(403);

            page.navigate(root + "/");
            signOut(page);
            assertThat(page.textContent("main")).contains("identity provider");
            // the provider's session ended too: signing in again asks for the password
            page.navigate(root + "/");
            page.waitForURL("**/realms/vigie/**");
            assertThat(page.isVisible("#password")).isTrue();
        }
        try (BrowserContext context = browser.newContext()) {
            Page page = signIn(context, root + "/", "ali", "ali-tests-password");
            assertThat(page.textContent("span.user")).startsWith("ali");
            assertThat(page.navigate(root + "/audit").status()).isEqualTo(403);  // an analyst: not the trail
            assertThat(page.navigate(root + "/register").status()).isEqualTo(200);
        }
    }

    /**
     * A copy of the session cookie taken before sign-out (a shared computer, a stolen cookie) opens nothing after
     * it: the session ended in Vigie, not only in the browser that signed out.
     */
    @Test
    void afterSignOutACopyOfTheSessionCookieAsksToSignInAgain() throws Exception {
        Browser browser = chromium.browser();
        List<Cookie> copy;
        try (BrowserContext context = browser.newContext(new Browser.NewContextOptions().setLocale("en-GB"))) {
            Page page = signIn(context, root + "/", "ali", "ali-tests-password");
            assertThat(page.textContent("h1")).isEqualTo("Open incidents");
            copy = context.cookies(root).stream().filter(c -> c.name.startsWith("q_session")).toList();
            assertThat(copy).isNotEmpty();
            signOut(page);
        }
        try (BrowserContext context = browser.newContext(new Browser.NewContextOptions().setLocale("en-GB"))) {
            context.addCookies(copy);
            Page page = context.newPage();
            Response answer = page.navigate(root + "/");
            // Vigie's sign-in page, whose button leads to the provider, which asks for the password (its session
            // ended too): the copied cookie was dropped, nothing of the old session is left
            assertThat(page.url()).as("the page answered %s: %s", answer == null ? null : answer.status(),
                    page.textContent("body")).isEqualTo(root + "/login");
            assertThat(page.textContent("main")).contains("identity provider");
            page.waitForNavigation(() -> page.click("main a.button"));
            page.waitForURL("**/realms/vigie/**");
            assertThat(page.isVisible("#password")).isTrue();
            assertThat(context.cookies(root)).noneMatch(c -> c.name.startsWith("q_session"));
        }
    }

    /**
     * The attack of issue 41: a user of the provider renames itself to the name of acme's customer account. It must
     * get nothing of acme: not its portal, not its alerts.
     */
    @Test
    void aUserRenamedToAnotherAccountsUsernameGetsNothingOfThatAccount() throws Exception {
        kc.rename("mallory", "acme-dpo");
        try (BrowserContext context = chromium.browser().newContext(new Browser.NewContextOptions()
                .setLocale("en-GB"))) {
            Page page = signIn(context, root + "/portal", "acme-dpo", "mallory-tests-password");
            Response portal = page.navigate(root + "/portal");
            String body = page.textContent("body");
            assertThat(portal.status()).as("the portal answered: %s", body).isEqualTo(403);
            assertThat(body).doesNotContain("acme");
            assertThat(page.navigate(root + "/portal/incidents/1").status()).isEqualTo(403);
        } finally {
            kc.rename("acme-dpo", "mallory");
        }
    }

    /**
     * acme's customer account bound to carol's identity at the provider (issuer and subject, by the admin API): carol
     * reads acme's portal, and still does once she has renamed herself; unbound, she reads nothing of it.
     */
    @Test
    void theBoundUserStillSignsInWhateverItsUsername() throws Exception {
        String carol = kc.userId("carol");
        HttpResponse<String> bound = service.send("PUT", "/api/accounts/acme-dpo/oidc", "{\"subject\": \"" + carol
                + "\"}", ADMIN);
        assertThat(bound.statusCode()).as(bound.body()).isEqualTo(200);
        assertThat(bound.body()).contains(kc.issuer()).contains(carol);
        assertThat(service.get("/api/audit-trail?target=account:acme-dpo&action=account.oidc-bound", ADMIN).body())
                .contains(carol);
        try (BrowserContext context = chromium.browser().newContext(new Browser.NewContextOptions()
                .setLocale("en-GB"))) {
            Page page = signIn(context, root + "/portal", "carol", "carol-tests-password");
            assertThat(page.url()).isEqualTo(root + "/portal");
            assertThat(page.textContent("span.user")).isEqualTo("acme-dpo");
            assertThat(page.textContent("h1")).contains("(acme)");
        }
        kc.rename("carol", "carol-renamed");
        try (BrowserContext context = chromium.browser().newContext(new Browser.NewContextOptions()
                .setLocale("en-GB"))) {
            Page page = signIn(context, root + "/portal", "carol-renamed", "carol-tests-password");
            assertThat(page.textContent("span.user")).isEqualTo("acme-dpo");
            assertThat(page.textContent("h1")).contains("(acme)");

            // unbound: the very next request of the same session reads nothing of acme
            assertThat(service.send("DELETE", "/api/accounts/acme-dpo/oidc", "", ADMIN).statusCode())
                    .isEqualTo(204);
            assertThat(page.navigate(root + "/portal").status()).isEqualTo(403);
        } finally {
            kc.rename("carol-renamed", "carol");
        }
    }

    private static Page signIn(BrowserContext context, String url, String user, String password) {
        Page page = context.newPage();
        page.navigate(url);
        assertThat(page.url()).startsWith(kc.issuer() + "/protocol/openid-connect/auth");
        page.fill("#username", user);
        page.fill("#password", password);
        page.waitForNavigation(() -> page.click("#kc-login"));
        page.waitForURL(u -> !u.startsWith(kc.issuer()));
        return page;
    }

    private static void signOut(Page page) {
        page.waitForNavigation(() -> page.click("form.logout button"));
        try {
            page.waitForURL(u -> u.startsWith(root + "/login"), new Page.WaitForURLOptions().setTimeout(15_000));
            page.waitForSelector("h1");
        } catch (TimeoutError e) {
            throw new AssertionError("signed out to " + page.url() + ": " + page.textContent("body"), e);
        }
    }
}
