package app.vigie.tenant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

import app.vigie.runtime.log.AuditLogWriter;
import app.vigie.runtime.log.PageRun;
import app.vigie.testing.Api;
import app.vigie.testing.Logs;

/** The tenant directory through the API, and what an incident says of unmapped tenants. */
@QuarkusTest
class TenantDirectoryTest {
    private static final Instant T = Instant.parse("2026-08-27T09:00:00Z");

    static String entry(String legalName, String country) {
        return "{\"legal_name\":\"" + legalName + "\",\"country\":\"" + country + "\",\"company_id\":\"FR123\","
                + "\"dpo\":{\"name\":\"D. P. O.\",\"email\":\"dpo@example.org\"},"
                + "\"alert_channels\":[{\"type\":\"email\",\"target\":\"sec@example.org\"}],"
                + "\"alert_delay\":\"PT12H\",\"jurisdictions\":[\"EU\"],\"sectors\":[\"finance\"]}";
    }

    @Test
    void tenantsAreValidatedSavedAuditedAndDeleted() {
        String id = Api.uniquePrefix() + "-bank";
        Api.admin().contentType("application/json").body(entry("Bank SA", "FR")).put("/api/tenants/" + id).then()
                .statusCode(200).body("id", equalTo(id)).body("sectors[0]", equalTo("finance"));
        Api.admin().get("/api/tenants").then().statusCode(200).body("find { it.id == '" + id + "' }.legal_name",
                equalTo("Bank SA"));

        Api.admin().contentType("application/json")
                .body("{\"legal_name\":\"\",\"country\":\"fr\",\"alert_delay\":\"tomorrow\","
                        + "\"alert_channels\":[{\"type\":\"webhook\",\"target\":\"ftp://x\"}]}")
                .put("/api/tenants/" + id).then().statusCode(400).contentType("application/problem+json")
                .body("detail", containsString("'legal_name' is required"))
                .body("detail", containsString("'country' must be an ISO 3166-1 alpha-2 code"))
                .body("detail", containsString("'alert_delay' must be an ISO-8601 duration"))
                .body("detail", containsString("must be an http(s) URL"));

        Api.account("analyst2", "analyst", null);
        Api.as("analyst2", "analyst2-password").contentType("application/json").body(entry("X", "FR"))
                .put("/api/tenants/" + id).then().statusCode(403);
        Api.as("analyst2", "analyst2-password").get("/api/tenants/" + id).then().statusCode(200);

        Api.admin().delete("/api/tenants/" + id).then().statusCode(204);
        Api.admin().get("/api/tenants/" + id).then().statusCode(404).contentType("application/problem+json");
        Api.admin().delete("/api/tenants/" + id).then().statusCode(404);
    }

    @Test
    void anIncidentFlagsItsUnmappedTenantsAndKeepsTheirExposures() {
        String p = Api.uniquePrefix();
        String victim = p + "-acme";
        String reader = p + "-globex";
        List<String> lines = new ArrayList<>();
        AuditLogWriter w = new AuditLogWriter(p + "/s", p + "/dep", "b1", lines::add);
        w.config(T, 4, 16, 64, 60);
        w.alloc(T, "a", victim, List.of(new PageRun(0, 2)), "PREFILL", null);
        w.write(T, "a", victim, 0, 8, "COMPUTE", null);
        w.free(T, "a", List.of(new PageRun(0, 2)), "FINISH");
        w.alloc(T, p + "b", reader, List.of(new PageRun(0, 2)), "PREFILL", null);
        w.attach(T, p + "b", reader, 8);
        w.finish(T, p + "b", reader, "STOP", 200, 3, true);
        Api.admin().contentType("application/json").body(entry("Acme SAS", "FR")).put("/api/tenants/" + victim)
                .then().statusCode(200);

        Api.post(Logs.body(lines)).then().statusCode(200).body("accepted", equalTo(lines.size()));

        JsonPath incidents = Api.admin().get("/api/incidents").then().statusCode(200).extract().jsonPath();
        String id = incidents.getString("find { it.deployment == '" + p + "/dep' }.id");
        assertThat(incidents.getList("find { it.deployment == '" + p + "/dep' }.unmapped_tenants"))
                .containsExactly(reader);
        JsonPath tenants = Api.admin().get("/api/incidents/" + id + "/tenants").then().statusCode(200).extract()
                .jsonPath();
        assertThat(tenants.getString("find { it.tenant == '" + victim + "' }.controller")).isEqualTo("Acme SAS");
        assertThat(tenants.getBoolean("find { it.tenant == '" + reader + "' }.mapped")).isFalse();
        assertThat(tenants.getInt("find { it.tenant == '" + reader + "' }.received_tokens")).isEqualTo(8);
        assertThat(tenants.getInt("find { it.tenant == '" + reader + "' }.responses_received")).isEqualTo(1);
    }
}
