package app.vigie.alert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

import app.vigie.testing.Api;
import app.vigie.testing.AtOnce;

/**
 * {@code /api/tenants/{id}/webhook-secret}: a rotation's overlap is an ISO-8601 duration between none and seven days,
 * for a tenant of the directory; a refused rotation changes nothing, a made one is audited.
 */
@QuarkusTest
class WebhookSecretApiTest {
    @Inject
    AgroalDataSource dataSource;

    @Test
    void aWebhookSecretsOverlapIsADurationOfAtMostSevenDaysForAKnownTenant() {
        String tenant = Api.uniquePrefix() + "-acme";
        String path = "/api/tenants/" + tenant + "/webhook-secret";
        Api.admin().post(path).then().statusCode(404).body("detail", containsString("no tenant '" + tenant + "'"));
        Api.admin().get(path).then().statusCode(404);
        Api.admin().contentType("application/json").body("{\"legal_name\":\"Acme SAS\",\"country\":\"FR\"}")
                .put("/api/tenants/" + tenant).then().statusCode(200);
        Api.admin().get(path).then().statusCode(200).body("exists", is(false));
        Api.admin().queryParam("overlap", "tomorrow").post(path).then().statusCode(400)
                .body("detail", containsString("ISO-8601 duration"));
        Api.admin().queryParam("overlap", "P8D").post(path).then().statusCode(400)
                .body("detail", containsString("between PT0S and P7D"));
        Api.admin().queryParam("overlap", "-PT1H").post(path).then().statusCode(400);
        Api.admin().get(path).then().statusCode(200).body("exists", is(false));
        // the first secret has no predecessor to overlap with; the second one's predecessor signs for the overlap
        JsonPath first = Api.admin().post(path).then().statusCode(200).extract().jsonPath();
        assertThat(first.getString("secret")).isNotBlank();
        assertThat(first.getString("previous_valid_until")).isNull();
        JsonPath second = Api.admin().queryParam("overlap", "PT2H").post(path).then().statusCode(200).extract()
                .jsonPath();
        assertThat(second.getString("previous_valid_until")).isNotNull();
        assertThat(Api.admin().get("/api/audit-trail?action=tenant.webhook-secret&target=tenant:" + tenant)
                .then().statusCode(200).extract().jsonPath().getList("$")).hasSize(2);
    }

    /** Two rotations at once follow each other: the later one's previous secret is the earlier one's new secret. */
    @Test
    void rotationsAtOnceChainTheirSecrets() throws Exception {
        String tenant = Api.uniquePrefix() + "-globex";
        String path = "/api/tenants/" + tenant + "/webhook-secret";
        Api.admin().contentType("application/json").body("{\"legal_name\":\"Globex SA\",\"country\":\"FR\"}")
                .put("/api/tenants/" + tenant).then().statusCode(200);
        String first = Api.admin().post(path).then().statusCode(200).extract().path("secret");
        List<String> made = AtOnce.run(2, i -> () -> Api.admin().queryParam("overlap", "PT1H").post(path).then()
                .statusCode(200).extract().path("secret"));
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(
                "select secret, previous_secret from tenant_webhook_secret where tenant = ?")) {
            ps.setString(1, tenant);
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.next()).isTrue();
                String current = rs.getString(1);
                assertThat(made).contains(current);
                String other = made.get(0).equals(current) ? made.get(1) : made.get(0);
                assertThat(rs.getString(2)).as("the previous secret is the other rotation's, not the first one")
                        .isEqualTo(other).isNotEqualTo(first);
            }
        }
    }
}
