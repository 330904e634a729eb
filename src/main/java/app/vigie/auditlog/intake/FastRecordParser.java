package app.vigie.auditlog.intake;

import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import app.vigie.auditlog.record.AuditRecord;
import app.vigie.auditlog.record.Body;
import app.vigie.auditlog.record.PageFingerprint;
import app.vigie.auditlog.record.PageRun;
import app.vigie.auditlog.record.RecordType;

/**
 * The fast way through {@link RecordParser}: reads a line in the plain form writers produce (one flat JSON object,
 * printable ASCII strings without escapes, non-negative integers, arrays of those) and returns its record only when
 * every rule of the strict parser holds. Anything else (a rule broken, an escape, a float, a null, a nested object,
 * a non-ASCII identifier) returns null, and the strict parser judges the line and words the reason. It never accepts
 * a line the strict parser rejects, nor builds a different record: {@code FastRecordParserTest} holds the two together
 * on valid and mutated lines. Stateless; each call allocates its own small scratch.
 */
final class FastRecordParser {
    private static final int MAX_FIELDS = 32;
    private static final int MAX_DEPTH = 8;
    private static final byte STR = 1;
    private static final byte INT = 2;
    private static final byte TRUE = 3;
    private static final byte FALSE = 4;
    private static final byte NULL = 5;
    private static final byte ARRAY = 6;

    private static final byte[][] TYPES = names(RecordType.values());
    private static final byte[][] VERDICTS = names(Body.Verdict.values());
    private static final byte[][] PURPOSES = names(Body.AllocPurpose.values());
    private static final byte[][] SOURCES = names(Body.WriteSource.values());
    private static final byte[][] FREE_REASONS = names(Body.FreeReason.values());
    private static final byte[][] STATUSES = names(Body.FinishStatus.values());

    private FastRecordParser() {
    }

    /** The record of a valid plain line, or null: then the strict parser decides. */
    static AuditRecord tryParse(byte[] buf, int offset, int length) {
        Scan s = new Scan(buf, offset, offset + length);
        return s.object() ? s.record() : null;
    }

    private static byte[][] names(Enum<?>[] values) {
        byte[][] out = new byte[values.length][];
        for (int i = 0; i < values.length; i++) {
            out[i] = values[i].name().getBytes(StandardCharsets.US_ASCII);
        }
        return out;
    }

    /** One pass over the line: the top-level fields, then typed reads of them. */
    private static final class Scan {
        final byte[] b;
        final int end;
        int p;
        int n;
        final int[] keyStart = new int[MAX_FIELDS];
        final int[] keyEnd = new int[MAX_FIELDS];
        final int[] valStart = new int[MAX_FIELDS];
        final int[] valEnd = new int[MAX_FIELDS];
        final long[] num = new long[MAX_FIELDS];
        final byte[] kind = new byte[MAX_FIELDS];
        long lastInt;
        int strStart;
        int strEnd;

        Scan(byte[] b, int start, int end) {
            this.b = b;
            this.p = start;
            this.end = end;
        }

        // ---- syntax: a flat object of simple values, everything else refused ----

        boolean object() {
            ws();
            if (p >= end || b[p] != '{') {
                return false;
            }
            p++;
            ws();
            if (p < end && b[p] == '}') {
                return false;
            }
            while (true) {
                if (n == MAX_FIELDS || !string()) {
                    return false;
                }
                int k = n;
                keyStart[k] = strStart;
                keyEnd[k] = strEnd;
                for (int j = 0; j < k; j++) {
                    if (same(keyStart[j], keyEnd[j], strStart, strEnd)) {
                        return false;
                    }
                }
                ws();
                if (p >= end || b[p] != ':') {
                    return false;
                }
                p++;
                ws();
                if (!value(k)) {
                    return false;
                }
                n++;
                ws();
                if (p >= end) {
                    return false;
                }
                if (b[p] == ',') {
                    p++;
                    ws();
                } else if (b[p] == '}') {
                    p++;
                    ws();
                    return p == end;
                } else {
                    return false;
                }
            }
        }

        private boolean value(int k) {
            if (p >= end) {
                return false;
            }
            byte c = b[p];
            valStart[k] = p;
            if (c == '"') {
                if (!string()) {
                    return false;
                }
                kind[k] = STR;
                valStart[k] = strStart;
                valEnd[k] = strEnd;
                return true;
            }
            if (c >= '0' && c <= '9') {
                if (!integer()) {
                    return false;
                }
                kind[k] = INT;
                num[k] = lastInt;
                return true;
            }
            if (c == '[') {
                if (!skipArray(1)) {
                    return false;
                }
                kind[k] = ARRAY;
                valEnd[k] = p;
                return true;
            }
            if (literal("true")) {
                kind[k] = TRUE;
                return true;
            }
            if (literal("false")) {
                kind[k] = FALSE;
                return true;
            }
            if (literal("null")) {
                kind[k] = NULL;
                return true;
            }
            return false;
        }

        private boolean skipArray(int depth) {
            if (depth > MAX_DEPTH) {
                return false;
            }
            p++;
            ws();
            if (p < end && b[p] == ']') {
                p++;
                return true;
            }
            while (true) {
                if (p >= end) {
                    return false;
                }
                byte c = b[p];
                boolean ok;
                if (c == '"') {
                    ok = string();
                } else if (c >= '0' && c <= '9') {
                    ok = integer();
                } else if (c == '[') {
                    ok = skipArray(depth + 1);
                } else {
                    ok = literal("true") || literal("false") || literal("null");
                }
                if (!ok) {
                    return false;
                }
                ws();
                if (p >= end) {
                    return false;
                }
                if (b[p] == ',') {
                    p++;
                    ws();
                } else if (b[p] == ']') {
                    p++;
                    return true;
                } else {
                    return false;
                }
            }
        }

        /** A string without escapes or control characters; its content is {@code [strStart, strEnd)}. */
        private boolean string() {
            if (p >= end || b[p] != '"') {
                return false;
            }
            int i = p + 1;
            while (i < end) {
                byte c = b[i];
                if (c == '"') {
                    strStart = p + 1;
                    strEnd = i;
                    p = i + 1;
                    return true;
                }
                if (c == '\\' || (c >= 0 && c < 0x20)) {
                    return false;
                }
                i++;
            }
            return false;
        }

        /** A non-negative integer of at most 18 digits, without a leading zero, fraction or exponent. */
        private boolean integer() {
            int start = p;
            long v = 0;
            while (p < end && b[p] >= '0' && b[p] <= '9') {
                v = v * 10 + (b[p] - '0');
                p++;
            }
            int digits = p - start;
            if (digits > 18 || (digits > 1 && b[start] == '0')) {
                return false;
            }
            if (p < end && (b[p] == '.' || b[p] == 'e' || b[p] == 'E')) {
                return false;
            }
            lastInt = v;
            return true;
        }

        private boolean literal(String word) {
            int len = word.length();
            if (end - p < len) {
                return false;
            }
            for (int i = 0; i < len; i++) {
                if (b[p + i] != word.charAt(i)) {
                    return false;
                }
            }
            p += len;
            return true;
        }

        private void ws() {
            while (p < end) {
                byte c = b[p];
                if (c != ' ' && c != '\t' && c != '\r' && c != '\n') {
                    return;
                }
                p++;
            }
        }

        private boolean same(int s1, int e1, int s2, int e2) {
            if (e1 - s1 != e2 - s2) {
                return false;
            }
            for (int i = 0; i < e1 - s1; i++) {
                if (b[s1 + i] != b[s2 + i]) {
                    return false;
                }
            }
            return true;
        }

        // ---- fields: the rules of RecordParser, each failure a null ----

        private int find(String name) {
            int len = name.length();
            for (int k = 0; k < n; k++) {
                if (keyEnd[k] - keyStart[k] == len && kind[k] != NULL) {
                    int s = keyStart[k];
                    boolean eq = true;
                    for (int i = 0; i < len; i++) {
                        if (b[s + i] != name.charAt(i)) {
                            eq = false;
                            break;
                        }
                    }
                    if (eq) {
                        return k;
                    }
                }
            }
            return -1;
        }

        /** The integer field {@code name} when present and within {@code [min, max]}, else -1. */
        private long integerField(String name, long min, long max) {
            int k = find(name);
            if (k < 0 || kind[k] != INT || num[k] < min || num[k] > max) {
                return -1;
            }
            return num[k];
        }

        private int intField(String name, int min) {
            return (int) integerField(name, min, Integer.MAX_VALUE);
        }

        /** 1 to {@code max} printable ASCII characters, or null. */
        private String identifier(String name, int max) {
            return text(name, 1, max);
        }

        private String text(String name, int min, int max) {
            int k = find(name);
            if (k < 0 || kind[k] != STR) {
                return null;
            }
            int s = valStart[k];
            int e = valEnd[k];
            if (e - s < min || e - s > max) {
                return null;
            }
            for (int i = s; i < e; i++) {
                if (b[i] < 0x20 || b[i] == 0x7f) {
                    return null;
                }
            }
            return new String(b, s, e - s, StandardCharsets.ISO_8859_1);
        }

        private int choice(String name, byte[][] names) {
            int k = find(name);
            if (k < 0 || kind[k] != STR) {
                return -1;
            }
            for (int i = 0; i < names.length; i++) {
                if (same(valStart[k], valEnd[k], names[i])) {
                    return i;
                }
            }
            return -1;
        }

        private boolean same(int s, int e, byte[] word) {
            if (e - s != word.length) {
                return false;
            }
            for (int i = 0; i < word.length; i++) {
                if (b[s + i] != word[i]) {
                    return false;
                }
            }
            return true;
        }

        /** 0 absent, 1 true, 2 false, -1 not a boolean. */
        private int bool(String name) {
            int k = find(name);
            if (k < 0) {
                return 0;
            }
            return kind[k] == TRUE ? 1 : kind[k] == FALSE ? 2 : -1;
        }

        AuditRecord record() {
            if (integerField("v", 1, 1) != 1) {
                return null;
            }
            int t = choice("type", TYPES);
            if (t < 0) {
                return null;
            }
            RecordType type = RecordType.values()[t];
            String stream = identifier("stream", RecordParser.MAX_STREAM);
            String boot = identifier("boot", RecordParser.MAX_BOOT);
            long seq = integerField("seq", 1, Long.MAX_VALUE);
            Instant ts = timestamp();
            String deployment = identifier("deployment", RecordParser.MAX_DEPLOYMENT);
            if (stream == null || boot == null || seq < 1 || ts == null || deployment == null
                    || (type == RecordType.CONFIG) != (seq == 1)) {
                return null;
            }
            Body body = body(type);
            return body == null ? null : new AuditRecord(stream, boot, seq, ts, deployment, body);
        }

        private Instant timestamp() {
            int k = find("ts");
            if (k < 0 || kind[k] != STR || valEnd[k] - valStart[k] != 24) {
                return null;
            }
            int s = valStart[k];
            if (b[s + 4] != '-' || b[s + 7] != '-' || b[s + 10] != 'T' || b[s + 13] != ':' || b[s + 16] != ':'
                    || b[s + 19] != '.' || b[s + 23] != 'Z') {
                return null;
            }
            int year = digits(s, 4);
            int month = digits(s + 5, 2);
            int day = digits(s + 8, 2);
            int hour = digits(s + 11, 2);
            int minute = digits(s + 14, 2);
            int second = digits(s + 17, 2);
            int milli = digits(s + 20, 3);
            if (year < 0 || month < 0 || day < 0 || hour < 0 || hour > 23 || minute < 0 || minute > 59
                    || second < 0 || second > 59 || milli < 0) {
                return null;
            }
            long epochDay;
            try {
                epochDay = LocalDate.of(year, month, day).toEpochDay();
            } catch (DateTimeException e) {
                return null;
            }
            return Instant.ofEpochSecond(epochDay * 86_400 + hour * 3600 + minute * 60 + second,
                    milli * 1_000_000L);
        }

        private int digits(int s, int count) {
            int v = 0;
            for (int i = s; i < s + count; i++) {
                byte c = b[i];
                if (c < '0' || c > '9') {
                    return -1;
                }
                v = v * 10 + (c - '0');
            }
            return v;
        }

        private Body body(RecordType type) {
            return switch (type) {
                case CONFIG -> config();
                case ADMIT -> admit();
                case ALLOC -> alloc();
                case WRITE -> write();
                case SHARE -> share();
                case ATTACH -> attach();
                case FREE -> free();
                case XFER_COMMIT -> xferCommit();
                case XFER_SEND -> xferSend();
                case XFER_DONE -> xferDone();
                case FINISH -> finish();
                case HEARTBEAT -> new Body.Heartbeat();
            };
        }

        private Body config() {
            if (find("extensions") >= 0) {
                return null;  // the strict way reads and words it (one CONFIG per boot)
            }
            int pageSize = intField("page_size", 1);
            int poolPages = intField("pool_pages", 1);
            int contextWindow = intField("context_window", 1);
            int maxInput = intField("max_input_tokens", 1);
            return pageSize < 0 || poolPages < 0 || contextWindow < 0 || maxInput < 0 ? null
                    : new Body.Config(pageSize, poolPages, contextWindow, maxInput);
        }

        private Body admit() {
            String request = identifier("request", RecordParser.MAX_ID);
            String tenant = identifier("tenant", RecordParser.MAX_ID);
            int input = intField("input_tokens", 0);
            int verdict = choice("verdict", VERDICTS);
            String reason = null;
            if (find("reason") >= 0) {
                reason = text("reason", 0, RecordParser.MAX_REASON);
                if (reason == null) {
                    return null;
                }
            }
            return request == null || tenant == null || input < 0 || verdict < 0 ? null
                    : new Body.Admit(request, tenant, input, Body.Verdict.values()[verdict], reason);
        }

        private Body alloc() {
            String request = identifier("request", RecordParser.MAX_ID);
            String tenant = identifier("tenant", RecordParser.MAX_ID);
            List<PageRun> pages = runs("pages");
            int purpose = choice("purpose", PURPOSES);
            Integer claimed = null;
            if (find("claimed_tokens") >= 0) {
                claimed = intField("claimed_tokens", 0);
                if (claimed < 0) {
                    return null;
                }
            }
            int restart = bool("restart");
            return request == null || tenant == null || pages == null || purpose < 0 || restart < 0 ? null
                    : new Body.Alloc(request, tenant, pages, Body.AllocPurpose.values()[purpose], claimed,
                            restart == 1);
        }

        private Body write() {
            String request = identifier("request", RecordParser.MAX_ID);
            String tenant = identifier("tenant", RecordParser.MAX_ID);
            int from = intField("from", 0);
            int tokens = intField("tokens", 1);
            int source = choice("source", SOURCES);
            if (request == null || tenant == null || from < 0 || tokens < 0 || source < 0
                    || (long) from + tokens > Integer.MAX_VALUE) {
                return null;
            }
            List<PageFingerprint> fp = null;
            int k = find("fp");
            if (k >= 0) {
                if (kind[k] != ARRAY) {
                    return null;
                }
                fp = new ArrayList<>();
                p = valStart[k] + 1;
                ws();
                if (b[p] != ']') {
                    while (true) {
                        if (!expect('[')) {
                            return null;
                        }
                        if (!nextInt(0, Integer.MAX_VALUE) || !expect(',')) {
                            return null;
                        }
                        String hex = nextHex();
                        if (hex == null || !expect(']')) {
                            return null;
                        }
                        fp.add(new PageFingerprint((int) lastInt, hex));
                        if (!expect(',')) {
                            break;
                        }
                    }
                }
            }
            int sent = bool("sent");
            if (sent < 0 || sent == 1 && Body.WriteSource.values()[source] != Body.WriteSource.TRANSFER) {
                return null;
            }
            String transfer = null;
            if (find("transfer") >= 0) {
                transfer = identifier("transfer", RecordParser.MAX_ID);
                if (transfer == null || sent != 1) {
                    return null;
                }
            }
            return new Body.Write(request, tenant, from, tokens, Body.WriteSource.values()[source], fp, sent == 1,
                    transfer);
        }

        private Body share() {
            String request = identifier("request", RecordParser.MAX_ID);
            String tenant = identifier("tenant", RecordParser.MAX_ID);
            List<PageRun> pages = runs("pages");
            if (request == null || tenant == null || pages == null) {
                return null;
            }
            List<String> fp = null;
            int k = find("fp");
            if (k >= 0) {
                if (kind[k] != ARRAY) {
                    return null;
                }
                long shared = 0;
                for (PageRun r : pages) {
                    shared += r.count();
                }
                fp = new ArrayList<>();
                p = valStart[k] + 1;
                ws();
                if (b[p] != ']') {
                    while (true) {
                        String hex = nextHex();
                        if (hex == null) {
                            return null;
                        }
                        fp.add(hex);
                        if (!expect(',')) {
                            break;
                        }
                    }
                }
                if (fp.size() != shared) {
                    return null;
                }
            }
            int restart = bool("restart");
            return restart < 0 ? null : new Body.Share(request, tenant, pages, fp, restart == 1);
        }

        private Body attach() {
            String request = identifier("request", RecordParser.MAX_ID);
            String tenant = identifier("tenant", RecordParser.MAX_ID);
            int tokens = intField("tokens", 0);
            return request == null || tenant == null || tokens < 0 ? null : new Body.Attach(request, tenant, tokens);
        }

        private Body free() {
            String request = identifier("request", RecordParser.MAX_ID);
            List<PageRun> pages = runs("pages");
            int reason = choice("reason", FREE_REASONS);
            return request == null || pages == null || reason < 0 ? null
                    : new Body.Free(request, pages, Body.FreeReason.values()[reason]);
        }

        private Body xferCommit() {
            String request = identifier("request", RecordParser.MAX_ID);
            String tenant = identifier("tenant", RecordParser.MAX_ID);
            int claimed = intField("claimed_tokens", 0);
            int covered = intField("covered_tokens", 0);
            int checksum = bool("checksum_ok");
            if (request == null || tenant == null || claimed < 0 || covered < 0 || covered > claimed
                    || checksum < 0) {
                return null;
            }
            return new Body.XferCommit(request, tenant, claimed, covered,
                    checksum == 0 ? null : Boolean.valueOf(checksum == 1));
        }

        private Body xferSend() {
            String request = identifier("request", RecordParser.MAX_ID);
            String tenant = identifier("tenant", RecordParser.MAX_ID);
            int from = intField("from", 0);
            int tokens = intField("tokens", 1);
            boolean hasTransfer = find("transfer") >= 0;
            String transfer = hasTransfer ? identifier("transfer", RecordParser.MAX_ID) : null;
            return request == null || tenant == null || from < 0 || tokens < 0 || (long) from + tokens > Integer.MAX_VALUE
                    || hasTransfer && transfer == null ? null : new Body.XferSend(request, tenant, from, tokens, transfer);
        }

        private Body xferDone() {
            String request = identifier("request", RecordParser.MAX_ID);
            String tenant = identifier("tenant", RecordParser.MAX_ID);
            String transfer = identifier("transfer", RecordParser.MAX_ID);
            return request == null || tenant == null || transfer == null ? null
                    : new Body.XferDone(request, tenant, transfer);
        }

        private Body finish() {
            String request = identifier("request", RecordParser.MAX_ID);
            String tenant = identifier("tenant", RecordParser.MAX_ID);
            int status = choice("status", STATUSES);
            long http = integerField("http_status", 100, 599);
            int output = intField("output_tokens", 0);
            int delivered = bool("delivered");
            return request == null || tenant == null || status < 0 || http < 0 || output < 0 || delivered <= 0
                    ? null
                    : new Body.Finish(request, tenant, Body.FinishStatus.values()[status], (int) http, output,
                            delivered == 1);
        }

        /** A non-empty array of page runs [first_page >= 0, count >= 1], or null. */
        private List<PageRun> runs(String name) {
            int k = find(name);
            if (k < 0 || kind[k] != ARRAY) {
                return null;
            }
            p = valStart[k] + 1;
            ws();
            if (b[p] == ']') {
                return null;
            }
            List<PageRun> runs = new ArrayList<>(2);
            while (true) {
                if (!expect('[') || !nextInt(0, Integer.MAX_VALUE)) {
                    return null;
                }
                int first = (int) lastInt;
                if (!expect(',') || !nextInt(1, Integer.MAX_VALUE) || !expect(']')) {
                    return null;
                }
                runs.add(new PageRun(first, (int) lastInt));
                if (!expect(',')) {
                    return runs;
                }
            }
        }

        // Inside an array the syntax was checked by skipArray: this only checks the shape.

        /** Past {@code c} (and the blanks around it) when it comes next; false, and nowhere, otherwise. */
        private boolean expect(char c) {
            ws();
            if (b[p] != c) {
                return false;
            }
            p++;
            ws();
            return true;
        }

        private boolean nextInt(long min, long max) {
            if (b[p] < '0' || b[p] > '9' || !integer()) {
                return false;
            }
            return lastInt >= min && lastInt <= max;
        }

        /** 1 to 128 hex digits, lower-cased, or null. */
        private String nextHex() {
            if (b[p] != '"' || !string()) {
                return null;
            }
            int len = strEnd - strStart;
            if (len < 1 || len > RecordParser.MAX_HEX) {
                return null;
            }
            byte[] out = null;
            for (int i = 0; i < len; i++) {
                byte c = b[strStart + i];
                if (c >= 'A' && c <= 'F') {
                    if (out == null) {
                        out = Arrays.copyOfRange(b, strStart, strEnd);
                    }
                    out[i] = (byte) (c + ('a' - 'A'));
                } else if (!(c >= '0' && c <= '9') && !(c >= 'a' && c <= 'f')) {
                    return null;
                }
            }
            return out != null ? new String(out, StandardCharsets.ISO_8859_1)
                    : new String(b, strStart, len, StandardCharsets.ISO_8859_1);
        }
    }
}
