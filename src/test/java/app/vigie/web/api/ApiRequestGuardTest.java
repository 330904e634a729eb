package app.vigie.web.api;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.specification.RequestSpecification;

import app.vigie.testing.Api;

/**
 * A page on another site using a browser that holds Vigie's Basic credentials (cross-site POSTs, with and without a
 * body), and oversized or unmeasured bodies to the JSON endpoints.
 */
@QuarkusTest
class ApiRequestGuardTest {
    @TestHTTPResource("/")
    URI base;

    @ConfigProperty(name = "vigie.http.max-json-body-bytes")
    long max;

    private static String tenant() {
        String tenant = Api.uniquePrefix() + "-acme";
        Api.admin().contentType("application/json").body("{\"legal_name\":\"Acme\",\"country\":\"FR\"}")
                .put("/api/tenants/" + tenant).then().statusCode(200);
        return tenant;
    }

    /** The browser's request: the credentials it holds, none of a program's headers. */
    private static RequestSpecification browser() {
        return given().auth().preemptive().basic("admin", Api.ADMIN_PASSWORD);
    }

    @Test
    void aNoBodyPostNeedsAProgramsHeaderExceptTheStableFlush() {
        String tenant = tenant();
        browser().post("/api/tenants/" + tenant + "/webhook-secret").then().statusCode(403)
                .contentType("application/problem+json");
        browser().contentType("text/plain").body("x").post("/api/tenants/" + tenant + "/webhook-secret").then()
                .statusCode(403);
        browser().contentType("application/x-www-form-urlencoded").formParam("a", "b")
                .post("/api/alerts/deliveries/1/retry").then().statusCode(403);
        Api.admin().post("/api/tenants/" + tenant + "/webhook-secret").then().statusCode(200);
        // docs/api.md promises the bare flush; a program sends it so
        browser().post("/api/audit-log/flush").then().statusCode(200);
    }

    @Test
    void aRequestABrowserMarksCrossSiteIsRefused() {
        String tenant = tenant();
        browser().header("Origin", "https://evil.example").post("/api/audit-log/flush").then().statusCode(403)
                .contentType("application/problem+json");
        browser().header("Sec-Fetch-Site", "cross-site").header("X-Requested-With", "x")
                .post("/api/tenants/" + tenant + "/webhook-secret").then().statusCode(403);
        browser().header("Origin", "null").contentType("application/json").body("{\"legal_name\":\"A\",\"country\""
                + ":\"FR\"}").put("/api/tenants/" + tenant).then().statusCode(403);
        browser().header("Sec-Fetch-Site", "same-site").delete("/api/tenants/" + tenant).then().statusCode(403);
        // the same requests from this site, or from a program, go through
        browser().header("Sec-Fetch-Site", "same-origin").contentType("application/json")
                .body("{\"legal_name\":\"A\",\"country\":\"FR\"}").put("/api/tenants/" + tenant).then()
                .statusCode(200);
        browser().header("Origin", base.getScheme() + "://" + base.getAuthority()).header("X-Requested-With", "x")
                .post("/api/tenants/" + tenant + "/webhook-secret").then().statusCode(200);
    }

    @Test
    void jsonBodiesAreBoundedAndMeasured() throws Exception {
        String tenant = Api.uniquePrefix() + "-acme";
        String big = "{\"legal_name\":\"" + "a".repeat((int) max) + "\",\"country\":\"FR\"}";
        Api.admin().contentType("application/json").body(big).put("/api/tenants/" + tenant).then().statusCode(413)
                .contentType("application/problem+json");
        // the audit log keeps its own, larger limit
        Api.admin().contentType(Api.NDJSON).body(("not json\n").repeat((int) (max / 9) + 1000).getBytes(StandardCharsets.UTF_8))
                .post("/api/audit-log").then().statusCode(200);
        // a body without its length (chunked) is refused before it is read
        HttpResponse<String> chunked = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build().send(HttpRequest.newBuilder(base.resolve(
                "/api/tenants/" + tenant)).header("Authorization", "Basic " + Base64.getEncoder().encodeToString(
                        ("admin:" + Api.ADMIN_PASSWORD).getBytes(StandardCharsets.UTF_8)))
                .header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofInputStream(
                        () -> new ByteArrayInputStream("{\"legal_name\":\"A\",\"country\":\"FR\"}".getBytes(
                                StandardCharsets.UTF_8)))).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(chunked.statusCode()).isEqualTo(411);
    }

    @Test
    void noLineBreakReachesAMailHeader() {
        String tenant = Api.uniquePrefix() + "-acme";
        for (String body : new String[] {"{\"legal_name\":\"Acme\\r\\nBcc: all@evil.example\",\"country\":\"FR\"}",
            "{\"legal_name\":\"Acme\",\"country\":\"FR\",\"dpo\":{\"email\":\"dpo@acme.example\\r\\nBcc: x@evil"
                    + ".example\"}}",
            "{\"legal_name\":\"Acme\",\"country\":\"FR\",\"alert_channels\":[{\"type\":\"email\",\"target\":"
                    + "\"a@acme.example\\nBcc: x@evil.example\"}]}"}) {
            Api.admin().contentType("application/json").body(body).put("/api/tenants/" + tenant).then()
                    .statusCode(400).contentType("application/problem+json");
        }
    }
}
