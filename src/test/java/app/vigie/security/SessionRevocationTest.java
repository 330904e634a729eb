package app.vigie.security;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;

import app.vigie.testing.Api;
import app.vigie.web.DashboardActionsTest;

/**
 * A stolen or forgotten session cookie, replayed: after its owner signs out (here or in another browser), after a
 * new password, after a change of roles, it opens nothing.
 */
@QuarkusTest
class SessionRevocationTest {
    private static int replay(Map<String, String> cookies) {
        return given().redirects().follow(false).cookies(cookies).get("/incidents").statusCode();
    }

    private static void account(String user, String password, String role) {
        Api.admin().contentType("application/json").body("{\"password\":\"" + password + "\",\"roles\":[\"" + role
                + "\"]}").put("/api/accounts/" + user).then().statusCode(200);
    }

    @Test
    void signingOutEndsThisSessionAndEveryOtherOne() {
        String p = Api.uniquePrefix();
        Api.account(p + "-dpo", "dpo", null);
        DashboardActionsTest.Browser laptop = DashboardActionsTest.signIn(p + "-dpo", p + "-dpo-password", "/");
        DashboardActionsTest.Browser phone = DashboardActionsTest.signIn(p + "-dpo", p + "-dpo-password", "/");
        Map<String, String> stolen = Map.copyOf(laptop.cookies());
        assertThat(replay(stolen)).isEqualTo(200);
        laptop.post("/logout", "csrf", laptop.token()).then().statusCode(303);
        assertThat(replay(stolen)).as("the signed-out cookie, replayed").isEqualTo(302);
        assertThat(replay(phone.cookies())).as("the other browser's session").isEqualTo(302);
        assertThat(Api.admin().get("/api/audit-trail?action=account.signed-out&target=account:" + p + "-dpo")
                .then().statusCode(200).extract().jsonPath().getList("$")).hasSize(1);
        // signing in again works
        assertThat(replay(DashboardActionsTest.signIn(p + "-dpo", p + "-dpo-password", "/").cookies()))
                .isEqualTo(200);
    }

    @Test
    void aNewPasswordOrNewRolesEndTheSessionsMadeBefore() {
        String p = Api.uniquePrefix();
        String user = p + "-analyst";
        account(user, "first-password-123", "analyst");
        DashboardActionsTest.Browser before = DashboardActionsTest.signIn(user, "first-password-123", "/");
        account(user, "second-password-456", "analyst");
        assertThat(replay(before.cookies())).as("after the password change").isEqualTo(302);
        DashboardActionsTest.Browser after = DashboardActionsTest.signIn(user, "second-password-456", "/");
        assertThat(replay(after.cookies())).isEqualTo(200);
        account(user, "second-password-456", "auditor");
        assertThat(replay(after.cookies())).as("after the role change").isEqualTo(302);
    }

    @Test
    void aSessionCookieWithoutItsVersionCookieOpensNothing() {
        String p = Api.uniquePrefix();
        Api.account(p + "-dpo", "dpo", null);
        DashboardActionsTest.Browser b = DashboardActionsTest.signIn(p + "-dpo", p + "-dpo-password", "/");
        assertThat(replay(Map.of("vigie-session", b.cookies().get("vigie-session")))).isEqualTo(302);
        assertThat(replay(Map.of("vigie-session", b.cookies().get("vigie-session"), AccountService
                .SESSION_VERSION_COOKIE, "forged"))).isEqualTo(302);
    }
}
