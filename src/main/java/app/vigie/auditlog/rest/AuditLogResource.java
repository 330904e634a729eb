package app.vigie.auditlog.rest;

import java.io.IOException;
import java.io.InputStream;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
import app.vigie.auditlog.intake.IngestResult;
import app.vigie.auditlog.intake.IngestScope;
import app.vigie.auditlog.intake.IngestScopes;
import app.vigie.auditlog.intake.LineOutcome;
import app.vigie.auditlog.intake.Source;
import app.vigie.auditlog.record.AuditRecord;
import app.vigie.auditlog.store.RecordStore.StreamKey;
import app.vigie.detection.core.DetectorLimits;
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

    @Inject
    IntakeBuffers buffers;

    @Inject
    IngestScopes scopes;

    @POST
    @Consumes({NDJSON, "application/jsonl"})
    @Produces(MediaType.APPLICATION_JSON)
    @RolesAllowed(Role.R_INGEST)
    public IngestAnswer post(InputStream body, @HeaderParam("Content-Length") Long contentLength,
            @HeaderParam("Vigie-Source") String source, @HeaderParam("Vigie-Source-Name") String sourceName,
            @HeaderParam("Vigie-Source-Line") Long sourceLine, @Context SecurityContext who)
            throws IOException, SQLException {
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
        // a request holds one window of its body at a time, taken from what the intake may hold together
        long window = contentLength != null ? Math.min(config.windowBytes(), Math.max(3, contentLength + 1))
                : config.windowBytes();
        if (!buffers.take(window)) {
            throw new ProblemException(503, "the intake holds as many bodies as it may ("
                    + (config.maxBufferedBytes() >> 20) + " MiB, vigie.ingest.max-buffered-bytes); retry shortly",
                    1);
        }
        try {
            // read for each request: a new scope takes effect at once
            IngestScope scope = CallerScope.of(scopes, who, false).orElse(null);
            String account = who.getUserPrincipal().getName();
            String batchId = UUID.randomUUID().toString();
            long first = sourceLine == null ? 1 : sourceLine;
            Answer answer = new Answer();
            StreamedBody streamed = new StreamedBody(body, (int) window, max, file ? Source.FILE : Source.HTTP,
                    file ? sourceName : batchId, first, !file).deadline(config.bodyDeadline());
            try {
                streamed.read((lines, blank) -> answer.add(ingest.ingest(lines, blank, scope, account)));
            } catch (DetectorLimits.NoRoomNow busy) {
                long taken = streamed.linesTaken();
                throw new ProblemException(503, busy.getMessage() + (taken == 0 ? "; nothing of this batch was accepted"
                        : "; lines " + first + " to " + (first + taken - 1) + " were taken before ("
                                + answer.summary() + "), nothing from line " + (first + taken) + " on"), 5);
            } catch (StreamedBody.Stopped stopped) {
                String detail = stopped.getMessage() + (stopped.linesTaken == 0 ? "; nothing of this batch was accepted"
                        : "; lines " + first + " to " + (first + stopped.linesTaken - 1) + " were taken before ("
                                + answer.summary() + "), nothing from line " + (first + stopped.linesTaken)
                                + " on: send those again (lines already taken come back as duplicates)");
                throw new ProblemException(stopped.tooLarge ? 413 : stopped.tooSlow ? 408 : 400, detail);
            }
            if (answer.windows > 1) {
                answer.pending = ingest.stillPending(answer.held);
            }
            return answer.of(batchId);
        } finally {
            buffers.giveBack(window);
        }
    }

    /** The outcomes of a body's windows, added up; the rejected lines listed up to {@link #LISTED}. */
    private static final class Answer {
        long accepted;
        long duplicates;
        long pending;
        long rejectedCount;
        int blank;
        int windows;
        final List<IngestAnswer.Rejected> rejected = new ArrayList<>();
        /** The seqs held back so far, per (stream, boot): a later window may apply them. */
        final Map<StreamKey, List<Long>> held = new HashMap<>();

        void add(IngestResult r) {
            windows++;
            accepted += r.accepted();
            duplicates += r.count(LineOutcome.Status.DUPLICATE);
            blank += r.blank();
            for (LineOutcome o : r.outcomes()) {
                if (o.status() == LineOutcome.Status.PENDING) {
                    AuditRecord record = o.record();
                    held.computeIfAbsent(new StreamKey(record.stream(), record.boot()), k -> new ArrayList<>())
                            .add(record.seq());
                    pending++;
                }
            }
            for (LineOutcome o : r.rejected()) {
                rejectedCount++;
                if (rejected.size() < LISTED) {
                    rejected.add(new IngestAnswer.Rejected(o.line().position(), o.reason()));
                }
            }
        }

        String summary() {
            return accepted + " accepted, " + duplicates + " duplicates, " + pending + " pending, " + rejectedCount
                    + " rejected and kept in the quarantine";
        }

        IngestAnswer of(String batchId) {
            return new IngestAnswer(accepted, duplicates, pending, rejected, batchId, blank, rejectedCount);
        }
    }

    /** Rejected lines an answer lists, at most; every one is kept in the quarantine, and counted. */
    static final int LISTED = 10_000;

    @POST
    @Path("flush")
    @Produces(MediaType.APPLICATION_JSON)
    @RolesAllowed({Role.R_INGEST, Role.R_DPO, Role.R_ANALYST})
    public GapService.Flushed flush(@Context SecurityContext who) throws SQLException {
        try {
            // an ingest account bound to its streams flushes those only
            return gaps.flush(who.getUserPrincipal().getName(), CallerScope.of(scopes, who, true).orElse(null));
        } catch (DetectorLimits.NoRoomNow busy) {
            throw new ProblemException(503, busy.getMessage(), 5);
        }
    }

    static ProblemException tooLarge(long max) {
        return new ProblemException(413, "the body is larger than the limit of " + max
                + " bytes (vigie.ingest.max-body-bytes); send smaller batches");
    }
}
