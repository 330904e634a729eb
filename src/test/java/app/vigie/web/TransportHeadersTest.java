package app.vigie.web;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

import app.vigie.cli.VigieMain;
import app.vigie.platform.Mode;
import app.vigie.testing.Api;

/**
 * What a shared cache or a proxy could keep or see: answers with personal and incident data are never stored; behind
 * the TLS proxy the test profile trusts (127.0.0.1), the session and CSRF cookies are Secure.
 */
@QuarkusTest
class TransportHeadersTest {
    @Test
    void answersWithDataAreNeverStoredAndTheStylesheetMayBe() {
        assertThat(Api.admin().get("/api/incidents").header("Cache-Control")).isEqualTo("no-store");
        assertThat(Api.admin().get("/api/register/export.pdf").then().statusCode(200).extract()
                .header("Cache-Control")).isEqualTo("no-store");
        assertThat(given().get("/login").header("Cache-Control")).isEqualTo("no-store");
        assertThat(given().redirects().follow(false).get("/incidents").header("Cache-Control")).isEqualTo("no-store");
        Response css = given().get("/static/vigie.css");
        css.then().statusCode(200);
        assertThat(css.header("Cache-Control")).isNotEqualTo("no-store");
    }

    @Test
    void cookiesAreSecureBehindATrustedTlsProxy() {
        String p = Api.uniquePrefix();
        Api.account(p + "-dpo", "dpo", null);
        Response viaProxy = given().redirects().follow(false).header("X-Forwarded-Proto", "https")
                .contentType("application/x-www-form-urlencoded").formParam("j_username", p + "-dpo")
                .formParam("j_password", p + "-dpo-password").post("/j_security_check");
        assertThat(viaProxy.statusCode()).isEqualTo(302);
        assertThat(setCookie(viaProxy, "vigie-session")).contains("Secure").containsIgnoringCase("HttpOnly");
        Response page = given().redirects().follow(false).header("X-Forwarded-Proto", "https")
                .cookies(viaProxy.cookies()).get("/");
        assertThat(setCookie(page, "vigie-csrf")).contains("Secure");
        // plain http, no proxy: nothing claims https
        Response direct = given().redirects().follow(false).contentType("application/x-www-form-urlencoded")
                .formParam("j_username", p + "-dpo").formParam("j_password", p + "-dpo-password")
                .post("/j_security_check");
        assertThat(setCookie(direct, "vigie-session")).doesNotContain("Secure");
    }

    @Test
    void theLauncherBelievesForwardedHeadersOnlyFromNamedProxiesAndAsksForHttpsInProduction() {
        assertThat(VigieMain.proxyAndTransport(Map.of(), Mode.EMBEDDED))
                .isEmpty();
        Map<String, String> behind = VigieMain.proxyAndTransport(
                Map.of("VIGIE_TRUSTED_PROXIES", "10.0.0.0/8"), Mode.PRODUCTION);
        assertThat(behind).containsEntry("quarkus.http.proxy.trusted-proxies", "10.0.0.0/8")
                .containsEntry("quarkus.http.proxy.proxy-address-forwarding", "true")
                .containsEntry("quarkus.http.header.\"Strict-Transport-Security\".value", "max-age=31536000");
    }

    private static String setCookie(Response r, String name) {
        List<String> all = r.headers().getValues("Set-Cookie");
        return all.stream().filter(c -> c.startsWith(name + "=")).findFirst()
                .orElseThrow(() -> new AssertionError("no " + name + " cookie in " + all));
    }
}
