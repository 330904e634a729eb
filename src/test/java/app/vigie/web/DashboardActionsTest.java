package app.vigie.web;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.hamcrest.Matchers;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

import app.vigie.testing.Api;

/**
 * The incident page's action forms over HTTP, as a browser posts them: each needs its CSRF token (this browser's,
 * this user's), goes through the API's rules, records who did it, and a refused one shows the page again with the
 * reason and what was typed. Auditors see no form and cannot post one.
 */
@QuarkusTest
public class DashboardActionsTest {
    private static final Pattern TOKEN = Pattern.compile("name=\"csrf\" value=\"([^\"]+)\"");

    /** A signed-in browser: its cookies (session and CSRF) and the token its pages carry. */
    public record Browser(Map<String, String> cookies, String token) {
        public Response post(String path, Object... form) {
            var spec = given().redirects().follow(false).cookies(cookies)
                    .contentType("application/x-www-form-urlencoded; charset=UTF-8");
            for (int i = 0; i < form.length; i += 2) {
                spec = spec.formParam((String) form[i], form[i + 1]);
            }
            return spec.post(path);
        }

        public String page(String path) {
            return given().redirects().follow(false).cookies(cookies).get(path).then().statusCode(200).extract()
                    .asString();
        }
    }

    public static Browser signIn(String user, String password, String page) {
        Map<String, String> cookies = new HashMap<>(given().redirects().follow(false)
                .contentType("application/x-www-form-urlencoded").formParam("j_username", user)
                .formParam("j_password", password).post("/j_security_check").then().statusCode(302).extract()
                .cookies());
        Response r = given().redirects().follow(false).cookies(cookies).get(page);
        r.then().statusCode(200);
        cookies.putAll(r.cookies());
        Matcher m = TOKEN.matcher(r.asString());
        assertThat(m.find()).as("a CSRF field on " + page).isTrue();
        assertThat(cookies).containsKey("vigie-csrf");
        return new Browser(cookies, m.group(1));
    }

    private static String status(String id) {
        return Api.admin().get("/api/incidents/" + id).then().statusCode(200).extract().path("status");
    }

    @Test
    void aFormWithoutItsTokenOrWithAnotherUsersChangesNothing() {
        String p = Api.uniquePrefix();
        String id = Api.leakingIncident(p, p + "-acme", p + "-globex");
        Api.account(p + "-dpo", "dpo", null);
        Api.account(p + "-analyst", "analyst", null);
        String page = "/incidents/" + id;
        Browser dpo = signIn(p + "-dpo", p + "-dpo-password", page);
        Browser analyst = signIn(p + "-analyst", p + "-analyst-password", page);

        dpo.post(page + "/status", "status", "TRIAGED").then().statusCode(403);
        dpo.post(page + "/status", "status", "TRIAGED", "csrf", "forged").then().statusCode(403);
        dpo.post(page + "/status", "status", "TRIAGED", "csrf", analyst.token()).then().statusCode(403);
        // the right token without the cookie it was made from (a page of another browser)
        Map<String, String> sessionOnly = new HashMap<>(dpo.cookies());
        sessionOnly.remove("vigie-csrf");
        new Browser(sessionOnly, dpo.token()).post(page + "/status", "status", "TRIAGED", "csrf", dpo.token())
                .then().statusCode(403);
        // a JSON body to the page's path is no way around it
        given().redirects().follow(false).cookies(dpo.cookies()).contentType("application/json")
                .body("{\"status\":\"TRIAGED\"}").post(page + "/status").then().statusCode(415);
        assertThat(status(id)).isEqualTo("OPEN");

        Response ok = dpo.post(page + "/status", "status", "TRIAGED", "csrf", dpo.token(), "lang", "en", "zone",
                "Europe/Paris");
        ok.then().statusCode(303);
        assertThat(ok.header("Location")).contains("/incidents/" + id).contains("done=status");
        assertThat(status(id)).isEqualTo("TRIAGED");
        String audited = Api.admin().get("/api/audit-trail?target=incident:" + id + "&action=incident.status").then()
                .statusCode(200).extract().asString();
        assertThat(audited).contains(p + "-dpo").contains("TRIAGED");
    }

    @Test
    void aRefusedActionShowsWhyAndKeepsWhatWasTyped() {
        String p = Api.uniquePrefix();
        String id = Api.leakingIncident(p, p + "-acme", p + "-globex");
        Api.account(p + "-analyst", "analyst", null);
        String page = "/incidents/" + id;
        Browser b = signIn(p + "-analyst", p + "-analyst-password", page);

        Response noReason = b.post(page + "/status", "status", "DISMISSED", "reason", " ", "csrf", b.token(), "lang",
                "fr");
        noReason.then().statusCode(400);
        assertThat(noReason.asString()).contains("role=\"alert\"").contains("a reason is required")
                .contains("value=\"DISMISSED\" checked");
        assertThat(status(id)).isEqualTo("OPEN");

        Response skipped = b.post(page + "/measures", "taken_at", "2026-03-29 02:30", "text", "Pool resized <b>now</b>",
                "csrf", b.token(), "zone", "Europe/Paris");
        skipped.then().statusCode(400);
        assertThat(skipped.asString()).contains("does not exist in Europe/Paris")
                .contains("Pool resized &lt;b&gt;now&lt;/b&gt;").doesNotContain("<b>now</b>");
        b.post(page + "/measures", "taken_at", "2026-10-25 02:30", "text", "x", "csrf", b.token()).then()
                .statusCode(400).body(Matchers.containsString("happens twice"));

        b.post(page + "/measures", "taken_at", "2026-10-25T02:30+01:00", "text", "Decode node drained <script>",
                "csrf", b.token()).then().statusCode(303);
        assertThat(Api.admin().get("/api/incidents/" + id + "/measures").then().statusCode(200).extract().jsonPath()
                .getString("[0].taken_at")).isEqualTo("2026-10-25T01:30:00Z");
        String shown = b.page(page + "?lang=en&done=measure");
        assertThat(shown).contains("role=\"status\"").contains("Decode node drained &lt;script&gt;")
                .contains("25 October 2026, 02:30 (Central European Time, UTC+01:00)");
    }

    @Test
    void anAuthoritysReceiptNumberIsRecordedAgainstItsObligation() {
        String p = Api.uniquePrefix();
        String victim = p + "-acme";
        String id = Api.leakingIncident(p, victim, p + "-globex");
        Api.account(p + "-dpo", "dpo", null);
        String page = "/incidents/" + id;
        Browser b = signIn(p + "-dpo", p + "-dpo-password", page);
        String html = b.page(page);
        Matcher duty = Pattern.compile("<option value=\"(\\|nis2[^\"]*)\"").matcher(html);
        assertThat(duty.find()).as("the provider's NIS2 duty offered").isTrue();
        String key = duty.group(1).replace("&#124;", "|");
        Matcher now = Pattern.compile("id=\"completion-at\" name=\"done_at\" type=\"text\" inputmode=\"numeric\" "
                + "value=\"([^\"]+)\"").matcher(html);
        assertThat(now.find()).as("the form offers the current time").isTrue();
        String doneAt = now.group(1);

        b.post(page + "/completions", "duty", key, "done_at", doneAt, "evidence", "", "csrf", b.token())
                .then().statusCode(400).body(Matchers.containsString("evidence"));
        b.post(page + "/completions", "duty", key, "done_at", doneAt, "evidence",
                "CERT-FR receipt 2026-0042", "csrf", b.token()).then().statusCode(303);
        String[] k = key.split("\\|");
        String evidence = Api.admin().get("/api/incidents/" + id + "/case").then().statusCode(200).extract().asString();
        assertThat(Api.admin().get("/api/incidents/" + id + "/obligations").then().statusCode(200).extract()
                .jsonPath().getString("find { it.rule == '" + k[1] + "' && it.recipient == '" + k[2]
                        + "' && it.tenant == null }.completions[0].evidence")).isEqualTo("CERT-FR receipt 2026-0042");
        assertThat(evidence).isNotEmpty();
        assertThat(b.page(page)).contains("CERT-FR receipt 2026-0042");
        // a second INITIAL notice of a non-phased duty is refused, and said so
        b.post(page + "/completions", "duty", key, "done_at", doneAt, "evidence", "again", "csrf",
                b.token()).then().statusCode(Matchers.anyOf(Matchers.is(303),
                        Matchers.is(409)));
    }

    @Test
    void anAuditorSeesNoFormAndCannotPostOne() {
        String p = Api.uniquePrefix();
        String id = Api.leakingIncident(p, p + "-acme", p + "-globex");
        Api.account(p + "-auditor", "auditor", null);
        String page = "/incidents/" + id;
        Browser b = signIn(p + "-auditor", p + "-auditor-password", page);
        String html = b.page(page);
        assertThat(html).doesNotContain("action=\"/incidents/" + id + "/status\"").contains("action=\"/logout\"");
        b.post(page + "/status", "status", "TRIAGED", "csrf", b.token()).then().statusCode(403);
        assertThat(status(id)).isEqualTo("OPEN");
    }

    @Test
    void aSignInPostedFromAnotherSiteIsRefused() {
        String p = Api.uniquePrefix();
        Api.account(p + "-dpo", "dpo", null);
        for (String[] headers : new String[][] {{"Origin", "https://evil.example"}, {"Sec-Fetch-Site", "cross-site"}}) {
            Response r = given().redirects().follow(false).header(headers[0], headers[1])
                    .contentType("application/x-www-form-urlencoded").formParam("j_username", p + "-dpo")
                    .formParam("j_password", p + "-dpo-password").post("/j_security_check");
            assertThat(r.statusCode()).as(headers[0] + ": " + headers[1]).isEqualTo(403);
            assertThat(r.cookies()).doesNotContainKey("vigie-session");
        }
        // from this site: signed in
        Response same = given().redirects().follow(false).header("Sec-Fetch-Site", "same-origin")
                .contentType("application/x-www-form-urlencoded").formParam("j_username", p + "-dpo")
                .formParam("j_password", p + "-dpo-password").post("/j_security_check");
        assertThat(same.statusCode()).isEqualTo(302);
        assertThat(same.cookies()).containsKey("vigie-session");
    }

    @Test
    void signingOutClearsTheCookiesAndNeedsTheToken() {
        String p = Api.uniquePrefix();
        Api.account(p + "-dpo", "dpo", null);
        Browser b = signIn(p + "-dpo", p + "-dpo-password", "/");
        b.post("/logout").then().statusCode(403);
        Response out = b.post("/logout", "csrf", b.token());
        out.then().statusCode(303);
        assertThat(out.header("Location")).endsWith("/login");
        assertThat(out.headers().getValues("Set-Cookie")).anyMatch(c -> c.startsWith("vigie-session=;") && c.contains("Max-Age=0"))
                .anyMatch(c -> c.startsWith("vigie-csrf=;"));
    }
}
