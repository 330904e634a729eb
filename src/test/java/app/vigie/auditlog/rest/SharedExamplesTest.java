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

/** The shared examples, posted whole as one batch each, give exactly the batch answer of their expected file. */
@QuarkusTest
class SharedExamplesTest {

    @ParameterizedTest
    @ValueSource(strings = {"01-benign-colocated", "02-partial-overwrite", "03-pd-rejected-prompt",
            "04-prefix-shared-same-tenant"})
    void ingestsWithTheExpectedCounts(String name) throws Exception {
        JsonNode expected = new ObjectMapper().readTree(Api.example(name + ".expected.json")).get("batches").get(0);

        JsonPath answer = Api.post(Api.example(name + ".ndjson")).then().statusCode(200).extract().jsonPath();

        assertThat(answer.getLong("accepted")).isEqualTo(expected.get("accepted").asLong());
        assertThat(answer.getLong("duplicates")).isEqualTo(expected.get("duplicates").asLong());
        assertThat(answer.getLong("pending")).isEqualTo(expected.get("pending").asLong());
        List<Long> expectedLines = new ArrayList<>();
        expected.get("rejected_lines").forEach(n -> expectedLines.add(n.asLong()));
        assertThat(answer.getList("rejected.line", Long.class)).containsExactlyElementsOf(expectedLines);
    }
}
