package app.vigie.auditlog.rest;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;

import app.vigie.testing.Api;
import app.vigie.testing.Logs;

/**
 * Random and mutated batches, from a fixed seed (printed, so a failure can be replayed): valid records of a stream
 * with characters dropped, inserted or swapped, fields of the wrong type, truncated lines, random text, blank lines,
 * duplicates and reorderings. For every batch: never a 5xx, every line accounted for as accepted, duplicate,
 * rejected or blank, and every rejected line in the quarantine under the batch's id, at its line, with its reason.
 * (jqwik's engine does not run inside a {@code @QuarkusTest}; this draws its cases with a seeded Random instead.)
 */
@QuarkusTest
class MutatedInputTest {
    private static final long SEED = Long.getLong("vigie.fuzz.seed", 20261202L);
    private static final int BATCHES = Integer.getInteger("vigie.fuzz.batches", 120);

    @Test
    void everyLineIsAccountedForAndNothingIsLost() {
        System.out.println("MutatedInputTest seed " + SEED + " (-Dvigie.fuzz.seed=" + SEED + " replays it)");
        Random random = new Random(SEED);
        String p = Api.uniquePrefix();
        int totalRejected = 0;
        int totalAccepted = 0;
        for (int b = 0; b < BATCHES; b++) {
            List<String> base = Logs.stream(p + "/s" + (b % 7), 40);
            List<String> lines = new ArrayList<>();
            int n = 1 + random.nextInt(30);
            for (int i = 0; i < n; i++) {
                String line = base.get(random.nextInt(base.size()));
                lines.add(mutate(line, random));
            }
            String body = String.join("\n", lines) + (random.nextBoolean() ? "\n" : "");
            Response r = Api.post(body);
            assertThat(r.statusCode()).as("batch " + b + " (seed " + SEED + "):\n" + body).isEqualTo(200);
            JsonPath j = r.jsonPath();
            int accepted = j.getInt("accepted");
            int duplicates = j.getInt("duplicates");
            int blank = j.getInt("blank_lines");
            List<Map<String, Object>> rejected = j.getList("rejected");
            // lines as the intake counts them: split on \n, a final newline ends the last line
            int expected = body.isEmpty() ? 0 : body.split("\n", -1).length - (body.endsWith("\n") ? 1 : 0);
            assertThat(accepted + duplicates + rejected.size() + blank).as("batch " + b + ": every line accounted "
                    + "for:\n" + body).isEqualTo(expected);
            totalRejected += rejected.size();
            totalAccepted += accepted;
            if (!rejected.isEmpty()) {
                String batchId = j.getString("batch_id");
                Map<Integer, String> kept = new HashMap<>();
                List<Map<String, Object>> items = Api.admin().get("/api/quarantine?source=http&size=500").then()
                        .statusCode(200).extract().jsonPath().getList("items");
                for (Map<String, Object> item : items) {
                    if (batchId.equals(item.get("source_name"))) {
                        kept.put(((Number) item.get("position")).intValue(), (String) item.get("reason"));
                    }
                }
                for (Map<String, Object> rej : rejected) {
                    int line = ((Number) rej.get("line")).intValue();
                    assertThat(kept).as("batch " + b + " line " + line + " in the quarantine").containsEntry(line,
                            (String) rej.get("reason"));
                }
                assertThat(kept).hasSize(rejected.size());
            }
        }
        System.out.println("MutatedInputTest: " + BATCHES + " batches, " + totalAccepted + " lines accepted, "
                + totalRejected + " rejected and kept");
        assertThat(totalRejected).as("the mutations produced bad lines").isGreaterThan(BATCHES / 2);
        assertThat(totalAccepted).as("and some good ones").isPositive();
    }

    /** A line as it came, or damaged one of several ways. */
    static String mutate(String line, Random random) {
        switch (random.nextInt(10)) {
            case 0:
                return line;
            case 1: {
                int at = random.nextInt(line.length());
                return line.substring(0, at) + line.substring(at + 1);
            }
            case 2: {
                int at = random.nextInt(line.length() + 1);
                char c = "{}[]\":,0-9a\\ \u00e9\u0000\u2028".charAt(random.nextInt(16));
                return line.substring(0, at) + c + line.substring(at);
            }
            case 3:
                return line.substring(0, random.nextInt(line.length()));
            case 4:
                return line.replaceFirst("\"seq\":\\d+", "\"seq\":\"" + random.nextInt(100) + "\"");
            case 5:
                return line.replaceFirst("\"ts\":\"[^\"]*\"", "\"ts\":" + random.nextLong());
            case 6:
                return random.nextBoolean() ? "" : "   ";
            case 7: {
                StringBuilder b = new StringBuilder();
                for (int i = random.nextInt(60); i > 0; i--) {
                    b.append((char) (0x20 + random.nextInt(0x5f)));
                }
                return b.toString();
            }
            case 8:
                return line.replaceFirst("\"seq\":(\\d+)", "\"seq\":" + (1 + random.nextInt(2_000_000_000)));
            default:
                return line.replaceFirst("\\{", "{\"extra\":" + random.nextInt() + ",");
        }
    }
}
