package app.vigie.auditlog.intake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

import app.vigie.auditlog.record.AuditRecord;
import app.vigie.auditlog.record.Body;
import app.vigie.auditlog.record.PageFingerprint;
import app.vigie.runtime.workload.BenignWorkload;

/**
 * The fast parser against the strict one: every line it accepts, the strict parser accepts with an equal record; the
 * lines writers produce all take the fast way.
 */
class FastRecordParserTest {
    private final RecordParser strict = new RecordParser();

    private static List<String> writerLines() throws IOException {
        List<String> lines = new ArrayList<>();
        for (String name : List.of("01-benign-colocated", "02-partial-overwrite", "03-pd-rejected-prompt",
                "04-prefix-shared-same-tenant")) {
            try (InputStream in = FastRecordParserTest.class.getResourceAsStream("/examples/" + name + ".ndjson")) {
                new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().filter(l -> !l.isBlank())
                        .forEach(lines::add);
            }
        }
        new BenignWorkload(3, 42).generate(3000, lines::add);
        return lines;
    }

    @Test
    void everyLineOfTheExamplesAndOfTheRuntimeTakesTheFastWayToTheSameRecord() throws Exception {
        List<String> lines = writerLines();
        assertThat(lines).hasSizeGreaterThan(3000);
        int declaring = 0;
        for (String line : lines) {
            byte[] b = line.getBytes(StandardCharsets.UTF_8);
            AuditRecord fast = FastRecordParser.tryParse(b, 0, b.length);
            if (line.contains("\"extensions\"")) {
                // a CONFIG that declares extensions (one per boot) goes the strict way, which words their errors
                assertThat(fast).as(line).isNull();
                assertThat(((Body.Config) strict.parse(line).body()).extensions()).isNotEmpty();
                declaring++;
                continue;
            }
            assertThat(fast).as("fast way for %s", line).isNotNull();
            assertThat(fast).as(line).isEqualTo(strict.parseStrict(b, 0, b.length));
        }
        assertThat(declaring).as("the runtime's boots declare their extensions").isPositive();
    }

    @Test
    void plainVariantsAreReadAsTheStrictParserReadsThem() throws Exception {
        String env = "\"v\": 1, \"stream\": \"s\", \"boot\": \"b\", \"seq\": 2, \"ts\": \"2024-02-29T23:59:59.999Z\","
                + " \"deployment\": \"d\"";
        AuditRecord write = sameAsStrict("{" + env + ", \"type\": \"WRITE\", \"request\": \"r\", \"tenant\": \"t\","
                + " \"from\": 0, \"tokens\": 3, \"source\": \"TRANSFER\", \"fp\": [[0, \"ABcd09\"], [7,\"f\"]],"
                + " \"x\": [[1, [2, \"y\"]], true, null], \"y\": null }", true);
        assertThat(((Body.Write) write.body()).fp())
                .containsExactly(new PageFingerprint(0, "abcd09"), new PageFingerprint(7, "f"));
        AuditRecord admit = sameAsStrict("{" + env + ",\"type\":\"ADMIT\",\"request\":\"r\",\"tenant\":\"t\","
                + "\"input_tokens\":0,\"verdict\":\"REJECT\",\"reason\":\"\"}", true);
        assertThat(((Body.Admit) admit.body()).reason()).isEmpty();
        sameAsStrict("{" + env + ",\"type\":\"XFER_COMMIT\",\"request\":\"r\",\"tenant\":\"t\","
                + "\"claimed_tokens\":5,\"covered_tokens\":5,\"checksum_ok\":false}", true);
        sameAsStrict("{" + env + ",\"type\":\"XFER_SEND\",\"request\":\"r\",\"tenant\":\"t\",\"from\":3,"
                + "\"tokens\":5}", true);
        sameAsStrict("{" + env + ",\"type\":\"XFER_SEND\",\"request\":\"r\",\"tenant\":\"t\",\"from\":3,"
                + "\"tokens\":5,\"transfer\":\"x-r\"}", true);
        sameAsStrict("{" + env + ",\"type\":\"XFER_DONE\",\"request\":\"r\",\"tenant\":\"t\",\"transfer\":\"x-r\"}",
                true);
        sameAsStrict("{" + env + ",\"type\":\"WRITE\",\"request\":\"r\",\"tenant\":\"t\",\"from\":0,"
                + "\"tokens\":3,\"source\":\"TRANSFER\",\"sent\":true,\"transfer\":\"x-r\"}", true);
        byte[] unsent = ("{" + env + ",\"type\":\"WRITE\",\"request\":\"r\",\"tenant\":\"t\",\"from\":0,"
                + "\"tokens\":3,\"source\":\"TRANSFER\",\"transfer\":\"x-r\"}").getBytes(StandardCharsets.UTF_8);
        assertThat(FastRecordParser.tryParse(unsent, 0, unsent.length)).as("a transfer without sent: the strict way")
                .isNull();
        AuditRecord sent = sameAsStrict("{" + env + ",\"type\":\"WRITE\",\"request\":\"r\",\"tenant\":\"t\",\"from\":0,"
                + "\"tokens\":3,\"source\":\"TRANSFER\",\"sent\":true}", true);
        assertThat(((Body.Write) sent.body()).sent()).isTrue();
        AuditRecord restart = sameAsStrict("{" + env + ",\"type\":\"ALLOC\",\"request\":\"r\",\"tenant\":\"t\","
                + "\"pages\":[[0,1]],\"purpose\":\"PREFILL\",\"restart\":true}", true);
        assertThat(((Body.Alloc) restart.body()).restart()).isTrue();
        AuditRecord shareRestart = sameAsStrict("{" + env + ",\"type\":\"SHARE\",\"request\":\"r\",\"tenant\":\"t\","
                + "\"pages\":[[1,2]],\"restart\":true}", true);
        assertThat(((Body.Share) shareRestart.body()).restart()).isTrue();
        sameAsStrict("\t{" + env + ",\"type\":\"SHARE\",\"request\":\"r\",\"tenant\":\"t\",\"pages\":[[1,2]],"
                + "\"fp\":[\"aa\",\"BB\"]}\r", true);
        // Left to the strict parser: an escape, a non-ASCII identifier, a null that matters, a nested object.
        sameAsStrict("{" + env + ",\"type\":\"ATTACH\",\"request\":\"r\\u0031\",\"tenant\":\"t\",\"tokens\":1}",
                false);
        sameAsStrict("{" + env + ",\"type\":\"ATTACH\",\"request\":\"r\",\"tenant\":\"sé\",\"tokens\":1}", false);
        sameAsStrict("{" + env + ",\"type\":\"ALLOC\",\"request\":\"r\",\"tenant\":\"t\",\"pages\":[[0,1]],"
                + "\"purpose\":\"DECODE\",\"claimed_tokens\":null,\"z\":{\"a\":1}}", false);
    }

    @Test
    void whatTheStrictParserRejectsTheFastOneNeverAccepts() {
        String ok = "{\"v\":1,\"stream\":\"s\",\"boot\":\"b\",\"seq\":2,\"ts\":\"2026-08-27T10:15:03.123Z\","
                + "\"deployment\":\"d\",\"type\":\"WRITE\",\"request\":\"r\",\"tenant\":\"t\",\"from\":5,"
                + "\"tokens\":3,\"source\":\"COMPUTE\",\"fp\":[[0,\"ab\"]]}";
        List<String> bad = List.of(
                ok.replace("\"seq\":2", "\"seq\":1"),
                ok.replace("\"seq\":2", "\"seq\":0"),
                ok.replace("\"seq\":2", "\"seq\":02"),
                ok.replace("\"seq\":2", "\"seq\":2.0"),
                ok.replace("\"seq\":2", "\"seq\":2e0"),
                ok.replace("\"seq\":2", "\"seq\":-2"),
                ok.replace("\"v\":1", "\"v\":2"),
                ok.replace("2026-08-27", "2026-02-30"),
                ok.replace("2026-08-27", "2025-02-29"),
                ok.replace("10:15", "24:15"),
                ok.replace("15:03", "15:60"),
                ok.replace(":03.123Z", ":60.000Z"),
                ok.replace("T10", "t10"),
                ok.replace(".123Z", ".12Z"),
                ok.replace("\"from\":5", "\"from\":2147483646"),
                ok.replace("\"tokens\":3", "\"tokens\":0"),
                ok.replace("\"tokens\":3", "\"tokens\":2147483648"),
                ok.replace("\"ab\"", "\"\""),
                ok.replace("\"ab\"", "\"ag\""),
                ok.replace("\"ab\"", "\"" + "a".repeat(129) + "\""),
                ok.replace("[[0,\"ab\"]]", "[[0,\"ab\",1]]"),
                ok.replace("[[0,\"ab\"]]", "[\"ab\"]"),
                ok.replace("[[0,\"ab\"]]", "{}"),
                ok.replace("\"COMPUTE\"", "\"compute\""),
                ok.replace("\"request\":\"r\"", "\"request\":\"\""),
                ok.replace("\"request\":\"r\"", "\"request\":\"" + "r".repeat(257) + "\""),
                ok.replace("\"request\":\"r\"", "\"request\":\"r\u007f\""),
                ok.replace("\"request\":\"r\"", "\"request\":\"r\",\"request\":\"r\""),
                ok.replace("\"tenant\":\"t\",", ""),
                ok.replace("\"tenant\":\"t\"", "\"tenant\":null"),
                ok.replace("\"tenant\":\"t\"", "\"tenant\":7"),
                ok + "x",
                ok + "{}",
                ok.substring(0, ok.length() - 1),
                ok.replace("}", ",}"),
                ok.replace("[[0,\"ab\"]]", "[[0,\"ab\"],]"),
                ok.replace("\"d\"", "\"d\" \"e\""),
                "{}",
                "[]",
                "{\"v\":1}",
                ok.replace("\"type\":\"WRITE\"", "\"type\":\"SHARE\",\"pages\":[[0,2]]")
                        .replace("[[0,\"ab\"]]", "[\"ab\"]"),
                ok.replace("\"type\":\"WRITE\"", "\"type\":\"FREE\",\"pages\":[],\"reason\":\"EVICT\""),
                ok.replace("\"type\":\"WRITE\"", "\"type\":\"FINISH\",\"status\":\"STOP\",\"http_status\":600,"
                        + "\"output_tokens\":1,\"delivered\":true"),
                ok.replace("\"type\":\"WRITE\"", "\"type\":\"FINISH\",\"status\":\"STOP\",\"http_status\":200,"
                        + "\"output_tokens\":1,\"delivered\":1"),
                ok.replace("\"type\":\"WRITE\"", "\"type\":\"XFER_COMMIT\",\"claimed_tokens\":1,"
                        + "\"covered_tokens\":2"));
        for (String line : bad) {
            byte[] b = line.getBytes(StandardCharsets.UTF_8);
            assertThat(FastRecordParser.tryParse(b, 0, b.length)).as(line).isNull();
            try {
                strict.parseStrict(b, 0, b.length);
                fail("the strict parser accepts " + line + "; this list is of rejected lines");
            } catch (InvalidRecordException expected) {
                assertThat(expected.getMessage()).isNotBlank();
            }
        }
    }

    /** Random damage to valid lines: the fast way either steps aside or agrees with the strict way. */
    @Test
    void randomlyDamagedLinesNeverMakeTheTwoWaysDisagree() throws Exception {
        List<String> lines = writerLines();
        String[] tokens = {"\"", "[", "]", "{", "}", ",", ":", "-", "0", "9", "1e3", ".5", "null", "true", " ",
            "\\", "\\n", "é", "A", "Z", "x", "\t", "00", "99999999999999999999", "2147483648", "[0,1]", "\"a\":1,"};
        long seed = 20261202L;
        Random random = new Random(seed);
        int fastAccepted = 0;
        int strictAccepted = 0;
        for (int round = 0; round < 60_000; round++) {
            StringBuilder s = new StringBuilder(lines.get(random.nextInt(lines.size())));
            for (int op = 1 + random.nextInt(2); op > 0; op--) {
                int at = random.nextInt(s.length() + 1);
                switch (random.nextInt(3)) {
                    case 0 -> {
                        if (at < s.length()) {
                            s.deleteCharAt(at);
                        }
                    }
                    case 1 -> s.insert(at, tokens[random.nextInt(tokens.length)]);
                    default -> {
                        int to = Math.min(s.length(), at + 1 + random.nextInt(4));
                        s.replace(at, to, tokens[random.nextInt(tokens.length)]);
                    }
                }
            }
            byte[] b = s.toString().getBytes(StandardCharsets.UTF_8);
            AuditRecord fast = FastRecordParser.tryParse(b, 0, b.length);
            AuditRecord slow;
            try {
                slow = strict.parseStrict(b, 0, b.length);
                strictAccepted++;
            } catch (InvalidRecordException e) {
                slow = null;
                if (fast != null) {
                    fail("seed " + seed + ": the fast way accepts what the strict way rejects (" + e.getMessage()
                            + "): " + s);
                }
            }
            if (fast != null) {
                fastAccepted++;
                assertThat(fast).as("seed %d: %s", seed, s).isEqualTo(slow);
            }
        }
        // The damage must leave both valid and invalid lines, and most valid ones plain enough for the fast way.
        assertThat(strictAccepted).isBetween(5_000, 55_000);
        assertThat(fastAccepted).isGreaterThan(strictAccepted / 2);
    }

    private AuditRecord sameAsStrict(String line, boolean fastWay) throws InvalidRecordException {
        byte[] b = line.getBytes(StandardCharsets.UTF_8);
        AuditRecord fast = FastRecordParser.tryParse(b, 0, b.length);
        AuditRecord slow = strict.parseStrict(b, 0, b.length);
        if (fastWay) {
            assertThat(fast).as(line).isEqualTo(slow);
        } else {
            assertThat(fast).as(line).isNull();
        }
        return slow;
    }
}
