package app.vigie.auditlog.rest;

import java.io.IOException;
import java.io.InputStream;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.UUID;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.SecurityContext;

import app.vigie.auditlog.GapService;
import app.vigie.auditlog.IngestConfig;
import app.vigie.auditlog.IngestService;
import app.vigie.auditlog.intake.LineSplitter;
import app.vigie.auditlog.intake.Source;
import app.vigie.auditlog.intake.Utf8;
import app.vigie.problem.ProblemException;
import app.vigie.security.Role;

/**
 * {@code POST /api/audit-log}: a batch of page audit records as NDJSON. The replay command marks its batches with
 * {@code Vigie-Source: file}, {@code Vigie-Source-Name} and {@code Vigie-Source-Line} so that rejected lines are kept
 * with their file and line, and a line that is not UTF-8 is rejected alone instead of failing the batch.
 */
@Path("/api/audit-log")
public class AuditLogResource {
    public static final String NDJSON = "application/x-ndjson";

    @Inject
    IngestService ingest;

    @Inject
    GapService gaps;

    @Inject
    IngestConfig config;

    @POST
    @Consumes({NDJSON, "application/jsonl"})
    @Produces(MediaType.APPLICATION_JSON)
    @RolesAllowed(Role.R_INGEST)
    public IngestAnswer post(InputStream body, @HeaderParam("Content-Length") Long contentLength,
            @HeaderParam("Vigie-Source") String source, @HeaderParam("Vigie-Source-Name") String sourceName,
            @HeaderParam("Vigie-Source-Line") Long sourceLine) throws IOException, SQLException {
        long max = config.maxBodyBytes();
        if (contentLength != null && contentLength > max) {
            throw tooLarge(max);
        }
        boolean file = source != null && !source.isBlank();
        if (file && !"file".equals(source)) {
            throw new ProblemException(400, "header Vigie-Source must be 'file' when present, got '" + source + "'");
        }
        if (file && (sourceName == null || sourceName.isBlank() || sourceName.length() > 1000)) {
            throw new ProblemException(400, "a file batch needs header Vigie-Source-Name (1 to 1000 characters)");
        }
        if (sourceLine != null && sourceLine < 1) {
            throw new ProblemException(400, "header Vigie-Source-Line must be >= 1");
        }
        byte[] buf = new byte[(int) Math.min(max + 1, contentLength != null ? contentLength + 1 : 1 << 16)];
        int length = 0;
        while (true) {
            if (length == buf.length) {
                if (length > max) {
                    throw tooLarge(max);
                }
                buf = Arrays.copyOf(buf, (int) Math.min(max + 1, (long) buf.length * 2));
            }
            int n = body.read(buf, length, buf.length - length);
            if (n < 0) {
                break;
            }
            length += n;
        }
        if (length > max) {
            throw tooLarge(max);
        }
        if (!file) {
            checkUtf8(buf, length);
        }
        String batchId = UUID.randomUUID().toString();
        LineSplitter.Split split = LineSplitter.split(buf, length, file ? Source.FILE : Source.HTTP,
                file ? sourceName : batchId, sourceLine == null ? 1 : sourceLine, !file);
        return IngestAnswer.of(ingest.ingest(split.lines(), split.blank()), batchId);
    }

    @POST
    @Path("flush")
    @Produces(MediaType.APPLICATION_JSON)
    @RolesAllowed({Role.R_INGEST, Role.R_DPO, Role.R_ANALYST})
    public GapService.Flushed flush(@Context SecurityContext who) throws SQLException {
        return gaps.flush(who.getUserPrincipal().getName());
    }

    private static ProblemException tooLarge(long max) {
        return new ProblemException(413, "the body is larger than the limit of " + max
                + " bytes (vigie.ingest.max-body-bytes); send smaller batches");
    }

    private static void checkUtf8(byte[] buf, int length) {
        int bad = Utf8.firstInvalid(buf, 0, length);
        if (bad >= 0) {
            int line = 1;
            for (int i = 0; i < bad; i++) {
                if (buf[i] == '\n') {
                    line++;
                }
            }
            throw new ProblemException(400, "the body is not valid UTF-8: malformed byte 0x"
                    + String.format("%02x", buf[bad] & 0xff) + " at byte offset " + bad + " (line " + line
                    + "); nothing of this batch was accepted");
        }
    }
}
