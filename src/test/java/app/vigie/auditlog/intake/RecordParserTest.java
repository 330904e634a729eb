package app.vigie.auditlog.intake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import app.vigie.auditlog.record.AuditRecord;
import app.vigie.auditlog.record.Body;
import app.vigie.auditlog.record.PageFingerprint;
import app.vigie.auditlog.record.PageRun;

class RecordParserTest {
    private static final String ENV = "\"v\":1,\"stream\":\"eu/n1/colo/dp0\",\"boot\":\"b1\",\"seq\":7,"
            + "\"ts\":\"2026-08-27T10:15:03.123Z\",\"deployment\":\"m/prod\"";
    private final RecordParser parser = new RecordParser();

    static String rec(String type, String fields) {
        return "{" + ENV + ",\"type\":\"" + type + "\"" + (fields.isEmpty() ? "" : "," + fields) + "}";
    }

    static final String ADMIT = "\"request\":\"r1\",\"tenant\":\"acme\",\"input_tokens\":10,\"verdict\":\"ACCEPT\"";
    static final String ALLOC = "\"request\":\"r1\",\"tenant\":\"acme\",\"pages\":[[0,2]],\"purpose\":\"PREFILL\"";
    static final String WRITE = "\"request\":\"r1\",\"tenant\":\"acme\",\"from\":0,\"tokens\":16,\"source\":\"COMPUTE\"";
    static final String SHARE = "\"request\":\"r1\",\"tenant\":\"acme\",\"pages\":[[4,2]]";
    static final String ATTACH = "\"request\":\"r1\",\"tenant\":\"acme\",\"tokens\":16";
    static final String FREE = "\"request\":\"r1\",\"pages\":[[0,2]],\"reason\":\"FINISH\"";
    static final String XFER = "\"request\":\"r1\",\"tenant\":\"acme\",\"claimed_tokens\":100,\"covered_tokens\":1";
    static final String FINISH = "\"request\":\"r1\",\"tenant\":\"acme\",\"status\":\"STOP\",\"http_status\":200,"
            + "\"output_tokens\":3,\"delivered\":true";

    @Test
    void parsesEveryTypeWithItsFields() throws Exception {
        AuditRecord config = parser.parse("{\"v\":1,\"stream\":\"s\",\"boot\":\"b\",\"seq\":1,"
                + "\"ts\":\"2026-08-27T10:15:03.123Z\",\"deployment\":\"d\",\"type\":\"CONFIG\",\"page_size\":16,"
                + "\"pool_pages\":64,\"context_window\":1024,\"max_input_tokens\":1000}");
        assertThat(config.body()).isEqualTo(new Body.Config(16, 64, 1024, 1000));
        assertThat(config.ts()).isEqualTo(Instant.parse("2026-08-27T10:15:03.123Z"));

        assertThat(parser.parse(rec("ADMIT", ADMIT + ",\"reason\":\"ok\"")).body())
                .isEqualTo(new Body.Admit("r1", "acme", 10, Body.Verdict.ACCEPT, "ok"));
        assertThat(parser.parse(rec("ALLOC", ALLOC + ",\"claimed_tokens\":20")).body())
                .isEqualTo(new Body.Alloc("r1", "acme", List.of(new PageRun(0, 2)), Body.AllocPurpose.PREFILL, 20));
        assertThat(parser.parse(rec("WRITE", WRITE + ",\"fp\":[[0,\"AbC0\"]]")).body())
                .isEqualTo(new Body.Write("r1", "acme", 0, 16, Body.WriteSource.COMPUTE,
                        List.of(new PageFingerprint(0, "abc0"))));
        assertThat(parser.parse(rec("SHARE", SHARE + ",\"fp\":[\"aa\",\"bb\"]")).body())
                .isEqualTo(new Body.Share("r1", "acme", List.of(new PageRun(4, 2)), List.of("aa", "bb")));
        assertThat(parser.parse(rec("ATTACH", ATTACH)).body()).isEqualTo(new Body.Attach("r1", "acme", 16));
        assertThat(parser.parse(rec("FREE", FREE)).body())
                .isEqualTo(new Body.Free("r1", List.of(new PageRun(0, 2)), Body.FreeReason.FINISH));
        assertThat(parser.parse(rec("XFER_COMMIT", XFER + ",\"checksum_ok\":false")).body())
                .isEqualTo(new Body.XferCommit("r1", "acme", 100, 1, false));
        assertThat(parser.parse(rec("FINISH", FINISH)).body())
                .isEqualTo(new Body.Finish("r1", "acme", Body.FinishStatus.STOP, 200, 3, true));
        // spec v1.1: the sender's record of a transfer, and a receiving write that promises it
        assertThat(parser.parse(rec("XFER_SEND", "\"request\":\"r1\",\"tenant\":\"acme\",\"from\":16,\"tokens\":32"))
                .body()).isEqualTo(new Body.XferSend("r1", "acme", 16, 32));
        AuditRecord sent = parser.parse(rec("WRITE", WRITE.replace("COMPUTE", "TRANSFER") + ",\"sent\":true"));
        assertThat(sent.body()).isEqualTo(new Body.Write("r1", "acme", 0, 16, Body.WriteSource.TRANSFER, null, true));
        assertThat(CanonicalJson.of(sent)).contains("\"sent\":true");
        assertThat(((Body.Write) parser.parse(rec("WRITE", WRITE.replace("COMPUTE", "TRANSFER")
                + ",\"sent\":false")).body()).sent()).isFalse();
        assertThat(parser.parse(rec("HEARTBEAT", "")).body()).isEqualTo(new Body.Heartbeat());
        // spec v1.2: a table started anew after a preemption
        AuditRecord restart = parser.parse(rec("ALLOC", ALLOC + ",\"restart\":true"));
        assertThat(restart.body()).isEqualTo(new Body.Alloc("r1", "acme", List.of(new PageRun(0, 2)),
                Body.AllocPurpose.PREFILL, null, true));
        assertThat(CanonicalJson.of(restart)).contains("\"restart\":true");
        AuditRecord shareRestart = parser.parse(rec("SHARE", SHARE + ",\"restart\":true"));
        assertThat(((Body.Share) shareRestart.body()).restart()).isTrue();
        assertThat(CanonicalJson.of(shareRestart)).contains("\"restart\":true");
        assertThat(((Body.Alloc) parser.parse(rec("ALLOC", ALLOC + ",\"restart\":false")).body()).restart()).isFalse();
        assertThat(CanonicalJson.of(parser.parse(rec("ALLOC", ALLOC + ",\"restart\":false")))).doesNotContain("restart");
    }

    static final String CONFIG = "\"page_size\":16,\"pool_pages\":64,\"context_window\":1024,\"max_input_tokens\":1000";

    /**
     * Spec 1.3, amendment 1: a CONFIG's extensions are an optional array of names, read as a set (sorted, without
     * duplicates), so that two deliveries that differ only in their order or by an empty array are the same record.
     */
    @Test
    void configExtensionsAreAnOptionalArrayOfNames() throws Exception {
        AuditRecord declared = parser.parse(config(CONFIG + ",\"extensions\":[\"xfer-send\",\"restart\",\"xfer-send\","
                + "\"kv-offload\"]"));
        assertThat(((Body.Config) declared.body()).extensions()).containsExactly("kv-offload", "restart", "xfer-send");
        assertThat(CanonicalJson.of(declared)).endsWith(",\"extensions\":[\"kv-offload\",\"restart\",\"xfer-send\"]}");
        assertThat(CanonicalJson.of(parser.parse(config(CONFIG + ",\"extensions\":[\"restart\",\"kv-offload\","
                + "\"xfer-send\"]")))).isEqualTo(CanonicalJson.of(declared));
        assertThat(parser.parse(CanonicalJson.of(declared))).isEqualTo(declared);

        AuditRecord none = parser.parse(config(CONFIG));
        assertThat(((Body.Config) none.body()).extensions()).isEmpty();
        for (String same : List.of(",\"extensions\":[]", ",\"extensions\":null")) {
            AuditRecord r = parser.parse(config(CONFIG + same));
            assertThat(r).isEqualTo(none);
            assertThat(CanonicalJson.of(r)).isEqualTo(CanonicalJson.of(none)).doesNotContain("extensions");
        }
    }

    /**
     * Spec 1.3, amendments 2 and 3: a sent WRITE and an XFER_SEND may carry their transfer's id (required under
     * xfer-send, which the detector checks: the intake cannot see the CONFIG); XFER_DONE names its transfer always.
     */
    @Test
    void transfersCarryTheirId() throws Exception {
        String sent = WRITE.replace("COMPUTE", "TRANSFER") + ",\"sent\":true";
        AuditRecord write = parser.parse(rec("WRITE", sent + ",\"transfer\":\"nixl-7f3a/2\""));
        assertThat(write.body()).isEqualTo(new Body.Write("r1", "acme", 0, 16, Body.WriteSource.TRANSFER, null, true,
                "nixl-7f3a/2"));
        assertThat(((Body.Write) parser.parse(rec("WRITE", sent)).body()).transfer()).isNull();
        AuditRecord send = parser.parse(rec("XFER_SEND", "\"request\":\"r1\",\"tenant\":\"acme\",\"from\":0,"
                + "\"tokens\":8,\"transfer\":\"t1\""));
        assertThat(send.body()).isEqualTo(new Body.XferSend("r1", "acme", 0, 8, "t1"));
        AuditRecord done = parser.parse(rec("XFER_DONE", "\"request\":\"r1\",\"tenant\":\"acme\",\"transfer\":\"t1\""));
        assertThat(done.body()).isEqualTo(new Body.XferDone("r1", "acme", "t1"));
        for (AuditRecord r : List.of(write, send, done)) {
            assertThat(CanonicalJson.of(r)).contains("\"transfer\":\"");
            assertThat(parser.parse(CanonicalJson.of(r))).isEqualTo(r);
        }
    }

    @Test
    void ignoresUnknownFieldsAndTreatsNullOptionalsAsAbsent() throws Exception {
        AuditRecord r = parser.parse(rec("ALLOC", ALLOC + ",\"claimed_tokens\":null,\"x_future\":{\"a\":[1,2]}"));
        assertThat(((Body.Alloc) r.body()).claimedTokens()).isNull();
        assertThat(CanonicalJson.of(r)).doesNotContain("x_future").doesNotContain("claimed_tokens");
    }

    @Test
    void canonicalTextIgnoresSpacingFieldOrderAndUnknownFields() throws Exception {
        AuditRecord a = parser.parse(rec("ATTACH", ATTACH));
        AuditRecord b = parser.parse("{ \"tokens\" : 16, \"tenant\":\"acme\", \"request\":\"r1\", \"zzz\": 1, "
                + ENV + ", \"type\":\"ATTACH\" }");
        assertThat(CanonicalJson.of(a)).isEqualTo(CanonicalJson.of(b));
        assertThat(CanonicalJson.of(a)).contains("\"ts\":\"2026-08-27T10:15:03.123Z\"");
        AuditRecord c = parser.parse(rec("ATTACH", ATTACH.replace("16", "17")));
        assertThat(CanonicalJson.of(a)).isNotEqualTo(CanonicalJson.of(c));
    }

    @Test
    void canonicalTextParsesBackToTheSameRecord() throws Exception {
        for (String line : List.of(rec("WRITE", WRITE + ",\"fp\":[[0,\"ab\"]]"), rec("SHARE", SHARE),
                rec("ADMIT", ADMIT + ",\"reason\":\"a\\\"b\""), rec("FINISH", FINISH))) {
            AuditRecord r = parser.parse(line);
            assertThat(parser.parse(CanonicalJson.of(r))).isEqualTo(r);
        }
    }

    static Stream<Arguments> invalid() {
        return Stream.of(
                // encoding and shape
                Arguments.of("not json", "not valid JSON"),
                Arguments.of("[1,2]", "a record must be a JSON object, got array"),
                Arguments.of("\"text\"", "a record must be a JSON object, got string"),
                Arguments.of(rec("HEARTBEAT", "") + " {}", "not valid JSON"),
                Arguments.of("{\"v\":1,\"v\":1}", "not valid JSON: Duplicate field 'v'"),
                Arguments.of("{\"v\":1,", "not valid JSON"),
                // envelope
                Arguments.of(rec("HEARTBEAT", "").replace("\"v\":1,", ""), "field 'v' is required"),
                Arguments.of(rec("HEARTBEAT", "").replace("\"v\":1", "\"v\":2"), "field 'v' must be 1"),
                Arguments.of(rec("HEARTBEAT", "").replace("\"v\":1", "\"v\":\"1\""), "field 'v' must be an integer, got string"),
                Arguments.of(rec("HEARTBEAT", "").replace("\"v\":1", "\"v\":1.0"), "field 'v' must be an integer, got number 1.0"),
                Arguments.of(rec("NOPE", ""), "field 'type' must be one of CONFIG, ADMIT"),
                Arguments.of(rec("heartbeat", ""), "field 'type' must be one of"),
                Arguments.of(rec("HEARTBEAT", "").replace(",\"type\":\"HEARTBEAT\"", ""), "field 'type' is required"),
                Arguments.of(rec("HEARTBEAT", "").replace("\"stream\":\"eu/n1/colo/dp0\"", "\"stream\":\"\""),
                        "HEARTBEAT: field 'stream' must have 1 to 200 characters, got 0"),
                Arguments.of(rec("HEARTBEAT", "").replace("eu/n1/colo/dp0", "x".repeat(201)),
                        "field 'stream' must have 1 to 200 characters, got 201"),
                Arguments.of(rec("HEARTBEAT", "").replace("eu/n1/colo/dp0", "a\\u0000b"),
                        "field 'stream' must not contain control characters (found U+0000"),
                Arguments.of(rec("HEARTBEAT", "").replace("eu/n1/colo/dp0", "a\\ud800b"),
                        "field 'stream' contains an unpaired surrogate"),
                Arguments.of(rec("HEARTBEAT", "").replace("\"boot\":\"b1\"", "\"boot\":\"" + "b".repeat(101) + "\""),
                        "field 'boot' must have 1 to 100 characters, got 101"),
                Arguments.of(rec("HEARTBEAT", "").replace("\"boot\":\"b1\"", "\"boot\":7"),
                        "field 'boot' must be a string, got number 7"),
                Arguments.of(rec("HEARTBEAT", "").replace("\"deployment\":\"m/prod\"", "\"deployment\":null"),
                        "field 'deployment' is required"),
                Arguments.of(rec("HEARTBEAT", "").replace("m/prod", "d".repeat(201)),
                        "field 'deployment' must have 1 to 200 characters"),
                Arguments.of(rec("HEARTBEAT", "").replace("\"seq\":7", "\"seq\":0"), "field 'seq' must be >= 1, got 0"),
                Arguments.of(rec("HEARTBEAT", "").replace("\"seq\":7", "\"seq\":-3"), "field 'seq' must be >= 1"),
                Arguments.of(rec("HEARTBEAT", "").replace("\"seq\":7", "\"seq\":99999999999999999999"),
                        "field 'seq' must be at most 9223372036854775807"),
                Arguments.of(rec("HEARTBEAT", "").replace("\"seq\":7", "\"seq\":1"),
                        "seq 1 of a boot must be its CONFIG record"),
                Arguments.of(rec("CONFIG", "\"page_size\":16,\"pool_pages\":64,\"context_window\":1024,"
                        + "\"max_input_tokens\":1000"), "a CONFIG record must have seq 1"),
                Arguments.of(rec("HEARTBEAT", "").replace("2026-08-27T10:15:03.123Z", "2026-08-27T10:15:03Z"),
                        "field 'ts' must be an RFC 3339 UTC timestamp with milliseconds"),
                Arguments.of(rec("HEARTBEAT", "").replace("2026-08-27T10:15:03.123Z", "2026-08-27T12:15:03.123+02:00"),
                        "field 'ts' must be an RFC 3339 UTC timestamp"),
                Arguments.of(rec("HEARTBEAT", "").replace("2026-08-27T10:15:03.123Z", "2026-02-30T10:15:03.123Z"),
                        "field 'ts' is not a real date and time"),
                Arguments.of(rec("HEARTBEAT", "").replace("2026-08-27T10:15:03.123Z", "2026-08-27T25:15:03.123Z"),
                        "field 'ts' is not a real date and time"),
                Arguments.of(rec("HEARTBEAT", "").replace("\"ts\":\"2026-08-27T10:15:03.123Z\"", "\"ts\":1788000000"),
                        "field 'ts' must be a string"),
                // CONFIG
                Arguments.of(config("\"page_size\":0,\"pool_pages\":64,\"context_window\":1,\"max_input_tokens\":1"),
                        "CONFIG: field 'page_size' must be >= 1, got 0"),
                Arguments.of(config("\"page_size\":16,\"context_window\":1,\"max_input_tokens\":1"),
                        "CONFIG: field 'pool_pages' is required"),
                Arguments.of(config("\"page_size\":16,\"pool_pages\":64,\"context_window\":0,\"max_input_tokens\":1"),
                        "CONFIG: field 'context_window' must be >= 1"),
                Arguments.of(config("\"page_size\":16,\"pool_pages\":64,\"context_window\":1,\"max_input_tokens\":0"),
                        "CONFIG: field 'max_input_tokens' must be >= 1"),
                Arguments.of(config(CONFIG + ",\"extensions\":\"restart\""),
                        "CONFIG: field 'extensions' must be an array, got string 'restart'"),
                Arguments.of(config(CONFIG + ",\"extensions\":[\"restart\",7]"),
                        "CONFIG: field 'extensions[1]' must be a string, got number 7"),
                Arguments.of(config(CONFIG + ",\"extensions\":[\"\"]"),
                        "CONFIG: field 'extensions[0]' must have 1 to 64 characters, got 0"),
                Arguments.of(config(CONFIG + ",\"extensions\":[\"" + "x".repeat(65) + "\"]"),
                        "CONFIG: field 'extensions[0]' must have 1 to 64 characters, got 65"),
                Arguments.of(config(CONFIG + ",\"extensions\":[\"re\\nstart\"]"),
                        "CONFIG: field 'extensions[0]' must not contain control characters"),
                Arguments.of(config(CONFIG + ",\"extensions\":[" + "\"e\",".repeat(16) + "\"f\"]"),
                        "CONFIG: field 'extensions' must have at most 16 items, got 17"),
                Arguments.of(config("\"page_size\":16,\"pool_pages\":4294967296,\"context_window\":1,\"max_input_tokens\":1"),
                        "CONFIG: field 'pool_pages' must be at most 2147483647"),
                // ADMIT
                Arguments.of(rec("ADMIT", ADMIT.replace("\"request\":\"r1\",", "")), "ADMIT: field 'request' is required"),
                Arguments.of(rec("ADMIT", ADMIT.replace("\"r1\"", "\"\"")), "ADMIT: field 'request' must have 1 to 256"),
                Arguments.of(rec("ADMIT", ADMIT.replace("\"acme\"", "\"" + "t".repeat(257) + "\"")),
                        "ADMIT: field 'tenant' must have 1 to 256 characters, got 257"),
                Arguments.of(rec("ADMIT", ADMIT.replace("\"tenant\":\"acme\",", "")), "ADMIT: field 'tenant' is required"),
                Arguments.of(rec("ADMIT", ADMIT.replace("10", "-1")), "ADMIT: field 'input_tokens' must be >= 0"),
                Arguments.of(rec("ADMIT", ADMIT.replace("ACCEPT", "MAYBE")),
                        "ADMIT: field 'verdict' must be one of ACCEPT, REJECT, got 'MAYBE'"),
                Arguments.of(rec("ADMIT", ADMIT + ",\"reason\":5"), "ADMIT: field 'reason' must be a string"),
                Arguments.of(rec("ADMIT", ADMIT + ",\"reason\":\"" + "x".repeat(1001) + "\""),
                        "ADMIT: field 'reason' must have 0 to 1000 characters"),
                // ALLOC
                Arguments.of(rec("ALLOC", ALLOC.replace(",\"pages\":[[0,2]]", "")), "ALLOC: field 'pages' is required"),
                Arguments.of(rec("ALLOC", ALLOC.replace("[[0,2]]", "[]")), "ALLOC: field 'pages' must list at least one"),
                Arguments.of(rec("ALLOC", ALLOC.replace("[[0,2]]", "[[0,0]]")), "ALLOC: field 'pages[0][1]' must be >= 1, got 0"),
                Arguments.of(rec("ALLOC", ALLOC.replace("[[0,2]]", "[[-1,2]]")), "ALLOC: field 'pages[0][0]' must be >= 0"),
                Arguments.of(rec("ALLOC", ALLOC.replace("[[0,2]]", "[[0,2,3]]")), "ALLOC: field 'pages[0]' must be a page run"),
                Arguments.of(rec("ALLOC", ALLOC.replace("[[0,2]]", "[0,2]")), "ALLOC: field 'pages[0]' must be a page run"),
                Arguments.of(rec("ALLOC", ALLOC.replace("[[0,2]]", "{\"a\":1}")), "ALLOC: field 'pages' must be an array, got object"),
                Arguments.of(rec("ALLOC", ALLOC.replace("[[0,2]]", "[[0,\"2\"]]")), "ALLOC: field 'pages[0][1]' must be an integer"),
                Arguments.of(rec("ALLOC", ALLOC.replace("PREFILL", "SOMETIME")), "ALLOC: field 'purpose' must be one of PREFILL, DECODE, PREALLOC"),
                Arguments.of(rec("ALLOC", ALLOC + ",\"claimed_tokens\":-5"), "ALLOC: field 'claimed_tokens' must be >= 0"),
                // WRITE
                Arguments.of(rec("WRITE", WRITE.replace("\"tokens\":16", "\"tokens\":0")), "WRITE: field 'tokens' must be >= 1"),
                Arguments.of(rec("WRITE", WRITE.replace("\"from\":0", "\"from\":-1")), "WRITE: field 'from' must be >= 0"),
                Arguments.of(rec("WRITE", WRITE.replace("\"from\":0,", "")), "WRITE: field 'from' is required"),
                Arguments.of(rec("WRITE", WRITE + ",\"sent\":true"), "WRITE: field 'sent' applies to writes with source TRANSFER only"),
                Arguments.of(rec("WRITE", WRITE.replace("COMPUTE", "TRANSFER") + ",\"sent\":1"), "WRITE: field 'sent' must be true or false"),
                Arguments.of(rec("ALLOC", ALLOC + ",\"restart\":\"yes\""), "ALLOC: field 'restart' must be true or false"),
                Arguments.of(rec("WRITE", WRITE.replace("COMPUTE", "TRANSFER") + ",\"transfer\":\"t1\""), "WRITE: field 'transfer' applies to writes with sent: true only"),
                Arguments.of(rec("WRITE", WRITE.replace("COMPUTE", "TRANSFER") + ",\"sent\":true,\"transfer\":\"\""), "WRITE: field 'transfer' must have 1 to 256 characters, got 0"),
                Arguments.of(rec("XFER_SEND", "\"request\":\"r1\",\"tenant\":\"acme\",\"from\":0,\"tokens\":3,\"transfer\":7"), "XFER_SEND: field 'transfer' must be a string, got number 7"),
                Arguments.of(rec("XFER_DONE", "\"request\":\"r1\",\"tenant\":\"acme\""), "XFER_DONE: field 'transfer' is required"),
                Arguments.of(rec("XFER_DONE", "\"request\":\"r1\",\"tenant\":\"acme\",\"transfer\":\"t\\u0001\""), "XFER_DONE: field 'transfer' must not contain control characters"),
                Arguments.of(rec("SHARE", SHARE + ",\"restart\":1"), "SHARE: field 'restart' must be true or false"),
                Arguments.of(rec("XFER_SEND", "\"request\":\"r1\",\"tenant\":\"acme\",\"from\":0,\"tokens\":0"), "XFER_SEND: field 'tokens' must be >= 1"),
                Arguments.of(rec("XFER_SEND", "\"request\":\"r1\",\"tenant\":\"acme\",\"tokens\":3"), "XFER_SEND: field 'from' is required"),
                Arguments.of(rec("WRITE", WRITE.replace("\"from\":0", "\"from\":2147483640")), "WRITE: positions from + tokens"),
                Arguments.of(rec("WRITE", WRITE.replace("COMPUTE", "MAGIC")), "WRITE: field 'source' must be one of COMPUTE, TRANSFER"),
                Arguments.of(rec("WRITE", WRITE + ",\"fp\":[[0]]"), "WRITE: field 'fp[0]' must be a pair [logical_page, hex]"),
                Arguments.of(rec("WRITE", WRITE + ",\"fp\":[[0,\"xyz\"]]"), "WRITE: field 'fp[0][1]' must be 1 to 128 hex digits"),
                Arguments.of(rec("WRITE", WRITE + ",\"fp\":[[0,\"\"]]"), "WRITE: field 'fp[0][1]' must be 1 to 128 hex digits"),
                Arguments.of(rec("WRITE", WRITE + ",\"fp\":[[0,\"" + "a".repeat(129) + "\"]]"), "must be 1 to 128 hex digits"),
                Arguments.of(rec("WRITE", WRITE + ",\"fp\":[[-1,\"ab\"]]"), "WRITE: field 'fp[0][0]' must be >= 0"),
                Arguments.of(rec("WRITE", WRITE + ",\"fp\":[[0,12]]"), "WRITE: field 'fp[0][1]' must be a hex string"),
                Arguments.of(rec("WRITE", WRITE + ",\"fp\":\"ab\""), "WRITE: field 'fp' must be an array"),
                // SHARE
                Arguments.of(rec("SHARE", SHARE + ",\"fp\":[\"aa\"]"), "SHARE: field 'fp' must have one fingerprint per shared page (2), got 1"),
                Arguments.of(rec("SHARE", SHARE + ",\"fp\":[\"aa\",\"bb\",\"cc\"]"), "SHARE: field 'fp' must have one fingerprint per shared page"),
                Arguments.of(rec("SHARE", SHARE + ",\"fp\":[\"aa\",\"zz\"]"), "SHARE: field 'fp[1]' must be 1 to 128 hex digits"),
                Arguments.of(rec("SHARE", SHARE.replace("\"tenant\":\"acme\",", "")), "SHARE: field 'tenant' is required"),
                // ATTACH
                Arguments.of(rec("ATTACH", ATTACH.replace("16", "-1")), "ATTACH: field 'tokens' must be >= 0"),
                Arguments.of(rec("ATTACH", ATTACH.replace("16", "true")), "ATTACH: field 'tokens' must be an integer, got true"),
                // FREE
                Arguments.of(rec("FREE", FREE.replace("FINISH", "DONE")), "FREE: field 'reason' must be one of FINISH, ABORT, EVICT"),
                Arguments.of(rec("FREE", FREE.replace("\"request\":\"r1\",", "")), "FREE: field 'request' is required"),
                // XFER_COMMIT
                Arguments.of(rec("XFER_COMMIT", XFER.replace("\"claimed_tokens\":100,", "")), "XFER_COMMIT: field 'claimed_tokens' is required"),
                Arguments.of(rec("XFER_COMMIT", XFER.replace("\"covered_tokens\":1", "\"covered_tokens\":-1")), "XFER_COMMIT: field 'covered_tokens' must be >= 0"),
                Arguments.of(rec("XFER_COMMIT", XFER.replace("\"covered_tokens\":1", "\"covered_tokens\":101")), "cannot exceed 'claimed_tokens'"),
                Arguments.of(rec("XFER_COMMIT", XFER + ",\"checksum_ok\":\"yes\""), "XFER_COMMIT: field 'checksum_ok' must be true or false"),
                // FINISH
                Arguments.of(rec("FINISH", FINISH.replace("STOP", "DONE")), "FINISH: field 'status' must be one of STOP, LENGTH, ABORT"),
                Arguments.of(rec("FINISH", FINISH.replace("200", "99")), "FINISH: field 'http_status' must be >= 100"),
                Arguments.of(rec("FINISH", FINISH.replace("200", "600")), "FINISH: field 'http_status' must be at most 599"),
                Arguments.of(rec("FINISH", FINISH.replace("\"output_tokens\":3", "\"output_tokens\":-3")), "FINISH: field 'output_tokens' must be >= 0"),
                Arguments.of(rec("FINISH", FINISH.replace("true", "1")), "FINISH: field 'delivered' must be true or false, got number 1"),
                Arguments.of(rec("FINISH", FINISH.replace(",\"delivered\":true", "")), "FINISH: field 'delivered' is required"));
    }

    @Test
    void reasonsNeverCarryControlCharactersOrLoneSurrogates() {
        assertThatThrownBy(() -> parser.parse(rec("NO\\u0000PE\\ud800", "")))
                .hasMessage("field 'type' must be one of CONFIG, ADMIT, ALLOC, WRITE, SHARE, ATTACH, FREE, XFER_COMMIT, "
                        + "XFER_SEND, XFER_DONE, FINISH, HEARTBEAT, got 'NO\\u0000PE\\ud800'");
    }

    static String config(String fields) {
        return rec("CONFIG", fields).replace("\"seq\":7", "\"seq\":1");
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("invalid")
    void rejectsWithAReasonAPersonUnderstands(String line, String reason) {
        assertThatThrownBy(() -> parser.parse(line)).isInstanceOf(InvalidRecordException.class)
                .hasMessageContaining(reason);
    }
}
