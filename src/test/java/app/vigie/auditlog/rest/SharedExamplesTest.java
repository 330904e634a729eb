package app.vigie.auditlog.rest;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

import app.vigie.testing.Api;
import app.vigie.testing.Projection;

/**
 * The shared examples, posted whole as one batch each on their own deployments, give exactly their expected file:
 * the batch answer, and every field of every incident, exposure and tenant but {@code id}, {@code status} and
 * {@code detected_at}.
 */
@QuarkusTest
class SharedExamplesTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @ParameterizedTest
    @ValueSource(strings = {"01-benign-colocated", "02-partial-overwrite", "03-pd-rejected-prompt",
            "04-prefix-shared-same-tenant"})
    void ingestAndDetectExactlyAsExpected(String name) throws Exception {
        JsonNode expected = JSON.readTree(Api.example(name + ".expected.json"));
        JsonNode batch = expected.get("batches").get(0);

        JsonPath answer = Api.post(Api.example(name + ".ndjson")).then().statusCode(200).extract().jsonPath();

        assertThat(answer.getLong("accepted")).isEqualTo(batch.get("accepted").asLong());
        assertThat(answer.getLong("duplicates")).isEqualTo(batch.get("duplicates").asLong());
        assertThat(answer.getLong("pending")).isEqualTo(batch.get("pending").asLong());
        List<Long> expectedLines = new ArrayList<>();
        batch.get("rejected_lines").forEach(n -> expectedLines.add(n.asLong()));
        assertThat(answer.getList("rejected.line", Long.class)).containsExactlyElementsOf(expectedLines);

        for (String deployment : deployments(Api.example(name + ".ndjson"))) {
            JsonNode actual = Api.incident(deployment);
            JsonNode wanted = expected.get("incidents").get(deployment);
            if (wanted == null) {
                assertThat(actual).as("no incident for %s", deployment).isNull();
            } else {
                assertThat(Projection.onto(actual, wanted)).isEqualTo(wanted);
                JsonPath listed = Api.admin().get("/api/incidents").then().statusCode(200).extract().jsonPath();
                assertThat(listed.getString("find { it.deployment == '" + deployment + "' }.status"))
                        .isEqualTo("OPEN");
                assertThat(listed.getString("find { it.deployment == '" + deployment + "' }.detected_at"))
                        .matches("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3,6}Z");
            }
        }
    }

    private static List<String> deployments(String ndjson) throws Exception {
        List<String> out = new ArrayList<>();
        for (String line : Api.lines(ndjson)) {
            String d = JSON.readTree(line).get("deployment").asText();
            if (!out.contains(d)) {
                out.add(d);
            }
        }
        return out;
    }

}
