package app.vigie.detection;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;

import app.vigie.auditlog.GapService;
import app.vigie.auditlog.IngestConfig;
import app.vigie.runtime.log.PageRun;
import app.vigie.runtime.log.AuditLogWriter;
import app.vigie.testing.Api;
import app.vigie.testing.Logs;

/**
 * Spec 1.3, amendment 5, through the service: a read of received positions that no sender's XFER_SEND covers is held
 * until a flush (explicit, or the stream-gap timeout), then judged as in version 1 (the receiving request as the last
 * writer) and the receiving request raises TRANSFER_SEND_MISSING. A send that comes later adds its judgement:
 * exposures only grow. A transfer whose sender wrote its record resolves nothing.
 */
@QuarkusTest
class HeldReadsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    GapService gaps;

    @Inject
    IngestConfig ingest;

    @Inject
    AgroalDataSource dataSource;

    /**
     * The reader is the receiving request: version 1 finds its own content, so only TRANSFER_SEND_MISSING; the
     * evidence check shows it again; the sender's records at last add what they tell (never written there).
     */
    @Test
    void aHeldReadIsResolvedAtAnExplicitFlushAndALateSendAddsItsJudgement() throws Exception {
        String p = Api.uniquePrefix();
        String quiet = Api.uniquePrefix();
        Api.post(Api.renamed(conformance("broken/unsent-transfer.ndjson"), p)).then().statusCode(200);
        Api.post(Api.renamed(conformance("pass/transfer-v1.1.ndjson"), quiet)).then().statusCode(200);
        assertThat(incidentOf(p + "/llama-8b/prod-pd")).as("held, not judged, before a flush").isNull();
        // a read its send covered is stored as checked at once (a flush has nothing to resolve in it); a held one not
        assertThat(checked(p + "/req-a")).containsExactly(false);
        assertThat(checked(quiet + "/req-a")).isNotEmpty().containsOnly(true);

        JsonNode flushed = JSON.readTree(Api.admin().post("/api/audit-log/flush").then().statusCode(200).extract()
                .asString());
        assertThat(flushed.get("held_reads").asInt()).isPositive();
        String id = incidentOf(p + "/llama-8b/prod-pd");
        assertThat(rules(id)).containsExactly(Map.entry("TRANSFER_SEND_MISSING", p + "/req-a"));
        assertThat(findings(id).get(0).get("detail").asText()).contains("no XFER_SEND of it covered 8 of them when"
                + " the log was flushed").contains("(transfer t-req-a)");
        assertThat(incidentOf(quiet + "/llama-8b/prod-pd")).as("covered by its send: nothing held").isNull();
        JsonNode evidence = JSON.readTree(Api.admin().get("/api/incidents/" + id + "/evidence-check").then()
                .statusCode(200).extract().asString());
        assertThat(evidence.get("reproduced").asBoolean()).as(evidence.toString()).isTrue();
        // resolved once: a second flush adds nothing to it
        Api.admin().post("/api/audit-log/flush").then().statusCode(200);
        assertThat(findings(id)).hasSize(1);

        // the sender's records come at last (another stream of the deployment): never written there
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
        assertThat(rules(id)).containsEntry("TRANSFER_SEND_MISSING", p + "/req-a")
                .containsEntry("UNINITIALIZED_READ", p + "/req-a").containsEntry("TRANSFER_SENT_FOREIGN", p + "/req-a");
    }

    /**
     * A read stored as covered (its transfer's send was there) waits for a flush again when another send of that
     * transfer (the prefill node's second tensor-parallel rank) extends its chain to a hop no send covers: the rank
     * had received those positions by a transfer whose sender never wrote its XFER_SEND. The flush judges that hop.
     */
    @Test
    void aCoveredReadWhoseChainALaterSendExtendsWaitsForTheFlush() throws Exception {
        String p = Api.uniquePrefix();
        String dep = p + "/llama-8b/prod-pd";
        String req = p + "/req-a";
        Instant t = Instant.parse("2026-08-27T09:00:00Z");
        List<PageRun> pages = List.of(new PageRun(0, 2));
        List<String> first = new ArrayList<>();
        AuditLogWriter rank0 = new AuditLogWriter(p + "/prefill/rank0", dep, "b1", first::add);
        AuditLogWriter decode = new AuditLogWriter(p + "/decode", dep, "b1", first::add);
        rank0.config(t, 4, 8, 32, 32);
        decode.config(t, 4, 8, 32, 32);
        rank0.alloc(t, req, "acme", pages, "PREFILL", null);
        rank0.write(t, req, "acme", 0, 8, "COMPUTE", null);
        rank0.xferSend(t, req, "acme", "t1", 0, 8);
        decode.alloc(t, req, "acme", pages, "PREALLOC", 8);
        decode.write(t, req, "acme", 0, 8, "TRANSFER", "t1", null);
        decode.attach(t, req, "acme", 8);
        Api.post(Logs.body(first)).then().statusCode(200);
        assertThat(checked(req)).as("covered by rank 0's send").containsExactly(true);

        List<String> later = new ArrayList<>();
        AuditLogWriter rank1 = new AuditLogWriter(p + "/prefill/rank1", dep, "b1", later::add);
        rank1.config(t, 4, 8, 32, 32);
        rank1.alloc(t, req, "acme", pages, "PREALLOC", 8);
        rank1.write(t, req, "acme", 0, 8, "TRANSFER", "t0", null);
        rank1.xferSend(t, req, "acme", "t1", 0, 8);
        Api.post(Logs.body(later)).then().statusCode(200);
        assertThat(checked(req)).as("its chain now reaches t0, which no send covers").containsExactly(false);

        Api.admin().post("/api/audit-log/flush").then().statusCode(200);
        assertThat(rules(incidentOf(dep))).containsEntry("TRANSFER_SEND_MISSING", req);
        assertThat(checked(req)).containsExactly(true);
    }

    /** The {@code checked} flag of every stored read whose receiving request is {@code via}. */
    private List<Boolean> checked(String via) throws Exception {
        List<Boolean> out = new ArrayList<>();
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement("select checked from transfer_read where via = ?")) {
            ps.setString(1, via);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getBoolean(1));
                }
            }
        }
        return out;
    }

    /**
     * The reader is not the receiving request (req-b took req-a's freed pages, which held what req-a received): the
     * gap timeout judges them as in version 1, a cross-tenant read of req-a; req-a's sender's records, coming later,
     * add that half of them were never written there. The exposure stays 8 tokens.
     */
    @Test
    void theGapTimeoutJudgesAHeldReadAsVersion1AndExposuresOnlyGrow() throws Exception {
        String p = Api.uniquePrefix();
        String d = "{\"v\":1,\"stream\":\"" + p + "/decode\",\"boot\":\"b1\",\"deployment\":\"" + p + "/prod-pd\",";
        Api.post(d + "\"seq\":1,\"ts\":\"2026-12-06T09:00:00.001Z\",\"type\":\"CONFIG\",\"page_size\":4,"
                + "\"pool_pages\":16,\"context_window\":64,\"max_input_tokens\":64,\"extensions\":[\"xfer-send\"]}\n"
                + d + "\"seq\":2,\"ts\":\"2026-12-06T09:00:00.020Z\",\"type\":\"ALLOC\",\"request\":\"" + p + "/req-a\","
                + "\"tenant\":\"acme\",\"pages\":[[0,2]],\"purpose\":\"PREALLOC\",\"claimed_tokens\":8}\n"
                + d + "\"seq\":3,\"ts\":\"2026-12-06T09:00:00.021Z\",\"type\":\"WRITE\",\"request\":\"" + p + "/req-a\","
                + "\"tenant\":\"acme\",\"from\":0,\"tokens\":8,\"source\":\"TRANSFER\",\"sent\":true,\"transfer\":\"t1\"}\n"
                + d + "\"seq\":4,\"ts\":\"2026-12-06T09:00:00.022Z\",\"type\":\"FREE\",\"request\":\"" + p + "/req-a\","
                + "\"pages\":[[0,2]],\"reason\":\"FINISH\"}\n"
                + d + "\"seq\":5,\"ts\":\"2026-12-06T09:00:00.023Z\",\"type\":\"ALLOC\",\"request\":\"" + p + "/req-b\","
                + "\"tenant\":\"globex\",\"pages\":[[0,2]],\"purpose\":\"PREALLOC\",\"claimed_tokens\":8}\n"
                + d + "\"seq\":6,\"ts\":\"2026-12-06T09:00:00.024Z\",\"type\":\"ATTACH\",\"request\":\"" + p + "/req-b\","
                + "\"tenant\":\"globex\",\"tokens\":8}\n").then().statusCode(200);
        assertThat(incidentOf(p + "/prod-pd")).isNull();
        // before the timeout: nothing
        gaps.timedOut(Instant.now());
        assertThat(incidentOf(p + "/prod-pd")).isNull();
        GapService.Flushed f = gaps.timedOut(Instant.now().plus(ingest.gapTimeout()).plusSeconds(5));
        assertThat(f.heldReads()).isPositive();
        String id = incidentOf(p + "/prod-pd");
        assertThat(rules(id)).containsEntry("CROSS_TENANT_READ", p + "/req-b")
                .containsEntry("TRANSFER_SEND_MISSING", p + "/req-a").hasSize(2);
        JsonNode incident = Api.incident(p + "/prod-pd");
        assertThat(incident.get("classification").asText()).isEqualTo("PERSONAL_DATA_BREACH");
        assertThat(exposure(id)).isEqualTo("CROSS_TENANT 8");

        String s = "{\"v\":1,\"stream\":\"" + p + "/prefill\",\"boot\":\"b1\",\"deployment\":\"" + p + "/prod-pd\",";
        Api.post(s + "\"seq\":1,\"ts\":\"2026-12-06T09:00:00.001Z\",\"type\":\"CONFIG\",\"page_size\":4,"
                + "\"pool_pages\":8,\"context_window\":32,\"max_input_tokens\":32,\"extensions\":[\"xfer-send\"]}\n"
                + s + "\"seq\":2,\"ts\":\"2026-12-06T09:00:00.002Z\",\"type\":\"ALLOC\",\"request\":\"" + p + "/req-a\","
                + "\"tenant\":\"acme\",\"pages\":[[0,2]],\"purpose\":\"PREFILL\"}\n"
                + s + "\"seq\":3,\"ts\":\"2026-12-06T09:00:00.003Z\",\"type\":\"WRITE\",\"request\":\"" + p + "/req-a\","
                + "\"tenant\":\"acme\",\"from\":0,\"tokens\":4,\"source\":\"COMPUTE\"}\n"
                + s + "\"seq\":4,\"ts\":\"2026-12-06T09:00:00.004Z\",\"type\":\"XFER_SEND\",\"request\":\"" + p
                + "/req-a\",\"tenant\":\"acme\",\"transfer\":\"t1\",\"from\":0,\"tokens\":8}\n").then().statusCode(200);
        assertThat(rules(id)).containsEntry("UNINITIALIZED_READ", p + "/req-b")
                .containsEntry("TRANSFER_SENT_FOREIGN", p + "/req-a");
        assertThat(exposure(id)).as("exposures only grow").isEqualTo("CROSS_TENANT 8");
        JsonNode evidence = JSON.readTree(Api.admin().get("/api/incidents/" + id + "/evidence-check").then()
                .statusCode(200).extract().asString());
        assertThat(evidence.get("reproduced").asBoolean()).as(evidence.toString()).isTrue();
    }

    /** An ingest account bound to its streams flushes its own held reads only. */
    @Test
    void anIngestAccountFlushesOnlyItsOwnHeldReads() throws Exception {
        String mine = Api.uniquePrefix();
        String other = Api.uniquePrefix();
        String account = "held-" + mine.replace("/", "");
        Api.account(account, "ingest", null);
        Api.admin().contentType("application/json").body("{\"stream_prefixes\":[\"" + mine + "/\"]}")
                .put("/api/accounts/" + account + "/ingest-scope").then().statusCode(200);
        Api.as(account, account + "-password").contentType("application/x-ndjson")
                .body(Api.renamed(conformance("broken/unsent-transfer.ndjson"), mine).getBytes(StandardCharsets.UTF_8))
                .post("/api/audit-log").then().statusCode(200);
        Api.post(Api.renamed(conformance("broken/unsent-transfer.ndjson"), other)).then().statusCode(200);
        Api.as(account, account + "-password").post("/api/audit-log/flush").then().statusCode(200);
        assertThat(rules(incidentOf(mine + "/llama-8b/prod-pd"))).containsEntry("TRANSFER_SEND_MISSING",
                mine + "/req-a");
        assertThat(incidentOf(other + "/llama-8b/prod-pd")).as("another account's streams: still held").isNull();
    }

    private static String conformance(String name) throws Exception {
        try (InputStream in = HeldReadsTest.class.getResourceAsStream("/conformance/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static List<JsonNode> findings(String id) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        JSON.readTree(Api.all("/api/incidents/" + id + "/findings")).forEach(out::add);
        return out;
    }

    /** rule -> subject of each finding of the incident. */
    private static Map<String, String> rules(String id) throws Exception {
        Map<String, String> out = new TreeMap<>();
        for (JsonNode f : findings(id)) {
            out.put(f.get("rule").asText(), f.get("subject").asText());
        }
        return out;
    }

    /** "KIND tokens" of the incident's one exposure. */
    private static String exposure(String id) throws Exception {
        JsonNode all = JSON.readTree(Api.all("/api/incidents/" + id + "/exposures"));
        assertThat(all).hasSize(1);
        return all.get(0).get("kind").asText() + " " + all.get(0).get("tokens").asInt();
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
