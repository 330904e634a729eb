package app.vigie.testing;

import static io.restassured.RestAssured.given;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.hamcrest.Matchers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;

import app.vigie.runtime.log.AuditLogWriter;
import app.vigie.runtime.log.PageRun;

/** Helpers for the API tests: accounts, posting audit records, the shared examples. */
public final class Api {
    public static final String ADMIN_PASSWORD = "test-admin-password";
    public static final String NDJSON = "application/x-ndjson";

    private Api() {
    }

    public static RequestSpecification admin() {
        return as("admin", ADMIN_PASSWORD);
    }

    /** Records of this stream stored, over its boots (0 when it has no cursor). */
    public static long accepted(String stream) {
        List<Map<String, Object>> all = JsonPath.from(admin().get("/api/streams").then()
                .statusCode(200).extract().asString()).getList("$");
        return all.stream().filter(s -> stream.equals(s.get("stream")))
                .mapToLong(s -> ((Number) s.get("accepted")).longValue()).sum();
    }

    public static RequestSpecification as(String user, String password) {
        // a program's request: the header a page on another site cannot add (ApiRequestGuard)
        return given().auth().preemptive().basic(user, password).header("X-Requested-With", "vigie-tests");
    }

    public static Response post(String body) {
        return admin().contentType(NDJSON).body(body.getBytes(StandardCharsets.UTF_8)).post("/api/audit-log");
    }

    /** Creates (or replaces) an account with the given role; its password is {@code user + "-password"}. */
    public static void account(String user, String role, String tenant) {
        String json = "{\"password\":\"" + user + "-password\",\"roles\":[\"" + role + "\"]"
                + (tenant == null ? "" : ",\"tenant\":\"" + tenant + "\"") + "}";
        admin().contentType("application/json").body(json).put("/api/accounts/" + user).then().statusCode(200);
    }

    /**
     * Posts a log in which request {@code prefix + "b"} of {@code reader} attends 8 positions written by request
     * {@code prefix + "a"} of {@code victim}, on deployment {@code prefix + "/dep"}; returns the incident's id.
     */
    public static String leakingIncident(String prefix, String victim, String reader) {
        return leakingIncident(prefix, victim, reader, true);
    }

    /** Like {@link #leakingIncident(String, String, String)}; without the reader's FINISH when not {@code finished}. */
    public static String leakingIncident(String prefix, String victim, String reader, boolean finished) {
        Instant t = Instant.parse("2026-08-27T09:00:00Z");
        List<String> lines = new ArrayList<>();
        AuditLogWriter w = new AuditLogWriter(prefix + "/s",
                prefix + "/dep", "b1", lines::add);
        List<PageRun> pages = List.of(new PageRun(0, 2));
        w.config(t, 4, 16, 64, 60);
        w.alloc(t, prefix + "a", victim, pages, "PREFILL", null);
        w.write(t, prefix + "a", victim, 0, 8, "COMPUTE", null);
        w.free(t, prefix + "a", pages, "FINISH");
        w.alloc(t, prefix + "b", reader, pages, "PREFILL", null);
        w.attach(t, prefix + "b", reader, 8);
        if (finished) {
            w.finish(t, prefix + "b", reader, "STOP", 200, 3, true);
        }
        post(Logs.body(lines)).then().statusCode(200).body("accepted", Matchers.equalTo(lines.size()));
        return admin().get("/api/incidents").then().statusCode(200).extract().jsonPath()
                .getString("find { it.deployment == '" + prefix + "/dep' }.id");
    }

    /**
     * An incident where {@code n} requests of {@code victim} each had their 8 tokens read by a request of
     * {@code reader} (a second apart, every response delivered): a controller with {@code n} requests exposed.
     */
    public static String leakingIncident(String prefix, String victim, String reader, int n) {
        List<String> lines = leakLines(prefix, victim, reader, n);
        post(Logs.body(lines)).then().statusCode(200).body("accepted", Matchers.equalTo(lines.size()));
        return admin().get("/api/incidents").then().statusCode(200).extract().jsonPath()
                .getString("find { it.deployment == '" + prefix + "/dep' }.id");
    }

    /** The log of {@link #leakingIncident(String, String, String, int)}: stream {prefix}/s, deployment {prefix}/dep. */
    public static List<String> leakLines(String prefix, String victim, String reader, int n) {
        List<String> lines = new ArrayList<>();
        leakPairs(lines, prefix, victim, reader, n, Duration.ofSeconds(1), i -> true);
        return lines;
    }

    /** When {@link #leakPairs} starts. */
    public static final Instant LEAKS_FROM = Instant.parse("2026-08-27T09:00:00Z");

    /**
     * Appends to {@code lines} a log (stream {prefix}/s, deployment {prefix}/dep, pages 0-1) where, for each
     * {@code i < n} at {@link #LEAKS_FROM} + i {@code step}s, request {prefix}a{i} of {@code victim} writes 8 tokens
     * and frees them, then request {prefix}b{i} of {@code reader} reads them; its response leaves the service when
     * {@code delivered} says so (else it aborts with a 500). Returns the writer, for a caller that adds more.
     */
    public static AuditLogWriter leakPairs(List<String> lines, String prefix, String victim, String reader, int n,
            Duration step, IntPredicate delivered) {
        AuditLogWriter w = new AuditLogWriter(prefix + "/s", prefix + "/dep", "b1", lines::add);
        List<PageRun> pages = List.of(new PageRun(0, 2));
        w.config(LEAKS_FROM, 4, 16, 64, 60);
        for (int i = 0; i < n; i++) {
            Instant at = LEAKS_FROM.plus(step.multipliedBy(i));
            boolean out = delivered.test(i);
            w.alloc(at, prefix + "a" + i, victim, pages, "PREFILL", null);
            w.write(at, prefix + "a" + i, victim, 0, 8, "COMPUTE", null);
            w.free(at, prefix + "a" + i, pages, "FINISH");
            w.alloc(at, prefix + "b" + i, reader, pages, "PREFILL", null);
            w.attach(at, prefix + "b" + i, reader, 8);
            w.finish(at, prefix + "b" + i, reader, out ? "STOP" : "ABORT", out ? 200 : 500, 3, out);
            w.free(at, prefix + "b" + i, pages, "FINISH");
        }
        return w;
    }

    public static String example(String name) {
        try (InputStream in = Api.class.getResourceAsStream("/examples/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The example with its streams, deployments and requests renamed under a prefix, so that a test owns them. */
    public static String renamed(String ndjson, String prefix) {
        return ndjson.replace("\"stream\": \"", "\"stream\": \"" + prefix + "/")
                .replace("\"deployment\": \"", "\"deployment\": \"" + prefix + "/")
                .replace("\"request\": \"", "\"request\": \"" + prefix + "/");
    }

    /**
     * The incident of a deployment as the examples' expected files show it: the incident with its exposures and
     * tenants, without {@code id}, {@code status}, {@code detected_at}. Null when the deployment has none.
     */
    public static JsonNode incident(String deployment) throws IOException {
        ObjectMapper json = new ObjectMapper();
        JsonNode all = json.readTree(admin().get("/api/incidents").then()
                .statusCode(200).extract().asString());
        for (JsonNode i : all) {
            if (i.get("deployment").asText().equals(deployment)) {
                String id = i.get("id").asText();
                ObjectNode got =
                        ((ObjectNode) i).deepCopy();
                got.remove(List.of("id", "status", "detected_at"));
                got.set("exposures", json.readTree(all("/api/incidents/" + id + "/exposures")));
                got.set("tenants", json.readTree(admin().get("/api/incidents/" + id + "/tenants").then()
                        .statusCode(200).extract().asString()));
                return got;
            }
        }
        return null;
    }

    private static final Pattern NEXT = Pattern.compile("<([^>]+)>;\\s*rel=\"next\"");

    /**
     * Every item of a paged list of the API (an incident's exposures or findings come a page at a time: docs/api.md,
     * "Paging"), its pages followed by their Link rel="next", as one JSON array.
     */
    public static String all(String path) throws IOException {
        ObjectMapper json = new ObjectMapper();
        ArrayNode out = json.createArrayNode();
        String url = path;
        while (url != null) {
            Response r = admin().urlEncodingEnabled(false).get(url);
            r.then().statusCode(200);
            json.readTree(r.asString()).forEach(out::add);
            String link = r.header("Link");
            Matcher m = link == null ? null : NEXT.matcher(link);
            url = m != null && m.find() ? m.group(1) : null;
        }
        return json.writeValueAsString(out);
    }

    /** Puts {@code tenant} in the directory as a controller of {@code country} named {@code legalName}. */
    public static String controller(String tenant, String legalName, String country) {
        admin().contentType("application/json").body("{\"legal_name\":\"" + legalName + "\",\"country\":\""
                + country + "\"}").put("/api/tenants/" + tenant).then().statusCode(200);
        return tenant;
    }

    public static String uniquePrefix() {
        return "t-" + UUID.randomUUID().toString().substring(0, 8);
    }

    public static List<String> lines(String ndjson) {
        return ndjson.lines().filter(l -> !l.isBlank()).toList();
    }
}
