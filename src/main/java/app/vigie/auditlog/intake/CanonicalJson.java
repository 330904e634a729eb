package app.vigie.auditlog.intake;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;

import app.vigie.auditlog.record.AuditRecord;
import app.vigie.auditlog.record.Body;
import app.vigie.auditlog.record.PageFingerprint;
import app.vigie.auditlog.record.PageRun;

/**
 * The canonical text of a record: its known fields in the spec's order, without unknown fields or white space. Two
 * deliveries of one key are the same record exactly when their canonical texts are equal; it is also what is stored.
 */
public final class CanonicalJson {
    private static final JsonFactory FACTORY = new JsonFactory();
    private static final DateTimeFormatter TS = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'")
            .withZone(ZoneOffset.UTC);

    private CanonicalJson() {
    }

    public static String of(AuditRecord r) {
        StringWriter out = new StringWriter(192);
        try (JsonGenerator g = FACTORY.createGenerator(out)) {
            g.writeStartObject();
            g.writeNumberField("v", 1);
            g.writeStringField("stream", r.stream());
            g.writeStringField("boot", r.boot());
            g.writeNumberField("seq", r.seq());
            g.writeStringField("ts", TS.format(r.ts()));
            g.writeStringField("deployment", r.deployment());
            g.writeStringField("type", r.type().name());
            body(g, r.body());
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    private static void body(JsonGenerator g, Body body) throws IOException {
        if (body instanceof Body.Config c) {
            g.writeNumberField("page_size", c.pageSize());
            g.writeNumberField("pool_pages", c.poolPages());
            g.writeNumberField("context_window", c.contextWindow());
            g.writeNumberField("max_input_tokens", c.maxInputTokens());
            if (!c.extensions().isEmpty()) {
                g.writeArrayFieldStart("extensions");
                for (String e : c.extensions()) {
                    g.writeString(e);
                }
                g.writeEndArray();
            }
        } else if (body instanceof Body.Admit a) {
            request(g, a.request(), a.tenant());
            g.writeNumberField("input_tokens", a.inputTokens());
            g.writeStringField("verdict", a.verdict().name());
            if (a.reason() != null) {
                g.writeStringField("reason", a.reason());
            }
        } else if (body instanceof Body.Alloc a) {
            request(g, a.request(), a.tenant());
            runs(g, a.pages());
            g.writeStringField("purpose", a.purpose().name());
            if (a.claimedTokens() != null) {
                g.writeNumberField("claimed_tokens", a.claimedTokens());
            }
            if (a.restart()) {
                g.writeBooleanField("restart", true);
            }
        } else if (body instanceof Body.Write w) {
            request(g, w.request(), w.tenant());
            g.writeNumberField("from", w.from());
            g.writeNumberField("tokens", w.tokens());
            g.writeStringField("source", w.source().name());
            if (w.sent()) {
                g.writeBooleanField("sent", true);
            }
            if (w.transfer() != null) {
                g.writeStringField("transfer", w.transfer());
            }
            if (w.fp() != null) {
                g.writeArrayFieldStart("fp");
                for (PageFingerprint fp : w.fp()) {
                    g.writeStartArray();
                    g.writeNumber(fp.logicalPage());
                    g.writeString(fp.hex());
                    g.writeEndArray();
                }
                g.writeEndArray();
            }
        } else if (body instanceof Body.Share s) {
            request(g, s.request(), s.tenant());
            runs(g, s.pages());
            if (s.restart()) {
                g.writeBooleanField("restart", true);
            }
            if (s.fp() != null) {
                g.writeArrayFieldStart("fp");
                for (String hex : s.fp()) {
                    g.writeString(hex);
                }
                g.writeEndArray();
            }
        } else if (body instanceof Body.Attach a) {
            request(g, a.request(), a.tenant());
            g.writeNumberField("tokens", a.tokens());
        } else if (body instanceof Body.Free f) {
            g.writeStringField("request", f.request());
            runs(g, f.pages());
            g.writeStringField("reason", f.reason().name());
        } else if (body instanceof Body.XferCommit x) {
            request(g, x.request(), x.tenant());
            g.writeNumberField("claimed_tokens", x.claimedTokens());
            g.writeNumberField("covered_tokens", x.coveredTokens());
            if (x.checksumOk() != null) {
                g.writeBooleanField("checksum_ok", x.checksumOk());
            }
        } else if (body instanceof Body.XferSend x) {
            request(g, x.request(), x.tenant());
            g.writeNumberField("from", x.from());
            g.writeNumberField("tokens", x.tokens());
            if (x.transfer() != null) {
                g.writeStringField("transfer", x.transfer());
            }
        } else if (body instanceof Body.XferDone x) {
            request(g, x.request(), x.tenant());
            g.writeStringField("transfer", x.transfer());
        } else if (body instanceof Body.Finish f) {
            request(g, f.request(), f.tenant());
            g.writeStringField("status", f.status().name());
            g.writeNumberField("http_status", f.httpStatus());
            g.writeNumberField("output_tokens", f.outputTokens());
            g.writeBooleanField("delivered", f.delivered());
        }
        // HEARTBEAT has no fields beyond the envelope
    }

    private static void request(JsonGenerator g, String request, String tenant) throws IOException {
        g.writeStringField("request", request);
        g.writeStringField("tenant", tenant);
    }

    private static void runs(JsonGenerator g, List<PageRun> runs) throws IOException {
        g.writeArrayFieldStart("pages");
        for (PageRun r : runs) {
            g.writeStartArray();
            g.writeNumber(r.first());
            g.writeNumber(r.count());
            g.writeEndArray();
        }
        g.writeEndArray();
    }
}
