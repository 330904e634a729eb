package app.vigie.auditlog.intake;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.ObjectNode;

import app.vigie.auditlog.record.AuditRecord;
import app.vigie.auditlog.record.Body;
import app.vigie.auditlog.record.PageFingerprint;
import app.vigie.auditlog.record.PageRun;
import app.vigie.auditlog.record.RecordType;

/**
 * Parses and strictly validates one line of the page audit log v1 (Encoding, Envelope and Record types of the spec).
 * Unknown fields are ignored. Thread-safe.
 */
public final class RecordParser {
    /** The longest line the spec allows: 1 MiB. */
    public static final int MAX_LINE_BYTES = 1 << 20;
    static final int MAX_STREAM = 200;
    static final int MAX_BOOT = 100;
    static final int MAX_DEPLOYMENT = 200;
    /** Vigie's own bounds where the spec sets none (docs/page-audit-log.md, "Bounds Vigie adds"). */
    static final int MAX_ID = 256;
    static final int MAX_REASON = 1000;
    static final int MAX_HEX = 128;
    /** Extensions a CONFIG may declare, and the characters of each name. */
    static final int MAX_EXTENSIONS = 16;
    static final int MAX_EXTENSION = 64;

    private static final Pattern TS = Pattern.compile("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z");
    private static final Pattern HEX = Pattern.compile("[0-9a-fA-F]+");

    private final ObjectReader reader;

    public RecordParser() {
        JsonFactory factory = JsonFactory.builder()
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(64).build())
                .build();
        this.reader = new ObjectMapper(factory).reader()
                .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .forType(JsonNode.class);
    }

    /**
     * Parses a line already known to be UTF-8 and at most {@link #MAX_LINE_BYTES} long: the plain lines writers
     * produce take the fast way, every other line the strict one that words the reason.
     */
    public AuditRecord parse(byte[] buf, int offset, int length) throws InvalidRecordException {
        AuditRecord fast = FastRecordParser.tryParse(buf, offset, length);
        return fast != null ? fast : parseStrict(buf, offset, length);
    }

    /** The strict way alone: a Jackson tree, then each field by name. */
    AuditRecord parseStrict(byte[] buf, int offset, int length) throws InvalidRecordException {
        JsonNode tree;
        try {
            tree = reader.readValue(buf, offset, length);
        } catch (JsonParseException e) {
            throw new InvalidRecordException("not valid JSON: " + e.getOriginalMessage()
                    + " at column " + e.getLocation().getColumnNr());
        } catch (IOException e) {
            throw new InvalidRecordException("not valid JSON: " + firstLine(e.getMessage()));
        }
        if (tree == null || tree.isMissingNode()) {
            throw new InvalidRecordException("empty line is not a record");
        }
        if (!tree.isObject()) {
            throw new InvalidRecordException("a record must be a JSON object, got " + Fields.describe(tree));
        }
        return record(new Fields((ObjectNode) tree));
    }

    public AuditRecord parse(String line) throws InvalidRecordException {
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        return parse(bytes, 0, bytes.length);
    }

    private AuditRecord record(Fields f) throws InvalidRecordException {
        long v = f.integer("v", f.required("v"), Long.MIN_VALUE, Long.MAX_VALUE);
        if (v != 1) {
            throw f.invalid("field 'v' must be 1 (this is page audit log version 1), got " + v);
        }
        RecordType type = f.enumValue("type", RecordType.class);
        f.type(type.name());
        String stream = f.identifier("stream", MAX_STREAM);
        String boot = f.identifier("boot", MAX_BOOT);
        long seq = f.longValue("seq", 1, Long.MAX_VALUE);
        Instant ts = timestamp(f);
        String deployment = f.identifier("deployment", MAX_DEPLOYMENT);
        if (type == RecordType.CONFIG && seq != 1) {
            throw f.invalid("a CONFIG record must have seq 1 (it starts a boot), got seq " + seq);
        }
        if (type != RecordType.CONFIG && seq == 1) {
            throw f.invalid("seq 1 of a boot must be its CONFIG record");
        }
        return new AuditRecord(stream, boot, seq, ts, deployment, body(type, f));
    }

    private static Instant timestamp(Fields f) throws InvalidRecordException {
        String s = f.string("ts");
        if (!TS.matcher(s).matches()) {
            throw f.invalid("field 'ts' must be an RFC 3339 UTC timestamp with milliseconds such as "
                    + "2026-08-27T10:15:03.123Z, got '" + Fields.abbreviate(s) + "'");
        }
        try {
            return Instant.parse(s);
        } catch (DateTimeException e) {
            throw f.invalid("field 'ts' is not a real date and time: '" + s + "'");
        }
    }

    private Body body(RecordType type, Fields f) throws InvalidRecordException {
        return switch (type) {
            case CONFIG -> new Body.Config(f.intValue("page_size", 1), f.intValue("pool_pages", 1),
                    f.intValue("context_window", 1), f.intValue("max_input_tokens", 1),
                    f.optionalStringArray("extensions", MAX_EXTENSIONS, MAX_EXTENSION));
            case ADMIT -> new Body.Admit(request(f), tenant(f), f.intValue("input_tokens", 0),
                    f.enumValue("verdict", Body.Verdict.class), f.optionalText("reason", MAX_REASON));
            case ALLOC -> new Body.Alloc(request(f), tenant(f), runs(f, "pages"),
                    f.enumValue("purpose", Body.AllocPurpose.class), f.optionalInt("claimed_tokens", 0),
                    Boolean.TRUE.equals(f.optionalBool("restart")));
            case WRITE -> write(f);
            case SHARE -> share(f);
            case ATTACH -> new Body.Attach(request(f), tenant(f), f.intValue("tokens", 0));
            case FREE -> new Body.Free(request(f), runs(f, "pages"), f.enumValue("reason", Body.FreeReason.class));
            case XFER_COMMIT -> xferCommit(f);
            case XFER_SEND -> new Body.XferSend(request(f), tenant(f), f.intValue("from", 0), positive(f, "tokens"),
                    transfer(f));
            case XFER_DONE -> new Body.XferDone(request(f), tenant(f), f.identifier("transfer", MAX_ID));
            case FINISH -> new Body.Finish(request(f), tenant(f), f.enumValue("status", Body.FinishStatus.class),
                    (int) f.longValue("http_status", 100, 599), f.intValue("output_tokens", 0), f.bool("delivered"));
            case HEARTBEAT -> new Body.Heartbeat();
        };
    }

    private static String request(Fields f) throws InvalidRecordException {
        return f.identifier("request", MAX_ID);
    }

    private static String tenant(Fields f) throws InvalidRecordException {
        return f.identifier("tenant", MAX_ID);
    }

    /** Spec 1.3, amendment 2: the transfer's id, optional at intake (required under xfer-send: the detector checks). */
    private static String transfer(Fields f) throws InvalidRecordException {
        return f.has("transfer") ? f.identifier("transfer", MAX_ID) : null;
    }

    private Body.Write write(Fields f) throws InvalidRecordException {
        String request = request(f);
        String tenant = tenant(f);
        int from = f.intValue("from", 0);
        int tokens = f.intValue("tokens", 1);
        if ((long) from + tokens > Integer.MAX_VALUE) {
            throw f.invalid("positions from + tokens must stay below " + Integer.MAX_VALUE);
        }
        Body.WriteSource source = f.enumValue("source", Body.WriteSource.class);
        List<PageFingerprint> fp = null;
        if (f.has("fp")) {
            JsonNode array = f.array("fp");
            fp = new ArrayList<>(array.size());
            for (int i = 0; i < array.size(); i++) {
                JsonNode pair = array.get(i);
                String where = "fp[" + i + "]";
                if (!pair.isArray() || pair.size() != 2) {
                    throw f.invalid("field '" + where + "' must be a pair [logical_page, hex], got "
                            + Fields.describe(pair));
                }
                int page = (int) f.integer(where + "[0]", pair.get(0), 0, Integer.MAX_VALUE);
                fp.add(new PageFingerprint(page, hex(f, where + "[1]", pair.get(1))));
            }
        }
        boolean sent = Boolean.TRUE.equals(f.optionalBool("sent"));
        if (sent && source != Body.WriteSource.TRANSFER) {
            throw f.invalid("field 'sent' applies to writes with source TRANSFER only");
        }
        String transfer = transfer(f);
        if (transfer != null && !sent) {
            throw f.invalid("field 'transfer' applies to writes with sent: true only");
        }
        return new Body.Write(request, tenant, from, tokens, source, fp, sent, transfer);
    }

    private Body.Share share(Fields f) throws InvalidRecordException {
        String request = request(f);
        String tenant = tenant(f);
        List<PageRun> pages = runs(f, "pages");
        List<String> fp = null;
        if (f.has("fp")) {
            JsonNode array = f.array("fp");
            long shared = pages.stream().mapToLong(PageRun::count).sum();
            if (array.size() != shared) {
                throw f.invalid("field 'fp' must have one fingerprint per shared page (" + shared + "), got "
                        + array.size());
            }
            fp = new ArrayList<>(array.size());
            for (int i = 0; i < array.size(); i++) {
                fp.add(hex(f, "fp[" + i + "]", array.get(i)));
            }
        }
        return new Body.Share(request, tenant, pages, fp, Boolean.TRUE.equals(f.optionalBool("restart")));
    }

    private static int positive(Fields f, String name) throws InvalidRecordException {
        int from = f.intValue("from", 0);
        int tokens = f.intValue(name, 1);
        if ((long) from + tokens > Integer.MAX_VALUE) {
            throw f.invalid("positions from + tokens must stay below " + Integer.MAX_VALUE);
        }
        return tokens;
    }

    private static Body.XferCommit xferCommit(Fields f) throws InvalidRecordException {
        String request = request(f);
        String tenant = tenant(f);
        int claimed = f.intValue("claimed_tokens", 0);
        int covered = f.intValue("covered_tokens", 0);
        if (covered > claimed) {
            throw f.invalid("field 'covered_tokens' (" + covered + ") cannot exceed 'claimed_tokens' (" + claimed
                    + "): a transfer covers part of what is claimed");
        }
        return new Body.XferCommit(request, tenant, claimed, covered, f.optionalBool("checksum_ok"));
    }

    private static String hex(Fields f, String name, JsonNode v) throws InvalidRecordException {
        if (!v.isTextual()) {
            throw f.invalid("field '" + name + "' must be a hex string, got " + Fields.describe(v));
        }
        String s = v.textValue();
        if (s.isEmpty() || s.length() > MAX_HEX || !HEX.matcher(s).matches()) {
            throw f.invalid("field '" + name + "' must be 1 to " + MAX_HEX + " hex digits, got '"
                    + Fields.abbreviate(s) + "'");
        }
        return s.toLowerCase(Locale.ROOT);
    }

    private static List<PageRun> runs(Fields f, String name) throws InvalidRecordException {
        JsonNode array = f.array(name);
        if (array.isEmpty()) {
            throw f.invalid("field '" + name + "' must list at least one page run [first_page, count]");
        }
        List<PageRun> runs = new ArrayList<>(array.size());
        for (int i = 0; i < array.size(); i++) {
            JsonNode run = array.get(i);
            String where = name + "[" + i + "]";
            if (!run.isArray() || run.size() != 2) {
                throw f.invalid("field '" + where + "' must be a page run [first_page, count], got "
                        + Fields.describe(run));
            }
            int first = (int) f.integer(where + "[0]", run.get(0), 0, Integer.MAX_VALUE);
            int count = (int) f.integer(where + "[1]", run.get(1), 1, Integer.MAX_VALUE);
            runs.add(new PageRun(first, count));
        }
        return runs;
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "unreadable input";
        }
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }

}
