package app.vigie.detection.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

import app.vigie.auditlog.intake.CanonicalJson;
import app.vigie.auditlog.record.AuditRecord;
import app.vigie.auditlog.record.Body;
import app.vigie.detection.DetectionService;
import app.vigie.detection.SnapshotDetectionTest;
import app.vigie.testing.Api;

import net.jqwik.api.RandomGenerator;
import net.jqwik.api.Shrinkable;
import net.jqwik.api.sessions.JqwikSession;

/**
 * The same comparison as {@link DifferentialTest}, through the whole service: random logs posted over HTTP in their
 * batches (any order, duplicates, flushes in the middle), the detectors forgotten once at a random point of each
 * (they come back from their snapshots, taken every 7 records, and the stored records), then every incident, finding
 * with its evidence, exposure, count, late, conflicting and impossible record read back through the API and the
 * quarantine and compared with the naive model's.
 */
@QuarkusTest
@TestProfile(SnapshotDetectionTest.FrequentSnapshots.class)
class ServiceDifferentialTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int SCENARIOS = Integer.getInteger("vigie.differential.service-scenarios", 60);

    @Inject
    DetectionService detection;

    @Inject
    AgroalDataSource dataSource;

    @Test
    void theServiceAgreesWithTheNaiveModelOnRandomLogs() throws Exception {
        List<Scenario> scenarios = new ArrayList<>();
        JqwikSession.start();
        try {
            RandomGenerator<Scenario> gen = RandomLogs.scenarios(60).generator(1000);
            Random random = new Random(20261203L);
            while (scenarios.size() < SCENARIOS) {
                Shrinkable<Scenario> s = gen.next(random);
                scenarios.add(s.value());
            }
        } finally {
            JqwikSession.finish();
        }
        Random restarts = new Random(7);
        int withExposures = 0;
        for (int i = 0; i < scenarios.size(); i++) {
            Scenario s = scenarios.get(i);
            String prefix = Api.uniquePrefix() + "/";
            int forgetAt = s.deliveries().isEmpty() ? 0 : restarts.nextInt(s.deliveries().size());
            try {
                withExposures += check(s, prefix, forgetAt, restarts) ? 1 : 0;
            } catch (AssertionError e) {
                throw new AssertionError("scenario " + i + " (prefix " + prefix + ", detectors forgotten before "
                        + "delivery " + forgetAt + ") differs: " + e.getMessage() + "\n" + s, e);
            }
        }
        assertThat(withExposures).as("scenarios with exposures").isGreaterThan(SCENARIOS / 5);
    }

    /** Posts one scenario, compares; returns whether it had exposures. */
    private boolean check(Scenario s, String prefix, int forgetAt, Random splits) throws Exception {
        NaiveModel model = new NaiveModel();
        TreeSet<String> late = new TreeSet<>();
        TreeSet<String> conflicts = new TreeSet<>();
        for (int d = 0; d < s.deliveries().size(); d++) {
            if (d == forgetAt) {
                // every detector leaves memory, as after a restart: rebuilt from the stored records when needed
                detection.evictIdle(Duration.ZERO);
                assertThat(detection.detectorsInMemory()).isZero();
            }
            Delivery delivery = s.deliveries().get(d);
            if (delivery instanceof Delivery.Batch whole) {
                whole.records().forEach(model::receive);
                for (List<AuditRecord> b : split(whole.records(), splits)) {
                    post(b, prefix, late, conflicts);
                }
            } else {
                model.flush();
                Api.admin().post("/api/audit-log/flush").then().statusCode(200);
            }
        }
        return compare(model.result(), prefix, late, conflicts);
    }

    /**
     * A batch as posted: whole, or cut into posts of one to three records (each its own transaction, so that what a
     * pair's reads on several streams add up to is also united across transactions). The order stays the batch's.
     */
    private static List<List<AuditRecord>> split(List<AuditRecord> batch, Random splits) {
        if (splits.nextBoolean()) {
            return List.of(batch);
        }
        List<List<AuditRecord>> out = new ArrayList<>();
        for (int from = 0; from < batch.size();) {
            int to = Math.min(batch.size(), from + 1 + splits.nextInt(3));
            out.add(batch.subList(from, to));
            from = to;
        }
        return out;
    }

    private static void post(List<AuditRecord> batch, String prefix, TreeSet<String> late, TreeSet<String> conflicts)
            throws Exception {
        StringBuilder body = new StringBuilder();
        batch.forEach(r -> body.append(CanonicalJson.of(renamed(r, prefix))).append('\n'));
        JsonNode answer = JSON.readTree(Api.post(body.toString()).then().statusCode(200).extract().asString());
        for (JsonNode rejected : answer.get("rejected")) {
            AuditRecord r = batch.get(rejected.get("line").asInt() - 1);
            String key = r.stream() + "|" + r.boot() + "|" + r.seq();
            String reason = rejected.get("reason").asText();
            if (reason.startsWith("late")) {
                late.add(key);
            } else if (reason.startsWith("conflicting duplicate")) {
                conflicts.add(key);
            } else {
                throw new AssertionError("rejected at intake: " + reason + " for " + CanonicalJson.of(r));
            }
        }
    }

    private boolean compare(ModelResult want, String prefix, TreeSet<String> late, TreeSet<String> conflicts)
            throws Exception {
        assertThat(late).as("late records").isEqualTo(want.late());
        assertThat(conflicts).as("conflicting duplicates").isEqualTo(want.conflicts());
        assertThat(impossible(prefix)).as("records impossible in their stream").isEqualTo(want.invalid());

        TreeSet<String> deployments = new TreeSet<>();
        want.findings().values().forEach(f -> deployments.add(f.deployment()));
        want.exposures().values().forEach(e -> deployments.add(e.deployment()));
        JsonNode incidents = JSON.readTree(Api.admin().get("/api/incidents").then().statusCode(200).extract()
                .asString());
        for (JsonNode incident : incidents) {
            String deployment = incident.get("deployment").asText();
            if (!deployment.startsWith(prefix)) {
                continue;
            }
            String plain = deployment.substring(prefix.length());
            String id = incident.get("id").asText();
            JsonNode exposures = JSON.readTree(Api.all("/api/incidents/" + id + "/exposures"));
            JsonNode findings = JSON.readTree(Api.all("/api/incidents/" + id + "/findings"));
            if (!deployments.remove(plain)) {
                // a finding that moved to an earlier rejection's deployment may leave its first incident empty
                assertThat(exposures).as("exposures of " + plain).isEmpty();
                assertThat(findings).as("findings of " + plain).isEmpty();
                continue;
            }
            compareIncident(want, plain, prefix, incident, exposures, findings);
        }
        assertThat(deployments).as("deployments the model has incidents for, missing in the service").isEmpty();
        return !want.exposures().isEmpty();
    }

    private static void compareIncident(ModelResult want, String deployment, String prefix, JsonNode incident,
            JsonNode exposures, JsonNode findings) {
        List<String> wantedExposures = new ArrayList<>();
        TreeSet<String> victims = new TreeSet<>();
        TreeSet<String> recipients = new TreeSet<>();
        TreeSet<String> leaked = new TreeSet<>();
        want.exposures().values().stream().filter(e -> e.deployment().equals(deployment)).forEach(e -> {
            wantedExposures.add(e.kind() + " " + e.victimTenant() + "/" + prefix + e.victimRequest() + " -> "
                    + e.readerTenant() + "/" + prefix + e.readerRequest() + " " + e.tokens() + " first "
                    + e.firstSeenAt() + " delivered " + e.delivered());
            victims.add(e.victimTenant());
            recipients.add(e.readerTenant());
            if (e.kind().equals("CROSS_TENANT") && Boolean.TRUE.equals(e.delivered())) {
                leaked.add(e.readerRequest());
            }
        });
        List<String> gotExposures = new ArrayList<>();
        for (JsonNode e : exposures) {
            gotExposures.add(e.get("kind").asText() + " " + e.get("victim_tenant").asText() + "/"
                    + e.get("victim_request").asText() + " -> " + e.get("reader_tenant").asText() + "/"
                    + e.get("reader_request").asText() + " " + e.get("tokens").asInt() + " first "
                    + Instant.parse(e.get("first_seen_at").asText()) + " delivered "
                    + (e.get("delivered").isNull() ? null : e.get("delivered").asBoolean()));
        }
        assertThat(gotExposures).as("exposures of " + deployment).containsExactlyInAnyOrderElementsOf(
                wantedExposures);

        List<String> wantedFindings = new ArrayList<>();
        TreeMap<String, Integer> counts = new TreeMap<>();
        want.findings().values().stream().filter(f -> f.deployment().equals(deployment)).forEach(f -> {
            // a subject is a request, or stream@boot for rules counted per (stream, boot): both under the prefix
            wantedFindings.add(f.rule() + " " + prefix + f.subject() + " at " + f.at() + " " + prefix + f.stream()
                    + "@" + f.boot() + " " + f.firstSeq() + "-" + f.lastSeq());
            counts.merge(f.rule(), 1, Integer::sum);
        });
        List<String> gotFindings = new ArrayList<>();
        for (JsonNode f : findings) {
            gotFindings.add(f.get("rule").asText() + " " + f.get("subject").asText() + " at " + Instant.parse(f.get("seen_at")
                            .asText()) + " " + f.get("stream").asText() + "@" + f.get("boot").asText() + " "
                    + f.get("first_seq").asLong() + "-" + f.get("last_seq").asLong());
        }
        assertThat(gotFindings).as("findings of " + deployment).containsExactlyInAnyOrderElementsOf(wantedFindings);

        TreeMap<String, Integer> gotCounts = new TreeMap<>();
        incident.get("findings").fields().forEachRemaining(e -> gotCounts.put(e.getKey(), e.getValue().asInt()));
        assertThat(gotCounts).as("finding counts of " + deployment).isEqualTo(counts);
        assertThat(incident.get("classification").asText()).isEqualTo(victims.isEmpty() ? "SECURITY_EVENT"
                : "PERSONAL_DATA_BREACH");
        assertThat(incident.get("leaked_responses").asInt()).as("leaked responses").isEqualTo(leaked.size());
        // api.md: the earliest and latest ts of an ATTACH that judged an exposure, every later ATTACH of a received
        // position included (spec 1.3, amendment 7)
        List<ModelExposure> mine = want.exposures().values().stream().filter(e -> e.deployment().equals(deployment))
                .toList();
        if (!mine.isEmpty()) {
            assertThat(Instant.parse(incident.get("first_exposure_at").asText())).as("first exposure")
                    .isEqualTo(mine.stream().map(ModelExposure::firstSeenAt).min(Instant::compareTo).orElseThrow());
            assertThat(Instant.parse(incident.get("last_exposure_at").asText())).as("last exposure")
                    .isEqualTo(mine.stream().map(ModelExposure::lastSeenAt).max(Instant::compareTo).orElseThrow());
        }
        assertThat(strings(incident.get("victim_tenants"))).isEqualTo(new ArrayList<>(victims));
        assertThat(strings(incident.get("recipient_tenants"))).isEqualTo(new ArrayList<>(recipients));
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    /** "stream|boot|seq" (names without the prefix) of the records kept as impossible in their stream's state. */
    private TreeSet<String> impossible(String prefix) throws Exception {
        TreeSet<String> out = new TreeSet<>();
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(
                "select stream, boot, seq from quarantine where stage = 'apply' and starts_with(stream, ?)")) {
            ps.setString(1, prefix);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1).substring(prefix.length()) + "|" + rs.getString(2) + "|" + rs.getLong(3));
                }
            }
        }
        return out;
    }

    /** The record with its stream, deployment and request under {@code prefix}: each scenario is its own world. */
    static AuditRecord renamed(AuditRecord r, String prefix) {
        Body b = r.body();
        Body renamed = b;
        if (b instanceof Body.Admit a) {
            renamed = new Body.Admit(prefix + a.request(), a.tenant(), a.inputTokens(), a.verdict(), a.reason());
        } else if (b instanceof Body.Alloc a) {
            renamed = new Body.Alloc(prefix + a.request(), a.tenant(), a.pages(), a.purpose(), a.claimedTokens(),
                    a.restart());
        } else if (b instanceof Body.Write w) {
            renamed = new Body.Write(prefix + w.request(), w.tenant(), w.from(), w.tokens(), w.source(), w.fp(),
                    w.sent(), w.transfer());
        } else if (b instanceof Body.Share s) {
            renamed = new Body.Share(prefix + s.request(), s.tenant(), s.pages(), s.fp(), s.restart());
        } else if (b instanceof Body.Attach a) {
            renamed = new Body.Attach(prefix + a.request(), a.tenant(), a.tokens());
        } else if (b instanceof Body.Free f) {
            renamed = new Body.Free(prefix + f.request(), f.pages(), f.reason());
        } else if (b instanceof Body.XferCommit x) {
            renamed = new Body.XferCommit(prefix + x.request(), x.tenant(), x.claimedTokens(), x.coveredTokens(),
                    x.checksumOk());
        } else if (b instanceof Body.XferSend x) {
            renamed = new Body.XferSend(prefix + x.request(), x.tenant(), x.from(), x.tokens(), x.transfer());
        } else if (b instanceof Body.XferDone x) {
            renamed = new Body.XferDone(prefix + x.request(), x.tenant(), x.transfer());
        } else if (b instanceof Body.Finish f) {
            renamed = new Body.Finish(prefix + f.request(), f.tenant(), f.status(), f.httpStatus(), f.outputTokens(),
                    f.delivered());
        }
        return new AuditRecord(prefix + r.stream(), r.boot(), r.seq(), r.ts(), prefix + r.deployment(), renamed);
    }
}
