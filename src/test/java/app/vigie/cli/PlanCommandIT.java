package app.vigie.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import app.vigie.testing.ServiceProcess;

/**
 * {@code java -jar target/quarkus-app/quarkus-run.jar plan FILE.json} on the packaged application: the plan on
 * standard output as JSON, nothing else there; bad facts and a missing file end with status 2 and a message naming
 * the problem.
 */
class PlanCommandIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theCommandPrintsThePlanOfTheFileAndRefusesBadFacts() throws Exception {
        ServiceProcess.Run run = ServiceProcess.commandApart(Map.of(), "plan",
                Path.of("src/test/resources/compliance/plan-example.json").toAbsolutePath().toString());
        assertThat(run.exit()).as(run.err()).isZero();
        JsonNode answer = JSON.readTree(run.out());  // the whole of standard output is the answer
        assertThat(answer.path("rules_version").asText()).startsWith("sha256:");
        assertThat(answer.path("obligations").findValuesAsText("rule")).contains("nis2-23-4a", "gdpr-33-1",
                "dora-19-initial");
        // the same answer as the endpoint's for the same facts and rules (PlanApiTest checks the endpoint)
        JsonNode initial = null;
        for (JsonNode o : answer.path("obligations")) {
            if (o.path("rule").asText().equals("dora-19-initial")) {
                initial = o;
            }
        }
        assertThat(initial.path("due_at").asText()).isEqualTo("2026-10-25T05:30:00Z");
        assertThat(initial.path("status").asText()).isEqualTo("DONE");

        Path bad = Files.createTempFile("plan", ".json");
        Files.writeString(bad, "{\"incident\":{\"detected_at\":\"yesterday\"}}");
        ServiceProcess.Run refused = ServiceProcess.commandApart(Map.of(), "plan", bad.toString());
        assertThat(refused.exit()).isEqualTo(2);
        assertThat(refused.err()).contains("field 'incident.detected_at'");
        assertThat(refused.out()).isEmpty();
        ServiceProcess.Run missing = ServiceProcess.commandApart(Map.of(), "plan", bad + ".absent");
        assertThat(missing.exit()).isEqualTo(2);
        assertThat(missing.err()).contains("cannot read");
        Files.delete(bad);
    }
}
