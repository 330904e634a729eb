package app.vigie.auditlog.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;

import app.vigie.testing.Api;
import app.vigie.testing.Logs;

/**
 * Issue 41 point 5, attacked over HTTP: an ingest account bound to its streams writes, lists and flushes only those.
 * Runtime A (prefix {@code p/a/}) tries to write B's next seq first, to list B's streams and to declare B's gap lost;
 * B's genuine records are then applied as if A had done nothing.
 */
@QuarkusTest
class IngestAuthorityTest {

    private static RequestSpecification as(String user) {
        return Api.as(user, user + "-password");
    }

    /** Binds the account; its status is checked by the attacks themselves (and by aScopeIsCheckedShownAndAudited). */
    private static void scope(String user, String json) {
        Api.admin().contentType("application/json").body(json).put("/api/accounts/" + user + "/ingest-scope");
    }

    private static JsonPath post(String user, List<String> lines) {
        return as(user).contentType(Api.NDJSON).body(Logs.body(lines).getBytes(StandardCharsets.UTF_8))
                .post("/api/audit-log").then().statusCode(200).extract().jsonPath();
    }

    private static Map<String, Object> stream(String user, String name) {
        List<Map<String, Object>> all = as(user).get("/api/streams").then().statusCode(200).extract().jsonPath()
                .getList("$");
        return all.stream().filter(s -> name.equals(s.get("stream"))).findFirst().orElse(null);
    }

    @Test
    void aRuntimeWritesListsAndFlushesOnlyItsOwnStreams() {
        String p = Api.uniquePrefix();
        String a = p + "-rt-a";
        String b = p + "-rt-b";
        Api.account(a, "ingest", null);
        Api.account(b, "ingest", null);
        scope(a, "{\"stream_prefixes\":[\"" + p + "/a/\"]}");
        scope(b, "{\"stream_prefixes\":[\"" + p + "/b/\"]}");

        // B writes seqs 1, 2 and 4 of its stream: 4 waits for 3
        String bs = p + "/b/s";
        List<String> genuine = Logs.stream(bs, 4);
        assertThat(post(b, Logs.pick(genuine, 1, 2, 4)).getInt("pending")).isEqualTo(1);

        // A sends its own three records and, between them, a forged seq 3 of B's stream
        String as = p + "/a/s";
        List<String> own = Logs.stream(as, 3);
        String forged = Logs.stream(p + "/x/s", 3).get(2).replace("\"" + p + "/x/s\"", "\"" + bs + "\"");
        assertThat(forged).contains("\"" + bs + "\"").isNotEqualTo(genuine.get(2));
        List<String> body = new ArrayList<>(own.subList(0, 2));
        body.add(forged);
        body.add(own.get(2));
        JsonPath answer = post(a, body);
        assertThat(answer.getLong("accepted")).as("A's own lines").isEqualTo(3);
        assertThat(answer.getLong("rejected_count")).isEqualTo(1);
        assertThat(answer.getLong("rejected[0].line")).isEqualTo(3);
        assertThat(answer.getString("rejected[0].reason")).contains("stream '" + bs + "'")
                .contains("account '" + a + "'").contains(p + "/a/");

        // kept in the quarantine with its reason and key
        List<Map<String, Object>> kept = Api.admin().get("/api/quarantine?source=http&size=500").then()
                .statusCode(200).extract().jsonPath().getList("items.findAll { it.source_name == '"
                        + answer.getString("batch_id") + "' }");
        assertThat(kept).hasSize(1);
        assertThat(kept.get(0).get("reason").toString()).contains("outside the streams account '" + a + "'");
        assertThat(kept.get(0).get("stream")).isEqualTo(bs);
        assertThat(kept.get(0).get("position")).isEqualTo(3);

        // A lists its own streams only; B's stream is not there for A, is there for B and for staff
        assertThat(stream(a, as)).isNotNull();
        assertThat(stream(a, bs)).as("B's stream, listed to A").isNull();
        assertThat(stream(b, bs)).isNotNull();
        assertThat(stream(b, as)).isNull();

        // A's flush declares nothing of B's lost
        as(a).post("/api/audit-log/flush").then().statusCode(200);
        Map<String, Object> held = Api.admin().get("/api/streams").then().extract().jsonPath()
                .getMap("find { it.stream == '" + bs + "' }");
        assertThat(held.get("lost_records")).as("B's gap after A's flush").isEqualTo(0);
        assertThat(held.get("held_back")).isEqualTo(1);

        // B's genuine seq 3 is applied, and so is the 4 it held back
        JsonPath late = post(b, Logs.pick(genuine, 3));
        assertThat(late.getLong("accepted")).isEqualTo(1);
        assertThat(late.getLong("rejected_count")).isEqualTo(0);
        Map<String, Object> after = stream(b, bs);
        assertThat(after.get("next_seq")).isEqualTo(5);
        assertThat(after.get("lost_records")).isEqualTo(0);
    }

    /**
     * A scope is checked before it is stored, shown with the account, audited; the built-in admin takes none; an
     * account without one keeps writing everything, with a warning shown.
     */
    @Test
    void aScopeIsCheckedShownAndAudited() {
        String p = Api.uniquePrefix();
        String rt = p + "-rt";
        Api.account(rt, "ingest", null);
        Api.account(p + "-dpo", "dpo", null);
        String path = "/api/accounts/" + rt + "/ingest-scope";
        for (String bad : List.of("{}", "{\"stream_prefixes\":[]}", "{\"stream_prefixes\":[\"\"]}",
                "{\"deployments\":[\"a\\u0000b\"]}", "{\"stream_prefixes\":[\"" + "x".repeat(201) + "\"]}")) {
            Api.admin().contentType("application/json").body(bad).put(path).then().statusCode(400);
        }
        Api.admin().contentType("application/json").body("{\"stream_prefixes\":[\"a/\"]}")
                .put("/api/accounts/" + p + "-none/ingest-scope").then().statusCode(404);
        Api.admin().contentType("application/json").body("{\"stream_prefixes\":[\"a/\"]}")
                .put("/api/accounts/" + p + "-dpo/ingest-scope").then().statusCode(400)
                .body("detail", containsString("ingest"));
        Api.admin().contentType("application/json").body("{\"stream_prefixes\":[\"a/\"]}")
                .put("/api/accounts/admin/ingest-scope").then().statusCode(409);

        // unbound: a warning with the account
        Api.admin().get("/api/accounts").then()
                .body("find { it.username == '" + rt + "' }.warning", containsString("ingest-scope"));

        Api.admin().contentType("application/json")
                .body("{\"deployments\":[\"m/prod\"],\"stream_prefixes\":[\"" + p + "/\"]}").put(path).then()
                .statusCode(200).body("stream_prefixes[0]", equalTo(p + "/"));
        Api.admin().get("/api/accounts").then()
                .body("find { it.username == '" + rt + "' }.ingest_scope.deployments[0]", equalTo("m/prod"))
                .body("find { it.username == '" + rt + "' }.warning", equalTo(null));
        // a new password keeps the scope
        Api.account(rt, "ingest", null);
        Api.admin().get("/api/accounts").then()
                .body("find { it.username == '" + rt + "' }.ingest_scope.stream_prefixes[0]", equalTo(p + "/"));
        // the deployment is bound too: a line of another deployment is refused
        List<String> elsewhere = Logs.stream(p + "/s", 2).stream()
                .map(l -> l.replace("\"m/prod\"", "\"m/other\"")).toList();
        JsonPath refused = post(rt, elsewhere);
        assertThat(refused.getLong("rejected_count")).isEqualTo(2);
        assertThat(refused.getString("rejected[0].reason")).contains("deployment 'm/other'");
        assertThat(post(rt, Logs.stream(p + "/s", 2)).getLong("accepted")).isEqualTo(2);

        // an account bound by deployment only cannot write into a boot another deployment opened, even when its
        // line claims its own deployment
        String other = p + "-rt-other";
        Api.account(other, "ingest", null);
        scope(other, "{\"deployments\":[\"m/other\"]}");
        List<String> three = Logs.stream(p + "/s", 3);
        JsonPath intruded = post(other, List.of(three.get(2).replace("\"m/prod\"", "\"m/other\"")));
        assertThat(intruded.getLong("rejected_count")).isEqualTo(1);
        assertThat(intruded.getString("rejected[0].reason")).contains("opened by another deployment")
                .contains("deployment 'm/prod'");
        assertThat(post(rt, List.of(three.get(2))).getLong("accepted")).as("the genuine seq 3").isEqualTo(1);

        Api.admin().delete(path).then().statusCode(204);
        List<String> actions = Api.admin().get("/api/audit-trail?target=account:" + rt).then().statusCode(200)
                .extract().jsonPath().getList("action");
        assertThat(actions).contains("account.ingest-scope-set", "account.ingest-scope-removed");
    }
}
