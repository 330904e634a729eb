package app.vigie.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.hamcrest.Matchers.containsString;

import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;

import app.vigie.testing.Api;

/** The audit trail through the API: filters, paging, the CSV export, its checks; append-only in the database. */
@QuarkusTest
class AuditTrailTest {

    @Inject
    AgroalDataSource dataSource;

    @Test
    void filtersPagesAndExports() {
        String p = Api.uniquePrefix();
        String id = Api.leakingIncident(p, p + "-acme", p + "-globex");
        Api.account(p + "-dpo", "dpo", null);
        Api.account(p + "-auditor", "auditor", null);
        Supplier<RequestSpecification> dpo = () -> Api.as(p + "-dpo", p + "-dpo-password");
        dpo.get().contentType("application/json").body("{\"status\":\"TRIAGED\"}").post("/api/incidents/" + id + "/status")
                .then().statusCode(200);
        for (int i = 0; i < 3; i++) {
            dpo.get().contentType("application/json").body("{\"text\":\"=HYPERLINK(\\\"x\\\") step " + i + "\"}")
                    .post("/api/incidents/" + id + "/measures").then().statusCode(201);
        }
        Supplier<RequestSpecification> auditor = () -> Api.as(p + "-auditor", p + "-auditor-password");
        List<Map<String, Object>> mine = auditor.get().get("/api/audit-trail?actor=" + p + "-dpo").then()
                .statusCode(200).extract().jsonPath().getList("$");
        assertThat(mine).hasSize(4).allSatisfy(e -> assertThat(e.get("actor")).isEqualTo(p + "-dpo"));
        assertThat(mine.get(0).get("action")).isEqualTo("incident.measure");  // newest first
        assertThat(mine.get(3).get("action")).isEqualTo("incident.status");
        assertThat(auditor.get().get("/api/audit-trail?action=incident.status&target=incident:" + id).then().statusCode(200)
                .extract().jsonPath().getString("[0].after.status")).isEqualTo("TRIAGED");
        assertThat(auditor.get().get("/api/audit-trail?action=incident.status&target=incident:" + id).then().extract()
                .jsonPath().getString("[0].before.status")).isEqualTo("OPEN");

        // paging back by id
        String firstPage = auditor.get().get("/api/audit-trail?actor=" + p + "-dpo&limit=2").then().statusCode(200)
                .extract().asString();
        List<Integer> first = JsonPath.from(firstPage).getList("id");
        List<Integer> next = auditor.get().get("/api/audit-trail?actor=" + p + "-dpo&limit=2&before=" + first.get(1))
                .then().statusCode(200).extract().jsonPath().getList("id");
        assertThat(first).hasSize(2);
        assertThat(next).hasSize(2).allSatisfy(n -> assertThat(n).isLessThan(first.get(1)));

        // a time window: everything is before a year from now, nothing after
        assertThat(auditor.get().get("/api/audit-trail?actor=" + p + "-dpo&to=2099-01-01T00:00:00Z").then().extract()
                .jsonPath().getList("$")).hasSize(4);
        assertThat(auditor.get().get("/api/audit-trail?actor=" + p + "-dpo&from=2099-01-01T00:00:00Z").then().extract()
                .jsonPath().getList("$")).isEmpty();
        // a target prefix matches literally: % and _ are not wildcards
        assertThat(auditor.get().get("/api/audit-trail?target=incident:%25").then().statusCode(200).extract().jsonPath()
                .getList("$")).isEmpty();

        String csv = auditor.get().get("/api/audit-trail/export.csv?actor=" + p + "-dpo&zone=Europe/Paris").then()
                .statusCode(200).contentType(containsString("text/csv")).header("Content-Disposition",
                        containsString("audit-trail.csv")).extract().asString();
        String[] lines = csv.split("\r\n");
        assertThat(lines[0]).isEqualTo("id,at_utc,at_local,actor,action,target,before,after");
        assertThat(lines).hasSize(5);
        assertThat(csv).doesNotContain(",=HYPERLINK").doesNotContain(",\"=HYPERLINK");
    }

    @Test
    void badFiltersAreNamedAndRolesHeld() {
        Api.admin().get("/api/audit-trail?from=yesterday").then().statusCode(400)
                .contentType("application/problem+json").body("detail", containsString("'from'"));
        Api.admin().get("/api/audit-trail?from=2026-12-02T10:00:00Z&to=2026-12-01T10:00:00Z").then().statusCode(400)
                .body("detail", containsString("must be before"));
        Api.admin().get("/api/audit-trail?limit=0").then().statusCode(400).body("detail", containsString("'limit'"));
        Api.admin().get("/api/audit-trail?before=x").then().statusCode(400).body("detail", containsString("'before'"));
        Api.admin().get("/api/audit-trail/export.csv?zone=Mars/Olympus").then().statusCode(400);
        String p = Api.uniquePrefix();
        Api.account(p + "-analyst", "analyst", null);
        Api.as(p + "-analyst", p + "-analyst-password").get("/api/audit-trail").then().statusCode(403);
    }

    @Test
    void theTrailRefusesChangesAndDeletions() throws Exception {
        Api.account(Api.uniquePrefix() + "-x", "analyst", null);  // at least one event
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
            assertThatThrownBy(() -> st.executeUpdate("update audit_event set actor = 'someone else'"))
                    .hasMessageContaining("append-only");
            assertThatThrownBy(() -> st.executeUpdate("delete from audit_event"))
                    .hasMessageContaining("append-only");
        }
    }
}
