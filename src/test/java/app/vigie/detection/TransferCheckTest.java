package app.vigie.detection;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.test.junit.QuarkusTest;

import app.vigie.testing.Api;

/**
 * Reads of received positions whose sender never wrote XFER_SEND are not left unjudged in silence: past the timeout
 * they raise TRANSFER_SEND_MISSING in their deployment's incident, once; a send that comes later is still joined.
 * A transfer whose sender wrote its record raises nothing.
 */
@QuarkusTest
class TransferCheckTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    TransferCheck check;

    @Test
    void aReadWhoseSendNeverCameIsReportedAndJudgedWhenItComes() throws Exception {
        String p = Api.uniquePrefix();
        String quiet = Api.uniquePrefix();
        Api.post(Api.renamed(conformance("broken/unsent-transfer.ndjson"), p)).then().statusCode(200);
        Api.post(Api.renamed(conformance("pass/transfer-v1.1.ndjson"), quiet)).then().statusCode(200);
        // the timeout has not passed: nothing yet
        assertThat(check.check(Instant.now().minusSeconds(3600))).isZero();
        assertThat(check.check(Instant.now().plusSeconds(1))).isGreaterThanOrEqualTo(1);
        String id = incidentOf(p + "/llama-8b/prod-pd");
        JsonNode findings = JSON.readTree(Api.admin().get("/api/incidents/" + id + "/findings").then()
                .statusCode(200).extract().asString());
        assertThat(findings).singleElement().satisfies(f -> {
            assertThat(f.get("rule").asText()).isEqualTo("TRANSFER_SEND_MISSING");
            assertThat(f.get("subject").asText()).isEqualTo(p + "/req-a");
            assertThat(f.get("detail").asText()).contains("no XFER_SEND of " + p + "/req-a (transfer t-req-a) covered 8 of them");
        });
        assertThat(incidentOf(quiet + "/llama-8b/prod-pd")).isNull();
        // the incident's kept records show the read again (the wait itself is a fact of time, not of records)
        JsonNode evidence = JSON.readTree(Api.admin().get("/api/incidents/" + id + "/evidence-check").then()
                .statusCode(200).extract().asString());
        assertThat(evidence.get("reproduced").asBoolean()).as(evidence.toString()).isTrue();
        // checked once: a second pass raises nothing more
        assertThat(check.check(Instant.now().plusSeconds(1))).isZero();
        // the sender's records come at last (another stream of the deployment): the read is judged, quietly
        String send = "{\"v\":1,\"stream\":\"" + p + "/late-prefill\",\"boot\":\"b1\",\"seq\":1,\"ts\":"
                + "\"2026-08-27T09:00:00.001Z\",\"deployment\":\"" + p + "/llama-8b/prod-pd\",\"type\":\"CONFIG\","
                + "\"page_size\":4,\"pool_pages\":8,\"context_window\":32,\"max_input_tokens\":32,"
                + "\"extensions\":[\"xfer-send\"]}\n"
                + "{\"v\":1,\"stream\":\"" + p + "/late-prefill\",\"boot\":\"b1\",\"seq\":2,\"ts\":"
                + "\"2026-08-27T09:00:00.002Z\",\"deployment\":\"" + p + "/llama-8b/prod-pd\",\"type\":\"ALLOC\","
                + "\"request\":\"" + p + "/req-a\",\"tenant\":\"acme\",\"pages\":[[0,2]],\"purpose\":\"PREFILL\"}\n"
                + "{\"v\":1,\"stream\":\"" + p + "/late-prefill\",\"boot\":\"b1\",\"seq\":3,\"ts\":"
                + "\"2026-08-27T09:00:00.003Z\",\"deployment\":\"" + p + "/llama-8b/prod-pd\",\"type\":\"XFER_SEND\","
                + "\"request\":\"" + p + "/req-a\",\"tenant\":\"acme\",\"transfer\":\"t-req-a\",\"from\":0,"
                + "\"tokens\":8}\n";
        Api.post(send).then().statusCode(200);
        // never written on that sender: the read is judged against it now
        JsonNode after = JSON.readTree(Api.admin().get("/api/incidents/" + id + "/findings").then()
                .statusCode(200).extract().asString());
        assertThat(after.findValuesAsText("rule")).contains("TRANSFER_SEND_MISSING", "UNINITIALIZED_READ");
    }

    private static String conformance(String name) throws Exception {
        try (InputStream in = TransferCheckTest.class.getResourceAsStream("/conformance/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static String incidentOf(String deployment) throws Exception {
        for (JsonNode i : JSON.readTree(Api.admin().get("/api/incidents").then().statusCode(200).extract()
                .asString())) {
            if (i.get("deployment").asText().equals(deployment)) {
                return i.get("id").asText();
            }
        }
        return null;
    }
}
