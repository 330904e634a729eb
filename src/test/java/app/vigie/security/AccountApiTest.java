package app.vigie.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ValidatableResponse;

import app.vigie.testing.Api;
import app.vigie.testing.AtOnce;

/**
 * {@code /api/accounts} refuses what it cannot store with a 400 saying which field is wrong, stores nothing then, and
 * audits what it stores.
 */
@QuarkusTest
class AccountApiTest {

    private static ValidatableResponse put(String user, String body) {
        return Api.admin().contentType("application/json").body(body).put("/api/accounts/" + user).then();
    }

    @Test
    void anAccountIsCheckedBeforeItIsStored() {
        String p = Api.uniquePrefix();
        Map<String, String> refused = new LinkedHashMap<>();
        refused.put("Bad-Name", "{\"password\":\"long-enough-pw-1\",\"roles\":[\"dpo\"]}");
        refused.put(p + "-a", "{\"password\":\"short\",\"roles\":[\"dpo\"]}");
        refused.put(p + "-b", "{\"password\":\"long-enough-pw-1\",\"roles\":[]}");
        refused.put(p + "-c", "{\"password\":\"long-enough-pw-1\",\"roles\":[\"king\"]}");
        refused.put(p + "-d", "{\"password\":\"long-enough-pw-1\",\"roles\":[\"customer\"]}");
        refused.put(p + "-e", "{\"password\":\"long-enough-pw-1\",\"roles\":[\"customer\",\"dpo\"],\"tenant\":\"x\"}");
        refused.put(p + "-f", "{\"password\":\"long-enough-pw-1\",\"roles\":[\"dpo\"],\"tenant\":\"x\"}");
        List<String> details = List.of("a username is 1 to 100", "field 'password' is required",
                "field 'roles' must list at least one role", "king", "a customer account needs field 'tenant'",
                "a customer account holds the customer role only", "field 'tenant' is only for customer accounts");
        int i = 0;
        for (Map.Entry<String, String> e : refused.entrySet()) {
            put(e.getKey(), e.getValue()).statusCode(400).body("detail", containsString(details.get(i++)));
        }
        put(p + "-g", "").statusCode(400);
        put("admin", "{\"password\":\"long-enough-pw-1\",\"roles\":[\"dpo\"]}").statusCode(409)
                .body("detail", containsString("VIGIE_ADMIN_PASSWORD"));
        List<String> names = Api.admin().get("/api/accounts").then().statusCode(200).extract().jsonPath()
                .getList("username");
        assertThat(names).as("nothing refused was stored").noneMatch(n -> n.startsWith(p));

        // stored: the roles as given, no password returned, the creation and the change audited
        JsonPath made = put(p + "-ok", "{\"password\":\"long-enough-pw-1\",\"roles\":[\"analyst\",\"auditor\"]}")
                .statusCode(200).extract().jsonPath();
        assertThat(made.getList("roles")).containsExactly("analyst", "auditor");
        put(p + "-ok", "{\"password\":\"long-enough-pw-2\",\"roles\":[\"analyst\"]}").statusCode(200);
        String listed = Api.admin().get("/api/accounts").asString();
        assertThat(listed).contains(p + "-ok").doesNotContain("long-enough-pw").doesNotContain("$2");
        List<String> actions = Api.admin().get("/api/audit-trail?target=account:" + p + "-ok").then().statusCode(200)
                .extract().jsonPath().getList("action");
        assertThat(actions).containsExactlyInAnyOrder("account.create", "account.update");
    }

    /**
     * An account is bound to one user of the OpenID Connect provider by its issuer and subject: both checked, one
     * identity for one account, never the built-in admin; the binding is shown, and binding and unbinding are
     * audited.
     */
    @Test
    void anOidcBindingIsCheckedShownAndAudited() {
        String p = Api.uniquePrefix();
        String idp = "https://sso.example/realms/" + p;
        put(p + "-one", "{\"password\":\"long-enough-pw-1\",\"roles\":[\"customer\"],\"tenant\":\"acme\"}")
                .statusCode(200);
        put(p + "-two", "{\"password\":\"long-enough-pw-1\",\"roles\":[\"dpo\"]}").statusCode(200);
        bind(p + "-one", "{\"issuer\":\"" + idp + "\"}").statusCode(400).body("detail", containsString("subject"));
        bind(p + "-one", "{\"subject\":\"s-1\"}").statusCode(400)  // the tests' service has no VIGIE_OIDC_ISSUER
                .body("detail", containsString("issuer"));
        bind(p + "-one", "{\"issuer\":\"" + idp + "\",\"subject\":\"s\\u0000\"}").statusCode(400);
        bind(p + "-none", "{\"issuer\":\"" + idp + "\",\"subject\":\"s-1\"}").statusCode(404);
        bind("admin", "{\"issuer\":\"" + idp + "\",\"subject\":\"s-1\"}").statusCode(409);

        bind(p + "-one", "{\"issuer\":\"" + idp + "\",\"subject\":\"s-1\"}").statusCode(200)
                .body("issuer", equalTo(idp)).body("subject", equalTo("s-1"));
        bind(p + "-one", "{\"issuer\":\"" + idp + "\",\"subject\":\"s-1\"}").statusCode(200);  // no change
        bind(p + "-two", "{\"issuer\":\"" + idp + "\",\"subject\":\"s-1\"}").statusCode(409)
                .body("detail", containsString(p + "-one"));
        JsonPath listed = Api.admin().get("/api/accounts").then().statusCode(200).extract().jsonPath();
        assertThat(listed.getString("find { it.username == '" + p + "-one' }.oidc.subject")).isEqualTo("s-1");
        assertThat(listed.getString("find { it.username == '" + p + "-two' }.oidc")).isNull();
        // a new password keeps the binding
        put(p + "-one", "{\"password\":\"long-enough-pw-2\",\"roles\":[\"customer\"],\"tenant\":\"acme\"}")
                .statusCode(200);
        assertThat(Api.admin().get("/api/accounts").then().extract().jsonPath()
                .getString("find { it.username == '" + p + "-one' }.oidc.subject")).isEqualTo("s-1");

        Api.admin().delete("/api/accounts/" + p + "-one/oidc").then().statusCode(204);
        Api.admin().delete("/api/accounts/" + p + "-one/oidc").then().statusCode(204);  // no change
        Api.admin().delete("/api/accounts/" + p + "-none/oidc").then().statusCode(404);
        bind(p + "-two", "{\"issuer\":\"" + idp + "\",\"subject\":\"s-1\"}").statusCode(200);  // free again
        List<String> actions = Api.admin().get("/api/audit-trail?target=account:" + p + "-one").then().statusCode(200)
                .extract().jsonPath().getList("action");
        assertThat(actions).containsExactlyInAnyOrder("account.create", "account.update", "account.oidc-bound",
                "account.oidc-unbound");
        String bound = Api.admin().get("/api/audit-trail?action=account.oidc-bound&target=account:" + p + "-two")
                .then().statusCode(200).extract().jsonPath().getString("[0].after");
        assertThat(bound).contains(idp).contains("s-1");
    }

    private static ValidatableResponse bind(String user, String body) {
        return Api.admin().contentType("application/json").body(body).put("/api/accounts/" + user + "/oidc").then();
    }

    /** Several first PUTs of one new account at once: each answers 200, one creates it, the others change it. */
    @Test
    void concurrentCreationsOfOneAccountAllSucceed() throws Exception {
        String user = Api.uniquePrefix() + "-twice";
        int n = 6;
        List<Integer> statuses = AtOnce.run(n, i -> () -> Api.admin().contentType("application/json")
                .body("{\"password\":\"long-enough-pw-" + i + "\",\"roles\":[\"analyst\"]}")
                .put("/api/accounts/" + user).statusCode());
        assertThat(statuses).containsOnly(200);
        List<String> actions = Api.admin().get("/api/audit-trail?target=account:" + user).then().statusCode(200)
                .extract().jsonPath().getList("action");
        assertThat(actions).containsOnlyOnce("account.create").hasSize(n);
    }
}
