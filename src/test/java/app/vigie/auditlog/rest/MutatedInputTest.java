package app.vigie.auditlog.rest;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;

import app.vigie.testing.Api;

/**
 * Valid lines of the shared examples, mutated at random (seeded): the service never answers 5xx, accounts for
 * every line as accepted, duplicate, rejected or blank, and keeps every rejected one in the quarantine.
 */
@QuarkusTest
class MutatedInputTest {
    private static final String[] INSERTS = {"\"", "\\", "{", "}", "[", "]", ",", ":", "null", "-1", "1e999",
            "99999999999999999999", "\\u0000", "\\ud800", "\t", "true", "\"\"", "0.5", "\u00e9", "\uD83D\uDE00"};

    @Test
    void noMutationGetsA5xxAndEveryLineIsAccountedFor() {
        Random random = new Random(20261202);
        List<String> base = new ArrayList<>();
        for (String example : List.of("02-partial-overwrite", "03-pd-rejected-prompt")) {
            base.addAll(Api.lines(Api.renamed(Api.example(example + ".ndjson"), Api.uniquePrefix())));
        }
        long quarantinedBefore = quarantined();
        long rejected = 0;
        for (int batch = 0; batch < 12; batch++) {
            StringBuilder body = new StringBuilder();
            int lines = 0;
            for (int i = 0; i < 60; i++) {
                body.append(mutate(base.get(random.nextInt(base.size())), random)).append('\n');
                lines++;
            }
            Response r = Api.admin().contentType(Api.NDJSON).body(body.toString().getBytes(StandardCharsets.UTF_8))
                    .post("/api/audit-log");
            assertThat(r.statusCode()).as(r.asString()).isEqualTo(200);
            JsonPath a = r.jsonPath();
            long accounted = a.getLong("accepted") + a.getLong("duplicates") + a.getList("rejected").size()
                    + a.getLong("blank_lines");
            assertThat(accounted).isEqualTo(lines);
            rejected += a.getList("rejected").size();
        }
        assertThat(rejected).isPositive();
        assertThat(quarantined() - quarantinedBefore).isEqualTo(rejected);
        Api.admin().post("/api/audit-log/flush").then().statusCode(200);
        Api.admin().get("/api/incidents").then().statusCode(200);
    }

    private static long quarantined() {
        return Api.admin().get("/api/quarantine?source=http&size=1").then().statusCode(200).extract().jsonPath()
                .getLong("total");
    }

    private static String mutate(String line, Random random) {
        StringBuilder s = new StringBuilder(line);
        int changes = random.nextInt(4);
        for (int k = 0; k < changes; k++) {
            int at = random.nextInt(s.length() + 1);
            switch (random.nextInt(4)) {
                case 0 -> {
                    if (at < s.length()) {
                        s.deleteCharAt(at);
                    }
                }
                case 1 -> s.insert(at, INSERTS[random.nextInt(INSERTS.length)]);
                case 2 -> {
                    int digit = s.indexOf(String.valueOf(random.nextInt(10)), at);
                    if (digit >= 0) {
                        s.setCharAt(digit, (char) ('0' + random.nextInt(10)));
                    }
                }
                default -> {
                    int comma = s.indexOf(",", at);
                    int next = comma < 0 ? -1 : s.indexOf(",", comma + 1);
                    if (next > comma && comma >= 0) {
                        s.delete(comma, next);
                    }
                }
            }
        }
        return s.toString();
    }
}
