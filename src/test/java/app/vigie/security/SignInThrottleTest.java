package app.vigie.security;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

import app.vigie.testing.Api;

/**
 * Password guessing, as an attacker does it: wrong passwords for one account over HTTP Basic and the sign-in form,
 * then the right one; and usernames probed by the time a refusal takes.
 */
@QuarkusTest
class SignInThrottleTest {
    private static int basic(String user, String password) {
        return given().auth().preemptive().basic(user, password).get("/api/incidents").statusCode();
    }

    private static Response form(String user, String password) {
        return given().redirects().follow(false).contentType("application/x-www-form-urlencoded")
                .formParam("j_username", user).formParam("j_password", password).post("/j_security_check");
    }

    @Test
    void wrongPasswordsLockTheAccountThenTheRightOneWorksAfterTheLock() throws Exception {
        String p = Api.uniquePrefix();
        String user = p + "-dpo";
        String right = user + "-password";
        Api.account(user, "dpo", null);
        assertThat(basic(user, right)).isEqualTo(200);
        for (int i = 0; i < 4; i++) {
            assertThat(basic(user, "guess-" + i)).isEqualTo(401);
        }
        assertThat(form(user, "guess-4").header("Location")).contains("/login-error");
        // five failures: locked; the right password is refused too, on both doors, until the lock ends
        assertThat(basic(user, right)).isEqualTo(401);
        assertThat(form(user, right).header("Location")).contains("/login-error");
        assertThat(Api.admin().get("/api/audit-trail?action=signin.locked&target=account:" + user).then()
                .statusCode(200).extract().jsonPath().getList("$")).hasSize(1);
        Thread.sleep(600);  // the test profile's first lock is 0.5 s
        assertThat(basic(user, right)).isEqualTo(200);
        assertThat(form(user, right).cookies()).containsKey("vigie-session");
        String metrics = Api.admin().get("/q/metrics").then().statusCode(200).extract().asString();
        assertThat(metrics).containsPattern("vigie_signin_refused_total\\{reason=\"locked\"[^}]*\\} [1-9]")
                .containsPattern("vigie_signin_locks_total\\{key=\"account\"[^}]*\\} [1-9]");
    }

    @Test
    void anUnknownUsernameCostsWhatAKnownOneDoes() {
        String p = Api.uniquePrefix();
        Api.account(p + "-known0", "analyst", null);
        Api.account(p + "-known1", "analyst", null);
        long[] known = new long[8];
        long[] unknown = new long[8];
        for (int i = 0; i < 8; i++) {
            // four tries per name, below the lock: every try checks a password
            known[i] = timed(p + "-known" + (i / 4), "wrong-" + i);
            unknown[i] = timed(p + "-nobody" + (i / 4), "wrong-" + i);
        }
        Arrays.sort(known);
        Arrays.sort(unknown);
        long k = known[4];
        long u = unknown[4];
        System.out.printf("wrong password, median: known user %d us, unknown user %d us%n", k / 1000, u / 1000);
        assertThat((double) u).as("unknown within noise of known").isBetween(k * 0.5, k * 2.0);
    }

    private static long timed(String user, String password) {
        long t0 = System.nanoTime();
        assertThat(basic(user, password)).isEqualTo(401);
        return System.nanoTime() - t0;
    }

    @Test
    void scrapingTheMetricsNeedsAnAccount() {
        assertThat(given().get("/q/metrics").statusCode()).isEqualTo(401);
        String p = Api.uniquePrefix();
        Api.account(p + "-customer", "customer", p + "-acme");
        assertThat(given().auth().preemptive().basic(p + "-customer", p + "-customer-password").get("/q/metrics")
                .statusCode()).isEqualTo(403);
    }

    @Test
    void aPasswordLongerThanBcryptReadsIsCheckedWhole() {
        String p = Api.uniquePrefix();
        String user = p + "-long";
        String password = "a".repeat(72) + "-the-part-bcrypt-alone-would-ignore";
        Api.admin().contentType("application/json").body("{\"password\":\"" + password + "\",\"roles\":[\"analyst\"]}")
                .put("/api/accounts/" + user).then().statusCode(200);
        assertThat(basic(user, "a".repeat(72) + "-something-else")).isEqualTo(401);
        assertThat(basic(user, password)).isEqualTo(200);
    }
}
