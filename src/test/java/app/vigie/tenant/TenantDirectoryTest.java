package app.vigie.tenant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

import app.vigie.runtime.log.AuditLogWriter;
import app.vigie.runtime.log.PageRun;
import app.vigie.testing.Api;
import app.vigie.testing.Logs;

/** The tenant directory through the API, and what an incident says of unmapped tenants. */
@QuarkusTest
class TenantDirectoryTest {
    @Inject
    AgroalDataSource dataSource;

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

    /**
     * A webhook no alert could ever reach (the cloud metadata service, a private address outside the allowed networks)
     * is refused when it is saved, with the reason; one inside an allowed network (127.0.0.0/8 in tests) is saved.
     */
    @Test
    void aWebhookNoAlertCouldReachIsRefusedWhenSavedWithItsReason() {
        String id = Api.uniquePrefix() + "-hooked";
        for (String target : new String[] {"http://169.254.169.254/latest/meta-data/", "https://10.1.2.3/hook",
            "http://[::ffff:192.168.0.1]/"}) {
            Api.admin().contentType("application/json")
                    .body("{\"legal_name\":\"Hooked SA\",\"country\":\"FR\",\"alert_channels\":["
                            + "{\"type\":\"email\",\"target\":\"sec@example.org\"},"
                            + "{\"type\":\"webhook\",\"target\":\"" + target + "\"}]}")
                    .put("/api/tenants/" + id).then().statusCode(400).contentType("application/problem+json")
                    .body("detail", containsString("'alert_channels[1]' target: the target's host"))
                    .body("detail", containsString("vigie.alerts.webhook.allowed-networks"));
        }
        Api.admin().get("/api/tenants/" + id).then().statusCode(404);
        Api.admin().contentType("application/json")
                .body("{\"legal_name\":\"Hooked SA\",\"country\":\"FR\",\"alert_channels\":["
                        + "{\"type\":\"webhook\",\"target\":\"http://127.0.0.1:9/hook\"}]}")
                .put("/api/tenants/" + id).then().statusCode(200);
    }

    /**
     * An entry comes back as it was put, every field; the channels are stored as the JSON list they always were; a
     * replacement keeps the creation time and moves the update time; putting the same entry again audits nothing.
     */
    @Test
    void anEntryIsStoredWholeAndItsCreationIsKept() throws Exception {
        String id = Api.uniquePrefix() + "-clinic";
        String body = "{\"legal_name\":\"Clinique Saint-Éloi\",\"country\":\"FR\",\"company_id\":\"123 456 789\","
                + "\"dpo\":{\"name\":\"Dr Dupont\",\"email\":\"dpo@clinique.example\",\"phone\":\"+33 1 23 45 67 89\"},"
                + "\"alert_channels\":[{\"type\":\"email\",\"target\":\"rssi@clinique.example\"},"
                + "{\"type\":\"kafka\",\"target\":\"clinic-alerts\"}],\"alert_delay\":\"PT6H\","
                + "\"jurisdictions\":[\"EU\",\"US-HIPAA\"],\"sectors\":[\"health\",\"research\"],"
                + "\"processor_is_agent\":true}";
        JsonPath put = Api.admin().contentType("application/json").body(body).put("/api/tenants/" + id).then()
                .statusCode(200).extract().jsonPath();
        JsonPath got = Api.admin().get("/api/tenants/" + id).then().statusCode(200).extract().jsonPath();
        for (JsonPath t : List.of(put, got)) {
            assertThat(t.getString("legal_name")).isEqualTo("Clinique Saint-Éloi");
            assertThat(t.getString("company_id")).isEqualTo("123 456 789");
            assertThat(t.getString("dpo.phone")).isEqualTo("+33 1 23 45 67 89");
            assertThat(t.getList("alert_channels.target")).containsExactly("rssi@clinique.example", "clinic-alerts");
            assertThat(t.getList("alert_channels.type")).containsExactly("email", "kafka");
            assertThat(t.getList("jurisdictions")).containsExactly("EU", "US-HIPAA");
            assertThat(t.getList("sectors")).containsExactly("health", "research");
            assertThat(t.getBoolean("processor_is_agent")).isTrue();
        }
        Object[] first = stored(id);
        assertThat((String) first[0]).as("the channels as stored")
                .isEqualTo("[{\"type\": \"email\", \"target\": \"rssi@clinique.example\"}, "
                        + "{\"type\": \"kafka\", \"target\": \"clinic-alerts\"}]");
        assertThat(first[3]).isEqualTo("api");
        // the same entry again: nothing changes, nothing is audited
        Api.admin().contentType("application/json").body(body).put("/api/tenants/" + id).then().statusCode(200);
        // another DPO, no channel: the creation time stays
        Api.admin().contentType("application/json").body(entry("Clinique Saint-Éloi", "FR")).put("/api/tenants/" + id)
                .then().statusCode(200).body("dpo.phone", equalTo(null)).body("processor_is_agent", equalTo(false));
        Object[] second = stored(id);
        assertThat(second[1]).as("created_at kept").isEqualTo(first[1]);
        assertThat((Instant) second[2]).as("updated_at moved").isAfter((Instant) first[2]);
        assertThat(Api.admin().get("/api/audit-trail?target=tenant:" + id).then().statusCode(200).extract()
                .jsonPath().getList("action")).containsExactlyInAnyOrder("tenant.create", "tenant.update");
    }

    /** alert_channels as PostgreSQL prints the jsonb, created_at, updated_at, source. */
    private Object[] stored(String id) throws Exception {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(
                "select alert_channels::text, created_at, updated_at, source from tenant where id = ?")) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.next()).isTrue();
                return new Object[] {rs.getString(1), rs.getTimestamp(2).toInstant(), rs.getTimestamp(3).toInstant(),
                    rs.getString(4)};
            }
        }
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
