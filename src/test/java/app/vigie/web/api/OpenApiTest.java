package app.vigie.web.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;

/**
 * The API's description (docs/api.md, "Description"): /q/openapi describes the API under /api only,
 * with its license, HTTP Basic as its scheme and the paging parameters; /q/swagger-ui starts (its inline scripts
 * allowed there only), while every other answer keeps the strict Content-Security-Policy.
 */
@QuarkusTest
class OpenApiTest {

    @Test
    void theDescriptionCoversTheApiAndNothingElse() {
        JsonPath d = RestAssured.given().get("/q/openapi?format=json").then().statusCode(200).extract().jsonPath();
        assertThat(d.getString("info.title")).isEqualTo("Vigie API");
        assertThat(d.getString("info.license.name")).isEqualTo("AGPL-3.0-only");
        Map<String, Object> paths = d.getMap("paths");
        assertThat(paths).containsKeys("/api/incidents", "/api/incidents/{id}/exposures", "/api/audit-log",
                "/api/obligations/plan", "/api/audit-trail");
        assertThat(paths.keySet()).allMatch(p -> p.startsWith("/api/"));
        List<String> listParameters = d.getList("paths.'/api/incidents'.get.parameters.name");
        assertThat(listParameters).contains("after", "limit", "offset", "status");
        assertThat(d.getString("components.securitySchemes.basic.scheme")).isEqualTo("basic");
        // the paged lists keep their item schema and describe their Link header
        for (String list : List.of("/api/incidents", "/api/incidents/{id}/exposures", "/api/incidents/{id}/findings",
                "/api/audit-trail")) {
            String ok = "paths.'" + list + "'.get.responses.'200'";
            assertThat(d.getString(ok + ".content.'application/json'.schema.type")).as(list).isEqualTo("array");
            assertThat(d.getString(ok + ".content.'application/json'.schema.items.'$ref'")).as(list).isNotBlank();
            assertThat(d.getMap(ok + ".headers")).as(list).containsKey("Link");
        }
    }

    @Test
    void theBrowsableDescriptionStartsAndOnlyItMayRunInlineScripts() {
        Response ui = RestAssured.given().get("/q/swagger-ui/");
        ui.then().statusCode(200);
        assertThat(ui.header("Content-Security-Policy")).contains("script-src 'self' 'unsafe-inline'");
        for (String path : List.of("/login", "/q/openapi", "/api/incidents", "/static/vigie.css")) {
            assertThat(RestAssured.given().get(path).header("Content-Security-Policy")).as(path)
                    .contains("script-src 'self';").doesNotContain("unsafe-inline");
        }
    }
}
