package app.vigie.security;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;

import app.vigie.testing.Api;

/**
 * Every endpoint of the API and every page, for every role and for a visitor without credentials: the roles allowed
 * get past authorization (whatever the answer to their input), every other role gets 403, the visitor 401 on the
 * API and the sign-in form on the pages. A customer account (bound to a tenant of the incident) reaches nothing of
 * it yet: its portal comes with issue 8.
 */
@QuarkusTest
class AuthorizationMatrixTest {
    private static final Set<String> READERS = Set.of("admin", "dpo", "analyst", "auditor");
    private static final Set<String> WRITERS = Set.of("admin", "dpo", "analyst");
    private static final Set<String> AUDIT = Set.of("admin", "dpo", "auditor");
    private static final List<String> ROLES = List.of("admin", "dpo", "analyst", "auditor", "customer", "ingest");

    /** One endpoint and the roles that may use it. */
    record Endpoint(String method, String path, String body, Set<String> allowed) {
    }

    @Test
    void everyEndpointAnswersEachRoleAsItsRulesSay() throws Exception {
        String p = Api.uniquePrefix();
        String victim = p + "-acme";
        String id = Api.leakingIncident(p, victim, p + "-globex");
        Map<String, String> users = Map.of("dpo", p + "-dpo", "analyst", p + "-analyst", "auditor", p + "-auditor",
                "customer", p + "-customer", "ingest", p + "-ingest");
        users.forEach((role, user) -> Api.account(user, role, role.equals("customer") ? victim : null));
        String inc = "/api/incidents/" + id;
        String t = inc + "/tenants/" + victim;
        String json = "{}";
        List<Endpoint> endpoints = List.of(
                new Endpoint("POST", "/api/audit-log", "", Set.of("admin", "ingest")),
                new Endpoint("POST", "/api/audit-log/flush", "", Set.of("admin", "ingest", "dpo", "analyst")),
                new Endpoint("GET", "/api/streams", null, Set.of("admin", "dpo", "analyst", "auditor", "ingest")),
                new Endpoint("GET", "/api/quarantine", null, READERS),
                new Endpoint("GET", "/api/incidents", null, READERS),
                new Endpoint("GET", inc, null, READERS),
                new Endpoint("GET", inc + "/exposures", null, READERS),
                new Endpoint("GET", inc + "/tenants", null, READERS),
                new Endpoint("GET", inc + "/findings", null, READERS),
                new Endpoint("POST", inc + "/status", json, WRITERS),
                new Endpoint("GET", inc + "/measures", null, READERS),
                new Endpoint("POST", inc + "/measures", json, WRITERS),
                new Endpoint("GET", inc + "/obligations", null, READERS),
                new Endpoint("GET", inc + "/case", null, READERS),
                new Endpoint("PUT", inc + "/decisions/significant", json, WRITERS),
                new Endpoint("POST", inc + "/obligations/nis2-23-4a/csirt:FR/completions", json, WRITERS),
                new Endpoint("GET", inc + "/escalations", null, READERS),
                new Endpoint("GET", inc + "/documents/incident-report.json", null, READERS),
                new Endpoint("GET", t + "/obligations", null, READERS),
                new Endpoint("GET", t + "/case", null, READERS),
                new Endpoint("PUT", t + "/awareness", json, WRITERS),
                new Endpoint("PUT", t + "/decisions/unlikely_risk", json, WRITERS),
                new Endpoint("PUT", t + "/severity", json, WRITERS),
                new Endpoint("POST", t + "/obligations/gdpr-33-5/register/completions", json, WRITERS),
                new Endpoint("GET", t + "/statements", null, READERS),
                new Endpoint("PUT", t + "/statements", json, WRITERS),
                new Endpoint("GET", t + "/documents/processor-alert.json", null, READERS),
                new Endpoint("GET", t + "/documents/authority-notification/versions", null, READERS),
                new Endpoint("POST", t + "/documents/authority-notification/versions", null, WRITERS),
                new Endpoint("GET", t + "/documents/authority-notification/versions/1.json", null, READERS),
                new Endpoint("GET", "/api/escalations", null, READERS),
                new Endpoint("GET", "/api/register", null, READERS),
                new Endpoint("POST", "/api/register", json, WRITERS),
                new Endpoint("GET", "/api/register/verify", null, READERS),
                new Endpoint("GET", "/api/register/export.csv", null, READERS),
                new Endpoint("GET", "/api/tenants", null, READERS),
                new Endpoint("GET", "/api/tenants/" + victim, null, READERS),
                new Endpoint("PUT", "/api/tenants/" + p + "-new", json, Set.of("admin", "dpo")),
                new Endpoint("DELETE", "/api/tenants/" + p + "-none", null, Set.of("admin", "dpo")),
                new Endpoint("GET", "/api/audit-trail", null, AUDIT),
                new Endpoint("GET", "/api/alerts", null, READERS),
                new Endpoint("POST", "/api/alerts/deliveries/999999999/retry", null, Set.of("admin", "dpo")),
                new Endpoint("POST", "/api/alerts/999999999/acknowledgement", null,
                        Set.of("admin", "dpo", "analyst", "customer")),
                new Endpoint("GET", "/api/tenants/" + victim + "/webhook-secret", null, Set.of("admin", "dpo")),
                new Endpoint("POST", "/api/tenants/" + p + "-none/webhook-secret", null, Set.of("admin", "dpo")),
                new Endpoint("GET", "/api/audit-trail/export.csv", null, AUDIT),
                new Endpoint("GET", "/api/accounts", null, Set.of("admin")),
                new Endpoint("PUT", "/api/accounts/" + p + "-new", json, Set.of("admin")));

        List<String> wrong = new ArrayList<>();
        for (Endpoint e : endpoints) {
            int anonymous = send(given(), e).statusCode();
            if (anonymous != 401) {
                wrong.add("anonymous " + e.method() + " " + e.path() + " -> " + anonymous);
            }
            for (String role : ROLES) {
                RequestSpecification as = role.equals("admin") ? Api.admin()
                        : Api.as(users.get(role), users.get(role) + "-password");
                int status = send(as, e).statusCode();
                boolean allowed = e.allowed().contains(role);
                if (allowed ? status == 401 || status == 403 : status != 403) {
                    wrong.add(role + " " + e.method() + " " + e.path() + " -> " + status + " (expected "
                            + (allowed ? "to pass" : "403") + ")");
                }
            }
        }
        assertThat(wrong).isEmpty();

        // the pages: the sign-in form for a visitor; each page for its roles only
        Map<String, Set<String>> pages = new java.util.LinkedHashMap<>();
        for (String page : List.of("/", "/incidents", "/incidents/" + id, "/incidents/" + id + "/tenants/" + victim
                + "/documents/processor-alert.json", "/incidents/" + id + "/documents/incident-report.json",
                "/register", "/register/export.csv", "/tenants", "/quarantine", "/alerts")) {
            pages.put(page, READERS);
        }
        pages.put("/audit", AUDIT);
        pages.put("/portal", Set.of("customer"));  // admin holds every role but no tenant: 403 there too
        pages.put("/portal/incidents/" + id, Set.of("customer"));
        pages.put("/audit/export.csv", AUDIT);
        for (String page : pages.keySet()) {
            assertThat(given().redirects().follow(false).get(page).then().statusCode(302).extract().header("Location"))
                    .as(page).endsWith("/login");
        }
        assertThat(given().redirects().follow(false).get("/events").then().statusCode(302).extract()
                .header("Location")).endsWith("/login");
        // the action forms: a visitor is sent to sign in, nothing changes
        assertThat(given().redirects().follow(false).contentType("application/x-www-form-urlencoded")
                .formParam("status", "DISMISSED").formParam("reason", "x").post("/incidents/" + id + "/status")
                .then().statusCode(302).extract().header("Location")).endsWith("/login");
        for (String role : ROLES) {
            String user = role.equals("admin") ? "admin" : users.get(role);
            String password = role.equals("admin") ? Api.ADMIN_PASSWORD : user + "-password";
            Map<String, String> cookies = given().redirects().follow(false)
                    .contentType("application/x-www-form-urlencoded").formParam("j_username", user).formParam("j_password", password).post("/j_security_check")
                    .then().statusCode(302).extract().cookies();
            for (Map.Entry<String, Set<String>> page : pages.entrySet()) {
                int status = given().redirects().follow(false).cookies(cookies).get(page.getKey()).statusCode();
                int expected = page.getValue().contains(role) ? 200
                        : page.getKey().equals("/") && role.equals("customer") ? 303 : 403;  // a customer: its portal
                if (status != expected) {
                    wrong.add(role + " GET page " + page.getKey() + " -> " + status);
                }
            }
            // the pushed updates: a stream for the readers (its headers are enough), 403 for the others
            int events = eventsStatus(cookies);
            if (events != (READERS.contains(role) ? 200 : 403)) {
                wrong.add(role + " GET /events -> " + events);
            }
            // a form post by a role that may not act is refused before its token is even looked at
            int post = given().redirects().follow(false).cookies(cookies)
                    .contentType("application/x-www-form-urlencoded").formParam("text", "x")
                    .post("/incidents/" + id + "/measures").statusCode();
            if (post != 403) {
                wrong.add(role + " POST /incidents/{id}/measures without a token -> " + post);
            }
        }
        // a customer of the recipient tenant reaching for the victim's data, through the API and the pages
        String other = p + "-customer-globex";
        Api.account(other, "customer", p + "-globex");
        for (Endpoint e : endpoints) {
            if (e.path().startsWith(t) && e.method().equals("GET")) {
                int status = send(Api.as(other, other + "-password"), e).statusCode();
                if (status != 403) {
                    wrong.add("customer of " + p + "-globex GET " + e.path() + " -> " + status);
                }
            }
        }
        Map<String, String> otherCookies = given().redirects().follow(false)
                .contentType("application/x-www-form-urlencoded").formParam("j_username", other)
                .formParam("j_password", other + "-password").post("/j_security_check").then().statusCode(302)
                .extract().cookies();
        int doc = given().redirects().follow(false).cookies(otherCookies).get("/incidents/" + id + "/tenants/" + victim
                + "/documents/processor-alert.pdf").statusCode();
        if (doc != 403) {
            wrong.add("customer of " + p + "-globex GET the victim's processor alert page -> " + doc);
        }
        assertThat(wrong).isEmpty();
        assertThat(Api.admin().get(inc + "/measures").then().statusCode(200).extract().jsonPath().getList("$"))
                .as("no measure recorded by any refused post").isEmpty();
    }

    /** The status of GET /events with these cookies, read from its headers (the stream itself never ends). */
    private static int eventsStatus(Map<String, String> cookies) throws Exception {
        java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
        String cookie = String.join("; ", cookies.entrySet().stream().map(c -> c.getKey() + "=" + c.getValue())
                .toList());
        java.net.http.HttpResponse<java.io.InputStream> r = http.send(java.net.http.HttpRequest.newBuilder(
                java.net.URI.create(io.restassured.RestAssured.baseURI + ":" + io.restassured.RestAssured.port
                        + "/events")).header("Cookie", cookie).timeout(java.time.Duration.ofSeconds(20)).build(),
                java.net.http.HttpResponse.BodyHandlers.ofInputStream());
        r.body().close();
        return r.statusCode();
    }

    private static Response send(RequestSpecification spec, Endpoint e) {
        RequestSpecification s = spec.redirects().follow(false);
        if (e.body() != null) {
            s = s.contentType(e.path().equals("/api/audit-log") ? Api.NDJSON : "application/json")
                    .body(e.body().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        return switch (e.method()) {
            case "GET" -> s.get(e.path());
            case "POST" -> s.post(e.path());
            case "PUT" -> s.put(e.path());
            default -> s.delete(e.path());
        };
    }
}
