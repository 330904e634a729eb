package app.vigie.detection;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.test.junit.QuarkusTest;

import app.vigie.runtime.log.AuditLogWriter;
import app.vigie.runtime.log.PageRun;
import app.vigie.testing.Api;
import app.vigie.testing.PdfChecks;
import app.vigie.web.DashboardActionsTest;

/** Spec 1.3's amendments through the service: posted over HTTP, read back from the API. */
@QuarkusTest
public class AmendmentsServiceTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static String conformance(String path) {
        try (InputStream in = AmendmentsServiceTest.class.getResourceAsStream("/conformance/" + path)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Amendment 6: a restart while the request still owns pages is applied, nothing quarantined; the request raises
     * RESTART_WHILE_OWNING in its deployment's incident, a security event: req-b, which then takes the pages req-a
     * held, is no DOUBLE_ALLOC, and reads its own writes (no exposure either way).
     */
    @Test
    void aRestartWhileOwningIsAppliedWithAFinding() throws Exception {
        String p = Api.uniquePrefix();
        String log = Api.renamed(conformance("faulty/restart-while-owning-v1.3.ndjson"), p);
        JsonNode answer = JSON.readTree(Api.post(log).then().statusCode(200).extract().asString());
        assertThat(answer.get("accepted").asInt()).isEqualTo(11);
        assertThat(answer.get("rejected")).isEmpty();
        JsonNode incident = Api.incident(p + "/llama-8b/prod");
        assertThat(incident).as("the deployment's incident").isNotNull();
        assertThat(incident.get("classification").asText()).isEqualTo("SECURITY_EVENT");
        assertThat(incident.get("exposures")).isEmpty();
        assertThat(incident.get("findings").toString()).isEqualTo("{\"RESTART_WHILE_OWNING\":1}");
        String id = null;
        for (JsonNode i : JSON.readTree(Api.admin().get("/api/incidents").then().statusCode(200).extract()
                .asString())) {
            if (i.get("deployment").asText().equals(p + "/llama-8b/prod")) {
                id = i.get("id").asText();
            }
        }
        JsonNode findings = JSON.readTree(Api.all("/api/incidents/" + id + "/findings"));
        assertThat(findings).hasSize(1);
        assertThat(findings.get(0).get("rule").asText()).isEqualTo("RESTART_WHILE_OWNING");
        assertThat(findings.get(0).get("subject").asText()).isEqualTo(p + "/req-a");
        String quarantine = Api.admin().get("/api/quarantine?size=500").then().statusCode(200).extract().asString();
        assertThat(quarantine).doesNotContain(p + "/");
    }

    /**
     * Amendment 1 over HTTP: a record using an extension its boot did not declare is accepted (stored, not rejected)
     * and kept in the quarantine as impossible with the reason, without effect (the ALLOC after it is no DOUBLE_ALLOC);
     * a boot declaring an extension this Vigie does not know raises STREAM_UNSUPPORTED and its records are kept,
     * not quarantined, not judged; the other streams of the deployment are judged.
     */
    @Test
    void anUndeclaredExtensionIsQuarantinedAndAnUnknownOneLeavesItsBootUnjudged() throws Exception {
        String p = Api.uniquePrefix();
        String log = Api.renamed(conformance("broken/extension-not-declared.ndjson")
                + conformance("faulty/unknown-extension-v1.3.ndjson").replace("par1/n3/", "par1/n5/"), p);
        JsonNode answer = JSON.readTree(Api.post(log).then().statusCode(200).extract().asString());
        assertThat(answer.get("accepted").asInt()).isEqualTo(8);
        assertThat(answer.get("rejected")).isEmpty();

        JsonNode kept = JSON.readTree(Api.admin().get("/api/quarantine?source=apply&size=500").then().statusCode(200)
                .extract().asString()).get("items");
        List<JsonNode> ours = new ArrayList<>();
        kept.forEach(q -> {
            if (q.path("stream").asText().startsWith(p + "/")) {
                ours.add(q);
            }
        });
        assertThat(ours).singleElement().satisfies(q -> {
            assertThat(q.get("stream").asText()).isEqualTo(p + "/par1/n3/colo/dp0");
            assertThat(q.get("reason").asText()).contains("ALLOC: extension not declared: 'restart' (the CONFIG of "
                    + "boot 'b1' declares none); no effect");
        });

        JsonNode incident = Api.incident(p + "/llama-8b/prod");
        assertThat(incident).as("the deployment's incident").isNotNull();
        assertThat(incident.get("classification").asText()).isEqualTo("SECURITY_EVENT");
        assertThat(incident.get("exposures")).isEmpty();
        assertThat(incident.get("findings").toString()).isEqualTo("{\"STREAM_UNSUPPORTED\":1}");
        String id = null;
        for (JsonNode i : JSON.readTree(Api.admin().get("/api/incidents").then().statusCode(200).extract()
                .asString())) {
            if (i.get("deployment").asText().equals(p + "/llama-8b/prod")) {
                id = i.get("id").asText();
            }
        }
        JsonNode finding = JSON.readTree(Api.all("/api/incidents/" + id + "/findings")).get(0);
        assertThat(finding.get("subject").asText()).isEqualTo(p + "/par1/n4/colo/dp0@b1");
        assertThat(finding.get("detail").asText()).contains("extension 'kv-offload' that this Vigie does not know");
    }

    /**
     * Amendment 2 over HTTP, in both orders of the streams: the retry t2 of req-a's stale pages went to a receiver
     * absent from this log; the receiver here got t1 (req-a's own content), so nothing was exposed. Version 1.1 joined
     * by request and reported req-x's tokens read by req-a.
     */
    @Test
    void aRetryToAnotherReceiverIsNotAnExposureHere() throws Exception {
        String log = conformance("faulty/retry-to-another-receiver-v1.3.ndjson");
        List<String> lines = log.lines().toList();
        for (boolean senderFirst : List.of(true, false)) {
            String p = Api.uniquePrefix();
            List<String> ordered = new ArrayList<>(lines);
            if (!senderFirst) {
                ordered = new ArrayList<>(lines.subList(8, lines.size()));
                ordered.addAll(lines.subList(0, 8));
            }
            for (String line : ordered) {
                Api.post(Api.renamed(line + "\n", p)).then().statusCode(200);
            }
            JsonNode incident = Api.incident(p + "/llama-8b/prod-pd");
            assertThat(incident).as("the deployment's incident").isNotNull();
            assertThat(incident.get("classification").asText()).isEqualTo("SECURITY_EVENT");
            assertThat(incident.get("exposures")).as("sender first: " + senderFirst).isEmpty();
            assertThat(incident.get("findings").toString()).isEqualTo("{\"TRANSFER_SENT_FOREIGN\":1}");
        }
    }

    /**
     * Amendment 4 over HTTP, in three orders of the streams (each stream's records posted as they come, so that the
     * sends of a chain reach the service before, between and after the read): req-a read at the second decode node what
     * the first forwarded of req-x's stale content. The exposure is req-x's, to req-a: a breach. With one hop it named
     * req-a itself and found nothing.
     */
    @Test
    void aForwardedTransferIsJudgedAtItsOrigin() throws Exception {
        List<String> lines = conformance("pass/forwarded-twice-v1.3.ndjson").lines().toList();
        for (List<String> nodes : List.of(List.of("n17", "n21", "n22"), List.of("n22", "n21", "n17"),
                List.of("n21", "n22", "n17"))) {
            String p = Api.uniquePrefix();
            for (String node : nodes) {
                StringBuilder stream = new StringBuilder();
                lines.stream().filter(l -> l.contains("/" + node + "/")).forEach(l -> stream.append(l).append('\n'));
                Api.post(Api.renamed(stream.toString(), p)).then().statusCode(200);
            }
            JsonNode incident = Api.incident(p + "/llama-8b/prod-pd");
            assertThat(incident).as("the deployment's incident").isNotNull();
            assertThat(incident.get("classification").asText()).as(nodes.toString()).isEqualTo("PERSONAL_DATA_BREACH");
            assertThat(incident.get("findings").toString())
                    .isEqualTo("{\"CROSS_TENANT_READ\":1,\"TRANSFER_SENT_FOREIGN\":1}");
            assertThat(incident.get("exposures")).singleElement().satisfies(e -> {
                assertThat(e.get("reader_request").asText()).isEqualTo(p + "/req-a");
                assertThat(e.get("victim_request").asText()).isEqualTo(p + "/req-x");
                assertThat(e.get("tokens").asInt()).isEqualTo(8);
                assertThat(e.get("possible").asBoolean()).isFalse();
            });
            // the evidence check replays every boot the chain passed by, the first sender's included
            String id = null;
            for (JsonNode i : JSON.readTree(Api.admin().get("/api/incidents").then().statusCode(200).extract()
                    .asString())) {
                if (i.get("deployment").asText().equals(p + "/llama-8b/prod-pd")) {
                    id = i.get("id").asText();
                }
            }
            JsonNode check = JSON.readTree(Api.admin().get("/api/incidents/" + id + "/evidence-check").then()
                    .statusCode(200).extract().asString());
            assertThat(check.get("reproduced").asBoolean()).as(check.toString()).isTrue();
            assertThat(check.get("exposures").asInt()).isEqualTo(1);
        }
    }

    /**
     * Amendment 4, a hop whose sender raised nothing: on d, initech's req-b got req-a's received pages by a SHARE
     * without fingerprint, sent them (t9) to d2 and read them there. Its origin is where req-a received them: req-a's
     * own content at p, which raised nothing there. The sends come after the read, p's last. The exposure is req-a's,
     * to req-b, and the evidence check replays p's boot too (it holds no finding: only the chain names it).
     */
    @Test
    void aHopWithoutFindingIsPartOfTheEvidence() throws Exception {
        String p = Api.uniquePrefix();
        List<List<String>> streams = forwardedByAnotherRequest(p, false);
        for (List<String> stream : List.of(streams.get(2), streams.get(1), streams.get(0))) {
            Api.post(String.join("\n", stream) + "\n").then().statusCode(200);
        }
        String dep = p + "/llama-8b/prod-pd";
        JsonNode incident = Api.incident(dep);
        assertThat(incident.get("classification").asText()).isEqualTo("PERSONAL_DATA_BREACH");
        assertThat(incident.get("exposures")).singleElement().satisfies(e -> {
            assertThat(e.get("reader_request").asText()).isEqualTo(p + "/req-b");
            assertThat(e.get("victim_request").asText()).isEqualTo(p + "/req-a");
            assertThat(e.get("tokens").asInt()).isEqualTo(8);
        });
        JsonNode check = evidenceCheck(dep);
        assertThat(check.get("reproduced").asBoolean()).as(check.toString()).isTrue();
        assertThat(check.get("boots").asInt()).as(check.toString()).isEqualTo(3);
    }

    /**
     * Amendments 4 and 5: the first hop's sender is not there when the log is flushed. The read of req-b is judged at
     * that hop as in version 1 (req-a, which received the positions there, as their last writer: another tenant's) and
     * req-a raises TRANSFER_SEND_MISSING; the evidence check judges it so again. p's record, which comes later, tells
     * that what req-a received was req-x's: that exposure is added (exposures only grow).
     */
    @Test
    void aChainHeldAtAHopIsResolvedThereAtAFlush() throws Exception {
        String p = Api.uniquePrefix();
        String dep = p + "/llama-8b/prod-pd";
        List<List<String>> streams = forwardedByAnotherRequest(p, true);
        Api.post(String.join("\n", streams.get(2)) + "\n").then().statusCode(200);
        Api.post(String.join("\n", streams.get(1)) + "\n").then().statusCode(200);
        JsonNode held = Api.incident(dep);  // d's send of pages shared from another tenant: the sender's faults only
        assertThat(held.get("exposures")).as("held").isEmpty();
        assertThat(held.get("findings").has("TRANSFER_SEND_MISSING")).isFalse();
        Api.admin().post("/api/audit-log/flush").then().statusCode(200);
        JsonNode incident = Api.incident(dep);
        assertThat(incident).as("judged at the flush").isNotNull();
        assertThat(incident.get("findings").get("TRANSFER_SEND_MISSING").asInt()).isEqualTo(1);
        assertThat(incident.get("exposures")).singleElement().satisfies(e -> {
            assertThat(e.get("victim_request").asText()).isEqualTo(p + "/req-a");
            assertThat(e.get("tokens").asInt()).isEqualTo(8);
        });
        JsonNode check = evidenceCheck(dep);
        assertThat(check.get("reproduced").asBoolean()).as(check.toString()).isTrue();
        Api.post(String.join("\n", streams.get(0)) + "\n").then().statusCode(200);
        List<String> victims = new ArrayList<>();
        Api.incident(dep).get("exposures").forEach(e -> victims.add(e.get("victim_request").asText()));
        assertThat(victims).containsExactlyInAnyOrder(p + "/req-a", p + "/req-x");
    }

    private static JsonNode evidenceCheck(String deployment) throws IOException {
        String id = null;
        for (JsonNode i : JSON.readTree(Api.admin().get("/api/incidents").then().statusCode(200).extract()
                .asString())) {
            if (i.get("deployment").asText().equals(deployment)) {
                id = i.get("id").asText();
            }
        }
        return JSON.readTree(Api.admin().get("/api/incidents/" + id + "/evidence-check").then().statusCode(200)
                .extract().asString());
    }

    /**
     * The streams p, d, d2 of deployment {@code p}/llama-8b/prod-pd: on d, initech's req-b got req-a's received pages
     * by a SHARE without fingerprint, sent them (t9) to d2 and read them there; p sent req-a's t1, of req-a's own
     * content, or ({@code stale}) of req-x's, which req-a's pages still held.
     */
    private static List<List<String>> forwardedByAnotherRequest(String p, boolean stale) {
        String dep = p + "/llama-8b/prod-pd";
        String a = p + "/req-a";
        String b = p + "/req-b";
        Instant t = Instant.parse("2026-12-07T09:00:00Z");
        List<String> ps = new ArrayList<>();
        List<String> ds = new ArrayList<>();
        List<String> d2s = new ArrayList<>();
        AuditLogWriter pw = new AuditLogWriter(p + "/p", dep, "b1", ps::add);
        AuditLogWriter d = new AuditLogWriter(p + "/d", dep, "b1", ds::add);
        AuditLogWriter d2 = new AuditLogWriter(p + "/d2", dep, "b1", d2s::add);
        for (AuditLogWriter w : List.of(pw, d, d2)) {
            w.config(t, 4, 8, 32, 32);
        }
        List<PageRun> two = List.of(new PageRun(0, 2));
        if (stale) {
            pw.alloc(t, p + "/req-x", p + "-globex", two, "PREFILL", null);
            pw.write(t, p + "/req-x", p + "-globex", 0, 8, "COMPUTE", null);
            pw.free(t, p + "/req-x", two, "FINISH");
            pw.alloc(t, a, p + "-acme", two, "PREFILL", null);
        } else {
            pw.alloc(t, a, p + "-acme", two, "PREFILL", null);
            pw.write(t, a, p + "-acme", 0, 8, "COMPUTE", null);
        }
        pw.xferSend(t, a, p + "-acme", "t1", 0, 8);
        d.alloc(t.plusMillis(10), a, p + "-acme", two, "PREALLOC", 8);
        d.write(t.plusMillis(10), a, p + "-acme", 0, 8, "TRANSFER", "t1", null);
        d.share(t.plusMillis(11), b, p + "-initech", two, null);
        d.xferSend(t.plusMillis(12), b, p + "-initech", "t9", 0, 8);
        d2.alloc(t.plusMillis(20), b, p + "-initech", two, "PREALLOC", 8);
        d2.write(t.plusMillis(20), b, p + "-initech", 0, 8, "TRANSFER", "t9", null);
        d2.attach(t.plusMillis(21), b, p + "-initech", 8);
        d2.finish(t.plusMillis(22), b, p + "-initech", "STOP", 200, 1, true);
        return List.of(ps, ds, d2s);
    }

    /**
     * Amendment 3 over HTTP: req-a's positions 0-3 were sent by t1 from p1, whose page req-x (another tenant) wrote
     * while the transport was still reading it; positions 4-7 by t2 from p2, where req-x's content already was when it
     * was sent. Once p1 and the receiver d are stored, the exposure is possible only: apart from the certain counts,
     * listed with {@code possible: true}, the incident a security event with TRANSFER_OVERWRITTEN_IN_FLIGHT. Once p2
     * is, one read of the pair is certain: the exposure is certain with all 8 positions, and a breach.
     */
    @Test
    void aPossibleExposureStaysApartUntilOneReadOfItsPairIsCertain() throws Exception {
        String p = Api.uniquePrefix();
        String dep = p + "/llama-8b/prod-pd";
        String x = p + "/req-x";
        String a = p + "/req-a";
        String[] log = possibleThenCertain(p);
        Api.post(log[0]).then().statusCode(200);

        JsonNode incident = Api.incident(dep);
        assertThat(incident).as("the deployment's incident").isNotNull();
        assertThat(incident.get("classification").asText()).isEqualTo("SECURITY_EVENT");
        assertThat(incident.get("leaked_responses").asLong()).isZero();
        assertThat(incident.get("victim_tenants")).isEmpty();
        assertThat(incident.get("possible_leaked_responses").asLong()).isEqualTo(1);
        assertThat(incident.get("possible_victim_tenants").toString()).isEqualTo("[\"" + p + "-globex\"]");
        assertThat(incident.get("possible_recipient_tenants").toString()).isEqualTo("[\"" + p + "-acme\"]");
        assertThat(incident.get("findings").toString()).isEqualTo("{\"TRANSFER_OVERWRITTEN_IN_FLIGHT\":1}");
        assertThat(incident.get("last_exposure_at").asText()).isEqualTo("2026-12-07T09:00:00.020Z");
        assertThat(incident.get("exposures")).singleElement().satisfies(e -> {
            assertThat(e.get("victim_request").asText()).isEqualTo(x);
            assertThat(e.get("reader_request").asText()).isEqualTo(a);
            assertThat(e.get("kind").asText()).isEqualTo("CROSS_TENANT");
            assertThat(e.get("tokens").asInt()).isEqualTo(4);
            assertThat(e.get("possible").asBoolean()).isTrue();
        });
        JsonNode globex = null;
        for (JsonNode tenant : incident.get("tenants")) {
            if (tenant.get("tenant").asText().equals(p + "-globex")) {
                globex = tenant;
            }
        }
        assertThat(globex).as("a tenant touched by possible exposures only is listed").isNotNull();
        assertThat(globex.get("exposed_tokens").asLong()).isZero();
        assertThat(globex.get("exposed_requests").asLong()).isZero();
        assertThat(globex.get("possible_exposed_tokens").asLong()).isEqualTo(4);
        // the DPO's page: the tokens in the matrix and the response in the picture, in their own colour
        String id = null;
        for (JsonNode i : JSON.readTree(Api.admin().get("/api/incidents").then().statusCode(200).extract()
                .asString())) {
            if (i.get("deployment").asText().equals(dep)) {
                id = i.get("id").asText();
            }
        }
        // the evidence check replays the kept records: the possible exposure comes back possible
        JsonNode check = JSON.readTree(Api.admin().get("/api/incidents/" + id + "/evidence-check").then()
                .statusCode(200).extract().asString());
        assertThat(check.get("reproduced").asBoolean()).as(check.toString()).isTrue();
        assertThat(check.get("exposures").asInt()).isEqualTo(1);
        // the regulator's pack hides no exposure: the possible one is in its CSV and JSON, marked
        Map<String, String> pack = unzip(Api.admin().get("/api/incidents/" + id + "/regulator-pack.zip?lang=en")
                .then().statusCode(200).extract().asByteArray());
        assertThat(pack.get("exposures.csv")).as(pack.keySet().toString()).isNotNull();
        assertThat(pack.get("exposures.csv").lines().toList()).hasSize(2).first().asString().endsWith(",possible");
        assertThat(pack.get("exposures.csv").lines().toList().get(1)).startsWith("CROSS_TENANT," + p + "-globex," + x)
                .endsWith(",yes,yes");
        assertThat(JSON.readTree(pack.get("exposures.json")).get(0).get("possible").asBoolean()).isTrue();
        // the incident report tells them apart, in both languages
        String report = Api.admin().get("/api/incidents/" + id + "/documents/incident-report.html?lang=en").then()
                .statusCode(200).extract().asString();
        assertThat(report).contains("<h3>Possible exposures</h3>", "security event without an established exposure",
                "<th>First possible exposure</th>", "<th>Last possible exposure</th>",
                "<td>first possible exposure")
                .containsPattern("<td>" + p + "-globex</td><td>not in the directory</td><td class=\"n\">4</td><td class=\"n\">0"
                        + "</td>");
        assertThat(Api.admin().get("/api/incidents/" + id + "/documents/incident-report.html?lang=fr").then()
                .statusCode(200).extract().asString()).contains("<h3>Expositions possibles</h3>",
                        "Jetons peut-être lus", "<th>Première exposition possible</th>",
                        "<td>première exposition possible");
        byte[] reportPdf = Api.admin().get("/api/incidents/" + id + "/documents/incident-report.pdf?lang=fr").then()
                .statusCode(200).extract().asByteArray();
        assertThat(PdfChecks.text(reportPdf)).contains("Expositions possibles", "Aucune exposition n", "est établie");
        PdfChecks.render(reportPdf, "incident-report-possible-fr");
        byte[] alertPdf = Api.admin().get("/api/incidents/" + id + "/tenants/" + p + "-globex/documents/processor-alert.pdf"
                + "?lang=fr").then().statusCode(200).extract().asByteArray();
        assertThat(PdfChecks.text(alertPdf)).contains("Alerte de violation possible");
        PdfChecks.render(alertPdf, "processor-alert-possible-fr");
        byte[] reportPdfEn = Api.admin().get("/api/incidents/" + id + "/documents/incident-report.pdf?lang=en").then()
                .statusCode(200).extract().asByteArray();
        assertThat(PdfChecks.text(reportPdfEn)).contains("Possible exposures");
        PdfChecks.render(reportPdfEn, "incident-report-possible-en");
        byte[] alertPdfEn = Api.admin().get("/api/incidents/" + id + "/tenants/" + p + "-globex/documents/"
                + "processor-alert.pdf?lang=en").then().statusCode(200).extract().asByteArray();
        assertThat(PdfChecks.text(alertPdfEn)).contains("Possible personal data breach alert");
        PdfChecks.render(alertPdfEn, "processor-alert-possible-en");
        // each controller touched is alerted, its data (or what it received) told as possibly read
        JsonNode alerts = JSON.readTree(Api.admin().get("/api/alerts?incident=" + id).then().statusCode(200).extract()
                .asString());
        List<String> alerted = new ArrayList<>();
        alerts.forEach(al -> alerted.add(al.get("tenant").asText() + " " + al.get("phase").asText()));
        assertThat(alerted).containsExactlyInAnyOrder(p + "-globex INITIAL", p + "-acme INITIAL");
        String victimEn = document(id, p + "-globex", "en");
        assertThat(victimEn).contains("Possible personal data breach alert", "What may have been read",
                "Your requests whose data may have been read", "neither established nor excluded",
                "It is not\nestablished that data of your requests was read")
                .doesNotContain("No data\nof your requests was read", "Your requests that may have received");
        String victimFr = document(id, p + "-globex", "fr");
        assertThat(victimFr).contains("Alerte de violation possible de données à caractère personnel",
                "Vos requêtes dont des données ont peut-être été lues", "ni établie ni\nexclue",
                "n'a pas encore décidé si ce qui a pu être lu constitue une violation",
                "Début de l'exposition possible")
                .doesNotContain("may have", "Aucune donnée de vos requêtes n'a été lue");
        assertThat(document(id, p + "-acme", "en")).contains("Your requests that may have received other customers' data",
                "Possible personal data breach alert").doesNotContain("Your requests whose data may have been read");
        Api.account(p + "-dpo", "dpo", null);
        String page = DashboardActionsTest.signIn(p + "-dpo", p + "-dpo-password", "/incidents/" + id)
                .page("/incidents/" + id + "?lang=en");
        assertThat(page).contains("<td class=\" possible\"><span class=\"kind possible\"><span class=\"n\">4</span>"
                + " possibly read</span></td>").contains("class=\"possible\"/></g>")
                .contains("1 more response that may have carried another customer&#39;s tokens")
                .contains("<th scope=\"row\">First possible exposure</th>",
                        "<th scope=\"row\">Last possible exposure</th>");

        Api.post(log[1]).then().statusCode(200);
        incident = Api.incident(dep);
        assertThat(incident.get("classification").asText()).isEqualTo("PERSONAL_DATA_BREACH");
        assertThat(incident.get("leaked_responses").asLong()).isEqualTo(1);
        assertThat(incident.get("possible_leaked_responses").asLong()).isZero();
        assertThat(incident.get("possible_victim_tenants")).isEmpty();
        assertThat(incident.get("victim_tenants").toString()).isEqualTo("[\"" + p + "-globex\"]");
        assertThat(incident.get("exposures")).singleElement().satisfies(e -> {
            assertThat(e.get("tokens").asInt()).as("the possible positions with the certain ones").isEqualTo(8);
            assertThat(e.get("possible").asBoolean()).isFalse();
        });
        assertThat(incident.get("findings").toString()).contains("\"CROSS_TENANT_READ\":1",
                "\"TRANSFER_OVERWRITTEN_IN_FLIGHT\":1", "\"TRANSFER_SENT_FOREIGN\":1");
        String certain = document(id, p + "-globex", "en");
        assertThat(certain).contains("<h1>Personal data breach alert</h1>").doesNotContain("What may have been read");
    }

    /**
     * Amendment 3: possible exposures alone ask the DPO for a decision (the provider's decision
     * possible_exposures_breach, offered only then), audited like any decision. Not a breach: the incident stays a
     * security event and no clock runs for the tenants they touch. A breach: the incident is a personal data breach;
     * each tenant touched gets an alert that says so; the processor's alert to the controller is due from the
     * decision (its awareness), not from the detection, and the controller's own clock starts only once an alert
     * after the decision reaches it.
     */
    @Test
    void theDpoDecidesWhetherPossibleExposuresAreABreach() throws Exception {
        String p = Api.uniquePrefix();
        String dep = p + "/llama-8b/prod-pd";
        String globex = p + "-globex";
        Api.admin().contentType("application/json").body("{\"legal_name\":\"Globex SAS\",\"country\":\"FR\"}")
                .put("/api/tenants/" + globex).then().statusCode(200);
        Api.post(possibleThenCertain(p)[0]).then().statusCode(200);
        String id = null;
        for (JsonNode i : JSON.readTree(Api.admin().get("/api/incidents").then().statusCode(200).extract()
                .asString())) {
            if (i.get("deployment").asText().equals(dep)) {
                id = i.get("id").asText();
            }
        }
        JsonNode providerCase = JSON.readTree(Api.admin().get("/api/incidents/" + id + "/case").then().statusCode(200)
                .extract().asString());
        assertThat(providerCase.get("decisions_allowed").toString()).contains("possible_exposures_breach");
        Api.admin().get("/api/incidents/" + id + "/tenants/" + globex + "/obligations").then().statusCode(404);

        // the customer sees it in its portal, as possibly read, and acknowledges the alert (before any decision)
        Api.account(p + "-globex-user", "customer", globex);
        DashboardActionsTest.Browser customer = DashboardActionsTest.signIn(p + "-globex-user",
                p + "-globex-user-password", "/portal");
        assertThat(customer.page("/portal?lang=en")).contains(dep);
        assertThat(customer.page("/portal/incidents/" + id + "?lang=fr")).contains("Ce qui a pu être lu",
                "ses données peut-être lues par une autre requête",
                "<th scope=\"row\">Première exposition possible</th>",
                "<th scope=\"row\">Dernière exposition possible</th>");
        long initial = JSON.readTree(Api.admin().get("/api/alerts?incident=" + id).then().statusCode(200).extract()
                .asString()).findParents("tenant").stream().filter(al -> al.get("tenant").asText().equals(globex))
                .findFirst().orElseThrow().get("id").asLong();
        Api.admin().post("/api/alerts/" + initial + "/acknowledgement").then().statusCode(200);

        Api.admin().contentType("application/json").body("{\"value\":false,\"justification\":\"the transfer had"
                + " completed before the write, per the NIXL logs\"}").put("/api/incidents/" + id
                        + "/decisions/possible_exposures_breach").then().statusCode(200);
        assertThat(Api.admin().get("/api/incidents/" + id).then().extract().jsonPath().getString("classification"))
                .isEqualTo("SECURITY_EVENT");
        Api.admin().get("/api/incidents/" + id + "/tenants/" + globex + "/obligations").then().statusCode(404);
        assertThat(document(id, globex, "en")).contains("are <strong>not</strong> a personal data breach")
                .doesNotContain("has not decided yet");

        Api.admin().contentType("application/json").body("{\"value\":true,\"justification\":\"cannot exclude that"
                + " the decode node read the new content\"}").put("/api/incidents/" + id
                        + "/decisions/possible_exposures_breach").then().statusCode(200);
        assertThat(Api.admin().get("/api/incidents/" + id).then().extract().jsonPath().getString("classification"))
                .isEqualTo("PERSONAL_DATA_BREACH");
        JsonNode duties = JSON.readTree(Api.admin().get("/api/incidents/" + id + "/tenants/" + globex + "/obligations")
                .then().statusCode(200).extract().asString());
        JsonNode processorAlert = null;
        JsonNode notification = null;
        for (JsonNode o : duties) {
            if (o.get("rule").asText().equals("gdpr-33-2")) {
                processorAlert = o;
            }
            if (o.get("rule").asText().equals("gdpr-33-1")) {
                notification = o;
            }
        }
        assertThat(processorAlert).as(duties.toString()).isNotNull();
        JsonNode decided = JSON.readTree(Api.admin().get("/api/incidents/" + id + "/case").then().statusCode(200)
                .extract().asString()).get("decisions").get(0);
        assertThat(decided.get("name").asText()).isEqualTo("possible_exposures_breach");
        Instant detected = Instant.parse(Api.admin().get("/api/incidents/" + id).then().extract().jsonPath()
                .getString("detected_at"));
        assertThat(Instant.parse(processorAlert.get("clock_started_at").asText())).as("from the decision")
                .isEqualTo(Instant.parse(decided.get("at").asText())).isAfter(detected);
        assertThat(notification).as(duties.toString()).isNotNull();
        assertThat(notification.get("clock_started_at").isNull()).as("no alert after the decision reached it yet,"
                + " and the possible alert's acknowledgement before the decision is no awareness of a breach").isTrue();
        List<String> alerted = new ArrayList<>();
        JSON.readTree(Api.admin().get("/api/alerts?incident=" + id).then().statusCode(200).extract().asString())
                .forEach(al -> alerted.add(al.get("tenant").asText() + " " + al.get("phase").asText()));
        assertThat(alerted).contains(globex + " INITIAL", globex + " UPDATE");
        String told = document(id, globex, "fr");
        assertThat(told).contains("doivent être traitées comme une <strong>violation de données à caractère personnel"
                + "</strong>", "<h1>Alerte de violation de données à caractère personnel</h1>");
        String audit = Api.admin().get("/api/audit-trail?action=case.decision&limit=500").then().statusCode(200)
                .extract().asString();
        assertThat(audit).contains(id, "possible_exposures_breach", "cannot exclude that the decode node read");
    }

    /**
     * Deployment {@code p}/llama-8b/prod-pd: the log of {@link #aPossibleExposureStaysApartUntilOneReadOfItsPairIsCertain}
     * in two parts, the first leaving req-a's exposure of req-x possible only, the second making it certain.
     */
    public static String[] possibleThenCertain(String p) {
        String dep = p + "/llama-8b/prod-pd";
        String a = p + "/req-a";
        String x = p + "/req-x";
        Instant t = Instant.parse("2026-12-07T09:00:00Z");
        List<String> first = new ArrayList<>();
        List<String> second = new ArrayList<>();
        AuditLogWriter p1 = new AuditLogWriter(p + "/p1", dep, "b1", first::add);
        AuditLogWriter d = new AuditLogWriter(p + "/d", dep, "b1", first::add);
        AuditLogWriter p2 = new AuditLogWriter(p + "/p2", dep, "b1", second::add);
        for (AuditLogWriter w : List.of(p1, d, p2)) {
            w.config(t, 4, 8, 32, 32);
        }
        p1.alloc(t, a, p + "-acme", List.of(new PageRun(0, 1)), "PREFILL", null);
        p1.write(t, a, p + "-acme", 0, 4, "COMPUTE", null);
        p1.xferSend(t, a, p + "-acme", "t1", 0, 4);
        p1.free(t, a, List.of(new PageRun(0, 1)), "ABORT");
        p1.alloc(t, x, p + "-globex", List.of(new PageRun(0, 1)), "PREFILL", null);
        p1.write(t, x, p + "-globex", 0, 4, "COMPUTE", null);
        p1.xferDone(t.plusMillis(5), a, p + "-acme", "t1");
        p2.alloc(t, a, p + "-acme", List.of(new PageRun(0, 2)), "PREFILL", null);
        p2.write(t, a, p + "-acme", 0, 8, "COMPUTE", null);
        p2.free(t, a, List.of(new PageRun(1, 1)), "EVICT");
        p2.alloc(t, x, p + "-globex", List.of(new PageRun(1, 1)), "PREFILL", null);
        p2.write(t, x, p + "-globex", 0, 4, "COMPUTE", null);
        p2.xferSend(t, a, p + "-acme", "t2", 4, 4);
        d.alloc(t.plusMillis(10), a, p + "-acme", List.of(new PageRun(0, 2)), "PREALLOC", 8);
        d.write(t.plusMillis(10), a, p + "-acme", 0, 4, "TRANSFER", "t1", null);
        d.write(t.plusMillis(10), a, p + "-acme", 4, 4, "TRANSFER", "t2", null);
        d.attach(t.plusMillis(20), a, p + "-acme", 8);
        d.finish(t.plusMillis(30), a, p + "-acme", "STOP", 200, 1, true);
        return new String[] {String.join("\n", first) + "\n", String.join("\n", second) + "\n"};
    }

    private static String document(String incident, String tenant, String lang) {
        return Api.admin().get("/api/incidents/" + incident + "/tenants/" + tenant
                + "/documents/processor-alert.html?lang=" + lang).then().statusCode(200).extract().asString();
    }

    /** The text files of a ZIP, by name. */
    private static Map<String, String> unzip(byte[] zip) throws IOException {
        Map<String, String> out = new HashMap<>();
        try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(zip))) {
            for (ZipEntry e = in.getNextEntry(); e != null; e = in.getNextEntry()) {
                out.put(e.getName(), new String(in.readAllBytes(), StandardCharsets.UTF_8));
            }
        }
        return out;
    }
}
