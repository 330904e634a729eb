package app.vigie.security;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.stream.Stream;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;

import app.vigie.alert.AckLinks;
import app.vigie.testing.Api;
import app.vigie.testing.Logs;
import app.vigie.testing.WebhookReceiver;
import app.vigie.web.DashboardActionsTest;
import app.vigie.web.DashboardActionsTest.Browser;

/**
 * Every endpoint of the API and every page and form of the dashboard and the portal, for every role and for a
 * visitor without credentials. A role allowed gets the endpoint's success answer (its exact status: 200, 201, 204,
 * 303) to a valid request of its own, so that anything else (a 500, a 404, a 409 of a request made twice) fails;
 * every other role gets 403; the visitor 401 on the API and the sign-in form on the pages. Where a change happens
 * once only, each role acts on its own object: its own incident, tenant, account, dead delivery. A customer account
 * (bound to the victim tenant) reaches only its alert's acknowledgement in the API, and its portal; admin holds
 * every role but no tenant, so the portal refuses it.
 */
@QuarkusTest
class AuthorizationMatrixTest {
    private static final Set<String> READERS = Set.of("admin", "dpo", "analyst", "auditor");
    private static final Set<String> WRITERS = Set.of("admin", "dpo", "analyst");
    private static final Set<String> AUDIT = Set.of("admin", "dpo", "auditor");
    private static final Set<String> DPO = Set.of("admin", "dpo");
    private static final Set<String> CUSTOMER = Set.of("customer");
    private static final List<String> ROLES = List.of("admin", "dpo", "analyst", "auditor", "customer", "ingest");
    private static final String JSON = "application/json";
    private static final String FORM = "application/x-www-form-urlencoded";

    /**
     * One endpoint: its path and body for a role (a role acting once only has its own target), the roles that may
     * use it and the status they get. A null body: none sent.
     */
    record Endpoint(String method, Function<String, String> pathForRole, Function<String, String> bodyForRole,
            Set<String> allowed, int success) {

        static Endpoint get(String path, Set<String> allowed) {
            return new Endpoint("GET", r -> path, r -> null, allowed, 200);
        }

        String path(String role) {
            return pathForRole.apply(role);
        }

        String body(String role) {
            return bodyForRole.apply(role);
        }
    }

    /** One form of the pages, posted with the browser's CSRF token: its path and fields for a role. */
    record Form(Function<String, String> pathForRole, Function<String, Object[]> fieldsForRole, Set<String> allowed,
            int success) {
    }

    @Inject
    AgroalDataSource dataSource;

    @Test
    void everyEndpointAnswersEachRoleAsItsRulesSay() throws Exception {
        // a receiver given no secret: it answers 401 to every delivery, which therefore ends DEAD
        try (WebhookReceiver refusing = new WebhookReceiver()) {
            check(refusing);
        }
    }

    /** The endpoints the matrix must cover are found by reflection, and matched to the calls made. */
    @Test
    void everyJaxRsEndpointIsFoundToBeChecked() {
        Set<String> all = JaxRsEndpoints.all();
        assertThat(all).contains("GET /api/retention", "POST /api/retention/run",
                "POST /api/incidents/counters/recount",
                "GET /api/incidents/{id}/evidence-check", "POST /tenants/import", "GET /", "GET /ack/{token}");
        assertThat(JaxRsEndpoints.matches("GET /api/incidents/{id}/evidence-check",
                "GET /api/incidents/0b1c/evidence-check")).isTrue();
        assertThat(JaxRsEndpoints.matches("GET /api/incidents/{id}", "GET /api/incidents/0b1c/evidence-check"))
                .isFalse();
        assertThat(JaxRsEndpoints.matches("GET /api/register/export.pdf", "GET /api/register/export.pdf?register=a"))
                .isTrue();
    }

    private void check(WebhookReceiver refusing) throws Exception {
        String p = Api.uniquePrefix();
        String victim = p + "-acme";
        String reader = p + "-globex";
        String deadTenant = p + "-dead";
        Map<String, String> users = new LinkedHashMap<>();
        for (String role : ROLES) {
            users.put(role, role.equals("admin") ? "admin" : p + "-" + role);
        }
        users.forEach((role, user) -> {
            if (!role.equals("admin")) {
                Api.account(user, role, role.equals("customer") ? victim : null);
            }
        });

        // the directory: the victim (mapped, so that its GDPR duties exist), a tenant to delete per role, and a
        // tenant whose 4 webhooks all fail (a DEAD delivery for each retry below)
        putTenant(victim, "{\"legal_name\":\"Acme SA\",\"country\":\"FR\"}");
        for (String role : DPO) {
            putTenant(p + "-del-" + role, "{\"legal_name\":\"To delete SA\",\"country\":\"FR\"}");
        }
        StringBuilder channels = new StringBuilder();
        for (int i = 0; i < 6; i++) {
            channels.append(i == 0 ? "" : ",").append("{\"type\":\"webhook\",\"target\":\"").append(refusing.url())
                    .append('/').append(i).append("\"}");
        }
        putTenant(deadTenant, "{\"legal_name\":\"Dead Letters SA\",\"country\":\"FR\",\"alert_channels\":["
                + channels + "]}");
        // a tenant with an e-mail channel, for the test alert (the real SMTP server accepts it)
        putTenant(p + "-mail", "{\"legal_name\":\"Mail SA\",\"country\":\"FR\",\"alert_channels\":[{\"type\":"
                + "\"email\",\"target\":\"soc@" + p + ".example\"}]}");
        String deadIncident = Api.leakingIncident(p + "-dl", deadTenant, reader);

        // the incident every role reads, and one incident per writer for what happens once only (a status change,
        // a non-repeatable completion)
        String id = Api.leakingIncident(p, victim, reader);
        Map<String, String> own = new HashMap<>();
        for (String role : List.of("admin", "dpo", "analyst")) {
            own.put(role, Api.leakingIncident(p + "-own-" + role, victim, reader));
        }
        Function<String, String> ownOf = r -> own.getOrDefault(r, id);
        Map<String, String> detected = new HashMap<>();
        for (String incident : Stream.concat(Stream.of(id), own.values().stream()).toList()) {
            detected.put(incident, Api.admin().get("/api/incidents/" + incident).then().statusCode(200).extract()
                    .path("detected_at"));
        }
        String detectedAt = detected.get(id);
        // a time valid for the role's own incident (not before its detection, not in the future)
        Function<String, String> at = r -> detected.get(ownOf.apply(r));
        String inc = "/api/incidents/" + id;
        String t = inc + "/tenants/" + victim;
        Function<String, String> ownInc = r -> "/api/incidents/" + ownOf.apply(r);

        // a quarantined record (a line that is not JSON)
        String batch = Api.admin().contentType(Api.NDJSON).body(("not json " + p + "\n")
                .getBytes(StandardCharsets.UTF_8)).post("/api/audit-log").then().statusCode(200).extract()
                .path("batch_id");
        Object kept = Api.admin().get("/api/quarantine?source=http&size=500").then().statusCode(200).extract()
                .jsonPath().get("items.find { it.source_name == '" + batch + "' }.id");
        assertThat(kept).as("the rejected line quarantined").isNotNull();
        String quarantined = kept.toString();

        // the victim's alert, its acknowledgement link's token; a first authority notification
        List<Map<String, Object>> victimAlerts = alerts(id, victim);
        assertThat(victimAlerts).as("the victim's alert").isNotEmpty();
        String alert = victimAlerts.get(0).get("id").toString();
        String ackToken = ackToken(Long.parseLong(alert));
        Api.admin().post(t + "/documents/authority-notification/versions").then().statusCode(201);

        // the failing tenant's deliveries, DEAD after their attempts: two for the API, two for the alerts page, two
        // for the incident page
        await("the 6 deliveries of " + deadTenant + " DEAD", () -> {
            List<Map<String, Object>> d = deliveries(deadIncident, deadTenant);
            return d.size() == 6 && d.stream().allMatch(x -> "DEAD".equals(x.get("status")));
        });
        List<Long> dead = deliveries(deadIncident, deadTenant).stream().map(x -> ((Number) x.get("id")).longValue())
                .sorted().toList();
        Map<String, Long> apiRetry = Map.of("admin", dead.get(0), "dpo", dead.get(1));
        Map<String, Long> pageRetry = Map.of("admin", dead.get(2), "dpo", dead.get(3));
        Map<String, Long> incidentRetry = Map.of("admin", dead.get(4), "dpo", dead.get(5));
        // a customer missing from the directory per DPO, added from its incident's page
        Map<String, String> unmapped = new HashMap<>();
        for (String role : DPO) {
            unmapped.put(role, Api.leakingIncident(p + "-map-" + role, p + "-unmapped-" + role, reader));
        }

        List<Endpoint> endpoints = List.of(
                // intake
                new Endpoint("POST", r -> "/api/audit-log", r -> Logs.body(Logs.stream(p + "/intake-" + r, 1)),
                        Set.of("admin", "ingest"), 200),
                new Endpoint("POST", r -> "/api/audit-log/flush", r -> null, Set.of("admin", "ingest", "dpo",
                        "analyst"), 200),
                Endpoint.get("/api/streams", Set.of("admin", "dpo", "analyst", "auditor", "ingest")),
                Endpoint.get("/api/quarantine", READERS),
                Endpoint.get("/api/quarantine/" + quarantined, READERS),
                // incidents
                Endpoint.get("/api/incidents", READERS),
                Endpoint.get(inc, READERS),
                Endpoint.get(inc + "/exposures", READERS),
                Endpoint.get(inc + "/tenants", READERS),
                Endpoint.get(inc + "/findings", READERS),
                new Endpoint("POST", r -> ownInc.apply(r) + "/status", r -> "{\"status\":\"TRIAGED\"}", WRITERS, 200),
                Endpoint.get(inc + "/evidence-check", READERS),
                new Endpoint("POST", r -> "/api/incidents/counters/recount", r -> null, Set.of("admin"), 200),
                Endpoint.get(inc + "/measures", READERS),
                new Endpoint("POST", r -> inc + "/measures", r -> "{\"text\":\"Pool drained (API, " + r + ")\"}",
                        WRITERS, 201),
                // obligations
                new Endpoint("POST", r -> "/api/obligations/plan",
                        r -> "{\"incident\":{\"detected_at\":\"2026-03-28T23:30:00Z\"}}", READERS, 200),
                Endpoint.get(inc + "/obligations", READERS),
                Endpoint.get(inc + "/case", READERS),
                new Endpoint("PUT", r -> inc + "/decisions/significant",
                        r -> "{\"value\":true,\"justification\":\"authorization matrix\"}", WRITERS, 200),
                new Endpoint("POST", r -> ownInc.apply(r) + "/obligations/nis2-23-4a/csirt:FR/completions",
                        r -> "{\"done_at\":\"" + at.apply(r) + "\",\"evidence\":\"CERT-FR receipt " + r + "\"}",
                        WRITERS, 201),
                Endpoint.get(inc + "/escalations", READERS),
                Endpoint.get("/api/escalations", READERS),
                Endpoint.get(t + "/obligations", READERS),
                Endpoint.get(t + "/case", READERS),
                new Endpoint("PUT", r -> t + "/awareness",
                        r -> "{\"aware_at\":\"" + detectedAt + "\",\"evidence\":\"told by telephone\"}", WRITERS, 200),
                new Endpoint("PUT", r -> t + "/decisions/unlikely_risk",
                        r -> "{\"value\":false,\"justification\":\"authorization matrix\"}", WRITERS, 200),
                new Endpoint("PUT", r -> t + "/severity",
                        r -> "{\"override\":{\"level\":\"HIGH\",\"justification\":\"authorization matrix\"}}",
                        WRITERS, 200),
                new Endpoint("POST", r -> ownInc.apply(r) + "/tenants/" + victim
                        + "/obligations/gdpr-33-5/register/completions",
                        r -> "{\"done_at\":\"" + at.apply(r) + "\",\"evidence\":\"register entry " + r + "\"}",
                        WRITERS, 201),
                // documents and statements
                Endpoint.get(inc + "/documents/incident-report.json", READERS),
                Endpoint.get(t + "/statements", READERS),
                new Endpoint("PUT", r -> t + "/statements", r -> "{\"likely_consequences\":\"none known yet\","
                        + "\"data_categories\":[\"contact details\"]}", WRITERS, 200),
                Endpoint.get(t + "/documents/processor-alert.json", READERS),
                Endpoint.get(t + "/documents/authority-notification/versions", READERS),
                new Endpoint("POST", r -> t + "/documents/authority-notification/versions", r -> null, WRITERS, 201),
                Endpoint.get(t + "/documents/authority-notification/versions/1.json", READERS),
                Endpoint.get(inc + "/regulator-pack.zip", READERS),
                Endpoint.get(t + "/regulator-pack.zip", READERS),
                // register
                Endpoint.get("/api/register", READERS),
                new Endpoint("POST", r -> "/api/register",
                        r -> "{\"incident_id\":\"" + id + "\",\"tenant\":\"" + victim + "\"}", WRITERS, 201),
                Endpoint.get("/api/register/verify", READERS),
                Endpoint.get("/api/register/export.csv", READERS),
                Endpoint.get("/api/register/export.pdf?register=" + victim, READERS),
                // tenants
                Endpoint.get("/api/tenants", READERS),
                Endpoint.get("/api/tenants/" + victim, READERS),
                new Endpoint("PUT", r -> "/api/tenants/" + p + "-new-" + r,
                        r -> "{\"legal_name\":\"New " + r + " SA\",\"country\":\"FR\"}", DPO, 200),
                new Endpoint("DELETE", r -> "/api/tenants/" + p + "-del-" + r, r -> null, DPO, 204),
                Endpoint.get("/api/tenants/" + victim + "/webhook-secret", DPO),
                new Endpoint("POST", r -> "/api/tenants/" + victim + "/webhook-secret", r -> null, DPO, 200),
                new Endpoint("POST", r -> "/api/tenants/" + p + "-mail/test-alert", r -> null, DPO, 200),
                // settings: the test profile's identity put again (nothing changes)
                Endpoint.get("/api/settings/provider", READERS),
                new Endpoint("PUT", r -> "/api/settings/provider",
                        r -> "{\"legal_name\":\"Nuvola SAS\",\"contact\":\"soc@nuvola.example\"}", Set.of("admin"),
                        200),
                // audit trail
                Endpoint.get("/api/audit-trail", AUDIT),
                Endpoint.get("/api/audit-trail/export.csv?target=incident:" + id, AUDIT),
                // alerts
                Endpoint.get("/api/alerts", READERS),
                new Endpoint("POST", r -> "/api/alerts/deliveries/" + apiRetry.getOrDefault(r, apiRetry.get("admin"))
                        + "/retry", r -> null, DPO, 200),
                new Endpoint("POST", r -> "/api/alerts/" + alert + "/acknowledgement", r -> null,
                        Set.of("admin", "dpo", "analyst", "customer"), 200),  // once; a repeat changes nothing
                // retention
                Endpoint.get("/api/retention", AUDIT),
                new Endpoint("POST", r -> "/api/retention/run", r -> null, Set.of("admin"), 200),
                // accounts
                Endpoint.get("/api/accounts", Set.of("admin")),
                new Endpoint("PUT", r -> "/api/accounts/" + p + "-acct-" + r,
                        r -> "{\"password\":\"" + p + "-acct-" + r + "-password\",\"roles\":[\"auditor\"]}",
                        Set.of("admin"), 200),
                new Endpoint("PUT", r -> "/api/accounts/" + p + "-acct-" + r + "/oidc",
                        r -> "{\"issuer\":\"https://sso.example\",\"subject\":\"" + p + "-" + r + "\"}",
                        Set.of("admin"), 200),
                new Endpoint("DELETE", r -> "/api/accounts/" + p + "-acct-" + r + "/oidc", r -> null,
                        Set.of("admin"), 204),
                // the ingest account's scope: its own streams (the intake above writes under p + "/")
                new Endpoint("PUT", r -> "/api/accounts/" + users.get("ingest") + "/ingest-scope",
                        r -> "{\"stream_prefixes\":[\"" + p + "/\"]}", Set.of("admin"), 200),
                new Endpoint("DELETE", r -> "/api/accounts/" + users.get("ingest") + "/ingest-scope", r -> null,
                        Set.of("admin"), 204),
                // metrics (HTTP Basic, outside /api)
                Endpoint.get("/q/metrics", Set.of("admin", "auditor")));

        List<String> wrong = new ArrayList<>();
        for (Endpoint e : endpoints) {
            int anonymous = send(given(), e, "anonymous").statusCode();
            if (anonymous != 401) {
                wrong.add("anonymous " + e.method() + " " + e.path("anonymous") + " -> " + anonymous);
            }
            for (String role : ROLES) {
                RequestSpecification as = role.equals("admin") ? Api.admin()
                        : Api.as(users.get(role), password(users, role));
                Response r = send(as, e, role);
                int expected = e.allowed().contains(role) ? e.success() : 403;
                if (r.statusCode() != expected) {
                    wrong.add(role + " " + e.method() + " " + e.path(role) + " -> " + r.statusCode() + " (expected "
                            + expected + ")" + detail(r));
                }
            }
        }

        // the pages: the sign-in form for a visitor; each page for its roles only
        Map<String, Set<String>> pages = new LinkedHashMap<>();
        for (String page : List.of("/", "/incidents", "/incidents/" + id, "/incidents/" + id + "/tenants/" + victim
                + "/documents/processor-alert.json", "/incidents/" + id + "/documents/incident-report.json",
                "/incidents/" + id + "/regulator-pack.zip", "/incidents/" + id + "/tenants/" + victim
                + "/regulator-pack.zip", "/incidents/" + id + "/findings.csv", "/incidents/" + id + "/findings.json",
                "/tenants/export.yaml", "/tenants/export.csv",
                "/register", "/register/export.csv", "/register/export.pdf?register=" + victim, "/tenants",
                "/quarantine", "/alerts", "/settings")) {
            pages.put(page, READERS);
        }
        pages.put("/audit", AUDIT);
        pages.put("/audit/export.csv?target=incident:" + id, AUDIT);
        pages.put("/portal", CUSTOMER);  // admin holds every role but no tenant: 403 there too
        pages.put("/portal/incidents/" + id, CUSTOMER);
        pages.put("/portal/incidents/" + id + "/documents/processor-alert.html", CUSTOMER);
        pages.put("/portal/incidents/" + id + "/regulator-pack.zip", CUSTOMER);
        // the forms, each with a valid CSRF token; sign-out last (it ends the browser's session)
        List<Form> forms = List.of(
                new Form(r -> "/incidents/" + ownOf.apply(r) + "/status",
                        r -> new Object[] {"status", "CONFIRMED", "lang", "en"}, WRITERS, 303),
                new Form(r -> "/incidents/" + id + "/measures",
                        r -> new Object[] {"text", "Decode node drained (page, " + r + ")"}, WRITERS, 303),
                new Form(r -> "/incidents/" + ownOf.apply(r) + "/completions",
                        r -> new Object[] {"duty", victim + "|gdpr-33-1|supervisory_authority:FR", "done_at",
                                at.apply(r), "evidence", "CNIL receipt " + r}, WRITERS, 303),
                new Form(r -> "/alerts/deliveries/" + pageRetry.getOrDefault(r, pageRetry.get("admin")) + "/retry",
                        r -> new Object[] {"lang", "en"}, DPO, 303),
                new Form(r -> "/incidents/" + deadIncident + "/deliveries/" + incidentRetry.getOrDefault(r,
                        incidentRetry.get("admin")) + "/retry", r -> new Object[] {"lang", "en"}, DPO, 303),
                new Form(r -> "/incidents/" + id + "/decisions", r -> new Object[] {"decision", "|significant",
                        "value", "yes", "justification", "authorization matrix (page, " + r + ")"}, WRITERS, 303),
                new Form(r -> "/incidents/" + unmapped.getOrDefault(r, unmapped.get("admin")) + "/directory",
                        r -> new Object[] {"tenant", p + "-unmapped-" + (DPO.contains(r) ? r : "admin"), "legal_name",
                                "Unmapped " + r + " SA", "country", "FR"}, DPO, 303),
                new Form(r -> "/tenants/import/confirm", r -> new Object[] {"name", "t.yaml", "content",
                        "tenants:\n  - id: " + p + "-imported-" + r + "\n    legal_name: Imported SA\n    country: FR\n"},
                        DPO, 303),
                new Form(r -> "/tenants/test-alert", r -> new Object[] {"tenant", p + "-mail", "lang", "en"}, DPO, 200),
                new Form(r -> "/settings", r -> new Object[] {"legal_name", "Nuvola SAS", "contact",
                    "soc@nuvola.example", "lang", "en"}, Set.of("admin"), 303),
                new Form(r -> "/portal/incidents/" + id + "/questionnaire",
                        r -> new Object[] {"personal_data", "no", "lang", "en"}, CUSTOMER, 303),
                new Form(r -> "/portal/alerts/" + alert + "/acknowledgement", r -> new Object[] {"lang", "en"},
                        CUSTOMER, 303),
                new Form(r -> "/logout", r -> new Object[] {"lang", "en"}, Set.copyOf(ROLES), 303));

        for (String page : pages.keySet()) {
            Response r = given().redirects().follow(false).get(page);
            if (r.statusCode() != 302 || !String.valueOf(r.header("Location")).endsWith("/login")) {
                wrong.add("anonymous GET page " + page + " -> " + r.statusCode() + " " + r.header("Location"));
            }
        }
        Response anonymousEvents = given().redirects().follow(false).get("/events");
        if (anonymousEvents.statusCode() != 302 || !String.valueOf(anonymousEvents.header("Location"))
                .endsWith("/login")) {
            wrong.add("anonymous GET /events -> " + anonymousEvents.statusCode());
        }
        // the action forms: a visitor is sent to sign in, nothing changes
        for (Form f : forms) {
            RequestSpecification spec = given().redirects().follow(false).contentType(FORM);
            Object[] fields = f.fieldsForRole().apply("anonymous");
            for (int i = 0; i < fields.length; i += 2) {
                spec = spec.formParam((String) fields[i], fields[i + 1]);
            }
            String path = f.pathForRole().apply("anonymous");
            Response r = spec.post(path);
            if (r.statusCode() != 302 || !String.valueOf(r.header("Location")).endsWith("/login")) {
                wrong.add("anonymous POST page " + path + " -> " + r.statusCode() + " " + r.header("Location"));
            }
        }
        // the tenant import's preview (a multipart form): a visitor is sent to sign in too
        Response anonymousImport = importPreview(Map.of(), null, p + "-imp-anonymous");
        if (anonymousImport.statusCode() != 302 || !String.valueOf(anonymousImport.header("Location"))
                .endsWith("/login")) {
            wrong.add("anonymous POST page /tenants/import -> " + anonymousImport.statusCode());
        }
        // the public pages: sign-in, and an alert's acknowledgement link (its token is the proof)
        for (String page : List.of("/login", "/login-error", "/ack/" + ackToken)) {
            int status = given().redirects().follow(false).get(page).statusCode();
            if (status != 200) {
                wrong.add("anonymous GET " + page + " -> " + status);
            }
        }
        int acknowledged = given().redirects().follow(false).contentType(FORM).formParam("lang", "en")
                .post("/ack/" + ackToken).statusCode();
        if (acknowledged != 200) {
            wrong.add("anonymous POST /ack/{token} -> " + acknowledged);
        }

        // a signed-in browser per role, with its CSRF token; ingest has no page showing one: its token is made here
        // as the service makes it (checked against a token a page gave)
        Map<String, Browser> browsers = new LinkedHashMap<>();
        for (String role : ROLES) {
            String user = users.get(role);
            if (role.equals("ingest")) {
                Map<String, String> cookies = new HashMap<>(formSignIn(user, password(users, role)));
                byte[] random = new byte[32];
                new SecureRandom().nextBytes(random);
                String cookie = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
                cookies.put("vigie-csrf", cookie);
                browsers.put(role, new Browser(cookies, csrfToken(cookie, user)));
            } else {
                browsers.put(role, DashboardActionsTest.signIn(user, password(users, role),
                        role.equals("customer") ? "/portal" : "/"));
            }
        }
        Browser dpoBrowser = browsers.get("dpo");
        assertThat(csrfToken(dpoBrowser.cookies().get("vigie-csrf"), users.get("dpo")))
                .as("a token made as the service makes it").isEqualTo(dpoBrowser.token());

        for (String role : ROLES) {
            Browser b = browsers.get(role);
            for (Map.Entry<String, Set<String>> page : pages.entrySet()) {
                Response r = given().redirects().follow(false).cookies(b.cookies()).get(page.getKey());
                int expected = page.getValue().contains(role) ? 200
                        : page.getKey().equals("/") && role.equals("customer") ? 303 : 403;  // a customer: its portal
                if (r.statusCode() != expected) {
                    wrong.add(role + " GET page " + page.getKey() + " -> " + r.statusCode() + " (expected " + expected
                            + ")" + detail(r));
                }
            }
            // the pushed updates: a stream for the readers (its headers are enough), 403 for the others
            int events = eventsStatus(b.cookies());
            if (events != (READERS.contains(role) ? 200 : 403)) {
                wrong.add(role + " GET /events -> " + events);
            }
            // without its token, a form post is refused whoever posts it
            int post = given().redirects().follow(false).cookies(b.cookies()).contentType(FORM)
                    .formParam("text", "x").post("/incidents/" + id + "/measures").statusCode();
            if (post != 403) {
                wrong.add(role + " POST /incidents/{id}/measures without a token -> " + post);
            }
            // the tenant import's preview, a multipart form with its token: the page (200) for the DPO, 403 others
            Response preview = importPreview(b.cookies(), b.token(), p + "-imp-" + role);
            int expectedPreview = DPO.contains(role) ? 200 : 403;
            if (preview.statusCode() != expectedPreview) {
                wrong.add(role + " POST page /tenants/import -> " + preview.statusCode() + " (expected "
                        + expectedPreview + ")" + detail(preview));
            }
            // with its token: done (303) for the roles allowed, 403 for the others
            for (Form f : forms) {
                String path = f.pathForRole().apply(role);
                Object[] fields = Stream.concat(Arrays.stream(f.fieldsForRole().apply(role)),
                        Stream.of("csrf", b.token())).toArray();
                Response r = b.post(path, fields);
                int expected = f.allowed().contains(role) ? f.success() : 403;
                if (r.statusCode() != expected) {
                    wrong.add(role + " POST page " + path + " -> " + r.statusCode() + " (expected " + expected + ")"
                            + detail(r));
                }
            }
        }

        // a customer of the recipient tenant reaching for the victim's data, through the API and the pages
        String other = p + "-customer-globex";
        Api.account(other, "customer", reader);
        for (Endpoint e : endpoints) {
            String path = e.path("customer");
            if (path.startsWith(t) && e.method().equals("GET")) {
                int status = send(Api.as(other, other + "-password"), e, "customer").statusCode();
                if (status != 403) {
                    wrong.add("customer of " + reader + " GET " + path + " -> " + status);
                }
            }
        }
        Map<String, String> otherCookies = formSignIn(other, other + "-password");
        int doc = given().redirects().follow(false).cookies(otherCookies).get("/incidents/" + id + "/tenants/" + victim
                + "/documents/processor-alert.pdf").statusCode();
        if (doc != 403) {
            wrong.add("customer of " + reader + " GET the victim's processor alert page -> " + doc);
        }
        // every JAX-RS endpoint of the service is one of the above (a new one must be added to this matrix)
        List<String> exercised = new ArrayList<>();
        endpoints.forEach(e -> exercised.add(e.method() + " " + e.path("admin")));
        pages.keySet().forEach(page -> exercised.add("GET " + page));
        forms.forEach(f -> exercised.add("POST " + f.pathForRole().apply("admin")));
        exercised.addAll(List.of("GET /events", "POST /tenants/import", "GET /login", "GET /login-error",
                "GET /ack/" + ackToken, "POST /ack/" + ackToken));
        for (String endpoint : JaxRsEndpoints.all()) {
            if (exercised.stream().noneMatch(x -> JaxRsEndpoints.matches(endpoint, x))) {
                wrong.add("not in the matrix: " + endpoint);
            }
        }
        assertThat(wrong).isEmpty();
        assertThat(Api.admin().get(inc + "/measures").then().statusCode(200).extract().jsonPath()
                .getList("recorded_by", String.class))
                .as("one measure by the API and one by the page per writer, none by a refused post")
                .containsExactlyInAnyOrder("admin", "admin", users.get("dpo"), users.get("dpo"), users.get("analyst"),
                        users.get("analyst"));
    }

    private static final String BOUNDARY = "vigie-matrix-boundary-3Kd9wQx7";

    /** The tenant import's preview posted as a browser posts it (multipart), with {@code token} when not null. */
    private static Response importPreview(Map<String, String> cookies, String token, String tenant) {
        StringBuilder out = new StringBuilder();
        if (token != null) {
            out.append("--").append(BOUNDARY).append("\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\n")
                    .append(token).append("\r\n");
        }
        out.append("--").append(BOUNDARY).append("\r\nContent-Disposition: form-data; name=\"lang\"\r\n\r\nen\r\n");
        out.append("--").append(BOUNDARY).append("\r\nContent-Disposition: form-data; name=\"file\";"
                + " filename=\"t.yaml\"\r\nContent-Type: application/octet-stream\r\n\r\n").append("tenants:\n  - id: ").append(tenant)
                .append("\n    legal_name: Imported SA\n    country: FR\n").append("\r\n--").append(BOUNDARY)
                .append("--\r\n");
        return given().redirects().follow(false).cookies(cookies)
                .contentType("multipart/form-data; boundary=" + BOUNDARY)
                .body(out.toString().getBytes(StandardCharsets.UTF_8)).post("/tenants/import");
    }

    private static String password(Map<String, String> users, String role) {
        return role.equals("admin") ? Api.ADMIN_PASSWORD : users.get(role) + "-password";
    }

    private static void putTenant(String id, String json) {
        Api.admin().contentType(JSON).body(json).put("/api/tenants/" + id).then().statusCode(200);
    }

    /** The alerts of an incident to a tenant, as the API lists them. */
    private static List<Map<String, Object>> alerts(String incident, String tenant) {
        List<Map<String, Object>> all = Api.admin().get("/api/alerts?incident=" + incident).then().statusCode(200)
                .extract().jsonPath().getList("$");
        return all.stream().filter(a -> tenant.equals(a.get("tenant"))).toList();
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> deliveries(String incident, String tenant) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (Map<String, Object> a : alerts(incident, tenant)) {
            out.addAll((List<Map<String, Object>>) a.get("deliveries"));
        }
        return out;
    }

    /** The token of an alert's acknowledgement link (sent only to the customer's channels). */
    @Inject
    AckLinks ackLinks;

    private String ackToken(long alert) throws Exception {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement("select idempotency_key from customer_alert where id = ?")) {
            ps.setLong(1, alert);
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.next()).as("alert " + alert).isTrue();
                return ackLinks.ackToken(rs.getString(1));  // the database keeps only its hash
            }
        }
    }

    private static void await(String what, BooleanSupplier done) throws InterruptedException {
        long until = System.currentTimeMillis() + 30_000;
        while (!done.getAsBoolean()) {
            if (System.currentTimeMillis() > until) {
                throw new AssertionError("not in 30 s: " + what);
            }
            Thread.sleep(100);
        }
    }

    /** The cookies of a sign-in through the form. */
    private static Map<String, String> formSignIn(String user, String password) {
        return given().redirects().follow(false).contentType(FORM).formParam("j_username", user)
                .formParam("j_password", password).post("/j_security_check").then().statusCode(302).extract()
                .cookies();
    }

    /** The CSRF token of a browser holding {@code cookie} (vigie-csrf) for {@code user}, as Csrf makes it. */
    private static String csrfToken(String cookie, String user) throws Exception {
        String key = ConfigProvider.getConfig()
                .getValue("quarkus.http.auth.session.encryption-key", String.class);
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(("vigie-csrf|" + key).getBytes(StandardCharsets.UTF_8),
                "HmacSHA256"));
        return Base64.getUrlEncoder().withoutPadding()
                .encodeToString(mac.doFinal((cookie + "|" + user).getBytes(StandardCharsets.UTF_8)));
    }

    /** What an unexpected refusal said: its problem's detail, or the alert of a page (shortened). */
    private static String detail(Response r) {
        if (r.statusCode() < 400) {
            return "";
        }
        String body = r.asString();
        int alert = body.indexOf("role=\"alert\"");
        String s = (alert >= 0 ? body.substring(alert) : body).replaceAll("\\s+", " ");
        return ": " + (s.length() > 300 ? s.substring(0, 300) + "…" : s);
    }

    /** The status of GET /events with these cookies, read from its headers (the stream itself never ends). */
    private static int eventsStatus(Map<String, String> cookies) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        String cookie = String.join("; ", cookies.entrySet().stream().map(c -> c.getKey() + "=" + c.getValue())
                .toList());
        HttpResponse<InputStream> r = http.send(HttpRequest.newBuilder(
                URI.create(RestAssured.baseURI + ":" + RestAssured.port
                        + "/events")).header("Cookie", cookie).timeout(Duration.ofSeconds(20)).build(),
                HttpResponse.BodyHandlers.ofInputStream());
        r.body().close();
        return r.statusCode();
    }

    private static Response send(RequestSpecification spec, Endpoint e, String role) {
        String path = e.path(role);
        String body = e.body(role);
        RequestSpecification s = spec.redirects().follow(false);
        if (body != null) {
            s = s.contentType(path.equals("/api/audit-log") ? Api.NDJSON : JSON)
                    .body(body.getBytes(StandardCharsets.UTF_8));
        }
        try {
            return switch (e.method()) {
                case "GET" -> s.get(path);
                case "POST" -> s.post(path);
                case "PUT" -> s.put(path);
                default -> s.delete(path);
            };
        } catch (Exception x) {
            // a request that never answers (the test's read timeout) names itself
            throw new AssertionError(role + " " + e.method() + " " + path + " did not answer: " + x, x);
        }
    }
}
