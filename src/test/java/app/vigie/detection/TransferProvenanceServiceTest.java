package app.vigie.detection;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;

import app.vigie.detection.store.TransferStore;
import app.vigie.runtime.engine.Fault;
import app.vigie.runtime.engine.GroundTruth;
import app.vigie.runtime.sim.Simulation;
import app.vigie.runtime.sim.Simulation.Options;
import app.vigie.runtime.sim.Simulation.Scenario;
import app.vigie.testing.Api;

/**
 * Spec v1.1 through the service: a free during a KV transfer, logged by the reference runtime with the sender's
 * {@code XFER_SEND}, gives exactly the exposures its ground truth says (the intruder's tokens, across tenants), whether
 * Vigie reads the decode stream before the prefill stream, after it, or both interleaved in small posts (each its own
 * transaction); the incident's evidence check replays them again.
 */
@QuarkusTest
class TransferProvenanceServiceTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    AgroalDataSource dataSource;

    @Test
    void aFreeDuringATransferIsTheIntrudersExposureInAnyOrderOfTheTwoStreams() throws Exception {
        for (String order : List.of("decode-first", "prefill-first", "interleaved")) {
            String deployment = "xfer-" + order + "/prod";
            List<String> lines = new ArrayList<>();
            Simulation.Summary summary = Simulation.run(new Options(Scenario.INCIDENT_2026, 6, 300,
                    EnumSet.of(Fault.FREE_DURING_TRANSFER), Set.of(), 2026, deployment, 0.15), lines::add, null);
            GroundTruth truth = summary.truth();
            assertThat(truth.readers()).as(order).isNotEmpty();
            // request ids are the gateway's, unique across runs: give each order its own
            String prefix = order + "/";
            List<String> renamed = new ArrayList<>();
            for (String line : lines) {
                renamed.add(line.replace("\"request\":\"", "\"request\":\"" + prefix)
                        .replace("\"stream\":\"", "\"stream\":\"" + prefix));
            }
            List<String> prefill = renamed.stream().filter(l -> l.contains("/prefill/")).toList();
            List<String> decode = renamed.stream().filter(l -> l.contains("/decode/")).toList();
            switch (order) {
                case "decode-first" -> {
                    post(decode, 500);
                    post(prefill, 500);
                }
                case "prefill-first" -> {
                    post(prefill, 500);
                    post(decode, 500);
                }
                default -> interleave(prefill, decode, new Random(7));
            }
            String incident = incidentOf(deployment);
            assertThat(exposures(incident, prefix)).as(order).isEqualTo(truth(truth));
            JsonNode check = JSON.readTree(Api.admin().get("/api/incidents/" + incident + "/evidence-check").then()
                    .statusCode(200).extract().asString());
            assertThat(check.get("reproduced").asBoolean()).as(order + ": " + check).isTrue();
        }
        try (Connection c = dataSource.getConnection()) {
            for (String order : List.of("decode-first/", "prefill-first/", "interleaved/")) {
                assertThat(TransferStore.unresolvedReads(c, order)).as("reads waiting for a send").isZero();
            }
        }
    }

    /**
     * Spec 1.3, amendment 7, through the service: the receiver reads the same received positions at 09:00:00.030 and
     * again at .050; the incident's exposure span and the exposure's own run from the first to the latest, whether
     * the sender's stream comes first, last, or line by line between the receiver's.
     */
    @Test
    void lastExposureAtIsTheLatestAttachThatReadReceivedPositions() throws Exception {
        for (String order : List.of("sender first", "receiver first", "receiver line by line, sender last")) {
            String x = Api.uniquePrefix();
            String dep = x + "/prod-pd";
            String env = ",\"boot\":\"b1\",\"deployment\":\"" + dep + "\",";
            String ps = "{\"v\":1,\"stream\":\"" + x + "/prefill\"" + env;
            String ds = "{\"v\":1,\"stream\":\"" + x + "/decode\"" + env;
            List<String> sender = List.of(
                    ps + "\"seq\":1,\"ts\":\"2026-12-06T09:00:00.001Z\",\"type\":\"CONFIG\",\"page_size\":4,"
                            + "\"pool_pages\":8,\"context_window\":32,\"max_input_tokens\":32,"
                            + "\"extensions\":[\"xfer-send\"]}",
                    ps + "\"seq\":2,\"ts\":\"2026-12-06T09:00:00.002Z\",\"type\":\"ALLOC\",\"request\":\"" + x + "req-a\","
                            + "\"tenant\":\"acme\",\"pages\":[[0,2]],\"purpose\":\"PREFILL\"}",
                    ps + "\"seq\":3,\"ts\":\"2026-12-06T09:00:00.003Z\",\"type\":\"WRITE\",\"request\":\"" + x + "req-a\","
                            + "\"tenant\":\"acme\",\"from\":0,\"tokens\":8,\"source\":\"COMPUTE\"}",
                    ps + "\"seq\":4,\"ts\":\"2026-12-06T09:00:00.004Z\",\"type\":\"FREE\",\"request\":\"" + x + "req-a\","
                            + "\"pages\":[[0,2]],\"reason\":\"ABORT\"}",
                    ps + "\"seq\":5,\"ts\":\"2026-12-06T09:00:00.005Z\",\"type\":\"ALLOC\",\"request\":\"" + x + "req-x\","
                            + "\"tenant\":\"globex\",\"pages\":[[0,2]],\"purpose\":\"PREFILL\"}",
                    ps + "\"seq\":6,\"ts\":\"2026-12-06T09:00:00.006Z\",\"type\":\"WRITE\",\"request\":\"" + x + "req-x\","
                            + "\"tenant\":\"globex\",\"from\":0,\"tokens\":8,\"source\":\"COMPUTE\"}",
                    ps + "\"seq\":7,\"ts\":\"2026-12-06T09:00:00.007Z\",\"type\":\"XFER_SEND\",\"request\":\"" + x + "req-a\","
                            + "\"tenant\":\"acme\",\"transfer\":\"t1\",\"from\":0,\"tokens\":8}");
            List<String> receiver = List.of(
                    ds + "\"seq\":1,\"ts\":\"2026-12-06T09:00:00.001Z\",\"type\":\"CONFIG\",\"page_size\":4,"
                            + "\"pool_pages\":16,\"context_window\":64,\"max_input_tokens\":64,"
                            + "\"extensions\":[\"xfer-send\"]}",
                    ds + "\"seq\":2,\"ts\":\"2026-12-06T09:00:00.020Z\",\"type\":\"ALLOC\",\"request\":\"" + x + "req-a\","
                            + "\"tenant\":\"acme\",\"pages\":[[0,3]],\"purpose\":\"PREALLOC\",\"claimed_tokens\":8}",
                    ds + "\"seq\":3,\"ts\":\"2026-12-06T09:00:00.021Z\",\"type\":\"WRITE\",\"request\":\"" + x + "req-a\","
                            + "\"tenant\":\"acme\",\"from\":0,\"tokens\":8,\"source\":\"TRANSFER\",\"sent\":true,"
                            + "\"transfer\":\"t1\"}",
                    ds + "\"seq\":4,\"ts\":\"2026-12-06T09:00:00.030Z\",\"type\":\"ATTACH\",\"request\":\"" + x + "req-a\","
                            + "\"tenant\":\"acme\",\"tokens\":8}",
                    ds + "\"seq\":5,\"ts\":\"2026-12-06T09:00:00.040Z\",\"type\":\"WRITE\",\"request\":\"" + x + "req-a\","
                            + "\"tenant\":\"acme\",\"from\":8,\"tokens\":1,\"source\":\"COMPUTE\"}",
                    ds + "\"seq\":6,\"ts\":\"2026-12-06T09:00:00.050Z\",\"type\":\"ATTACH\",\"request\":\"" + x + "req-a\","
                            + "\"tenant\":\"acme\",\"tokens\":9}");
            switch (order) {
                case "sender first" -> {
                    post(sender, 100);
                    post(receiver, 100);
                }
                case "receiver first" -> {
                    post(receiver, 100);
                    post(sender, 100);
                }
                default -> {
                    post(receiver, 1);
                    post(sender, 100);
                }
            }
            String incident = incidentOf(dep);
            JsonNode i = JSON.readTree(Api.admin().get("/api/incidents/" + incident).then().statusCode(200).extract()
                    .asString());
            assertThat(i.get("first_exposure_at").asText()).as(order).startsWith("2026-12-06T09:00:00.03");
            assertThat(i.get("last_exposure_at").asText()).as(order).startsWith("2026-12-06T09:00:00.05");
            assertThat(exposures(incident, x)).as(order).isEqualTo(Map.of("req-a", Map.of("req-x", 8)));
        }
    }

    /** Posts small slices of each stream, in seq order within each, alternating at random between them. */
    private static void interleave(List<String> a, List<String> b, Random random) {
        int i = 0;
        int j = 0;
        while (i < a.size() || j < b.size()) {
            boolean fromA = j >= b.size() || i < a.size() && random.nextBoolean();
            int n = 1 + random.nextInt(40);
            if (fromA) {
                post(a.subList(i, Math.min(a.size(), i + n)), n);
                i = Math.min(a.size(), i + n);
            } else {
                post(b.subList(j, Math.min(b.size(), j + n)), n);
                j = Math.min(b.size(), j + n);
            }
        }
    }

    private static void post(List<String> lines, int batch) {
        for (int from = 0; from < lines.size(); from += batch) {
            String body = String.join("\n", lines.subList(from, Math.min(lines.size(), from + batch))) + "\n";
            Api.post(body).then().statusCode(200);
        }
    }

    private static String incidentOf(String deployment) throws Exception {
        JsonNode incidents = JSON.readTree(Api.admin().get("/api/incidents").then().statusCode(200).extract()
                .asString());
        for (JsonNode i : incidents) {
            if (i.get("deployment").asText().equals(deployment)) {
                return i.get("id").asText();
            }
        }
        throw new AssertionError("no incident for " + deployment);
    }

    /** reader -> victim -> tokens, from the API. */
    private static Map<String, Map<String, Integer>> exposures(String incident, String prefix) throws Exception {
        Map<String, Map<String, Integer>> out = new TreeMap<>();
        JsonNode list = JSON.readTree(Api.admin().get("/api/incidents/" + incident + "/exposures").then()
                .statusCode(200).extract().asString());
        for (JsonNode e : list) {
            assertThat(e.get("kind").asText()).isEqualTo("CROSS_TENANT");
            out.computeIfAbsent(e.get("reader_request").asText().substring(prefix.length()), k -> new TreeMap<>())
                    .put(e.get("victim_request").asText().substring(prefix.length()), e.get("tokens").asInt());
        }
        return out;
    }

    private static Map<String, Map<String, Integer>> truth(GroundTruth t) {
        Map<String, Map<String, Integer>> out = new TreeMap<>();
        t.readers().forEach((reader, r) -> out.put(reader, r.tokensByVictim()));
        return out;
    }
}
