package app.vigie.runtime.log;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.function.Consumer;

/**
 * Emits the page audit log v1 of one stream (one scheduler owning one KV pool) as NDJSON lines,
 * numbering records with a gap-free {@code seq} from 1 within the current boot. Not thread-safe: one thread writes
 * (the engine's, or its {@link Emitter}'s).
 */
public final class AuditLogWriter {
    private static final DateTimeFormatter TS = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'")
            .withZone(ZoneOffset.UTC);

    /** The extensions of spec 1.3 this writer uses: its CONFIG declares them unless told otherwise. */
    public static final List<String> EXTENSIONS = List.of("restart", "xfer-send");

    private final String stream;
    private final Consumer<String> sink;
    /** What every record of the boot starts with, up to the value of {@code seq}. */
    private String head;
    /** What follows the timestamp in every record, up to the value of {@code type}. */
    private final String deploymentPart;
    /** The record being written, reused. */
    private final StringBuilder b = new StringBuilder(1024);
    private long seq;
    private long lastMillis = Long.MIN_VALUE;
    private String lastTimestamp;
    private long lastDay = Long.MIN_VALUE;
    private String lastDate;

    /** @param sink receives each line, without its trailing newline */
    public AuditLogWriter(String stream, String deployment, String boot, Consumer<String> sink) {
        this.stream = stream;
        this.sink = sink;
        StringBuilder d = new StringBuilder("\",\"deployment\":");
        Json.string(d, deployment);
        this.deploymentPart = d.append(",\"type\":\"").toString();
        reboot(boot);
    }

    /** Writes to an {@link Appendable}, one record per line. */
    public static Consumer<String> lines(Appendable out) {
        return line -> {
            try {
                out.append(line).append('\n');
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
    }

    public String stream() {
        return stream;
    }

    public long lastSeq() {
        return seq;
    }

    /** A new engine start: a new boot id, numbering restarts at 1 (the next record must be CONFIG). */
    public void reboot(String newBoot) {
        this.seq = 0;
        StringBuilder h = new StringBuilder("{\"v\":1,\"stream\":");
        Json.string(h, stream);
        h.append(",\"boot\":");
        Json.string(h, newBoot);
        this.head = h.append(",\"seq\":").toString();
    }

    /** A CONFIG declaring {@link #EXTENSIONS}: this writer may use all of them. */
    public void config(Instant ts, int pageSize, int poolPages, int contextWindow, int maxInputTokens) {
        config(ts, pageSize, poolPages, contextWindow, maxInputTokens, EXTENSIONS);
    }

    /**
     * @param extensions spec 1.3: what the boot's records may use ({@code restart}, {@code xfer-send}); none: a
     *     version 1.0 log
     */
    public void config(Instant ts, int pageSize, int poolPages, int contextWindow, int maxInputTokens,
            List<String> extensions) {
        if (seq != 0) {
            throw new IllegalStateException("CONFIG must be the first record of a boot");
        }
        StringBuilder b = envelope(ts, "CONFIG");
        b.append(",\"page_size\":").append(pageSize)
                .append(",\"pool_pages\":").append(poolPages)
                .append(",\"context_window\":").append(contextWindow)
                .append(",\"max_input_tokens\":").append(maxInputTokens);
        if (!extensions.isEmpty()) {
            b.append(",\"extensions\":[");
            for (int i = 0; i < extensions.size(); i++) {
                if (i > 0) {
                    b.append(',');
                }
                Json.string(b, extensions.get(i));
            }
            b.append(']');
        }
        emit(b);
    }

    public void admit(Instant ts, String request, String tenant, int inputTokens, boolean accept, String reason) {
        StringBuilder b = requestEnvelope(ts, "ADMIT", request, tenant);
        b.append(",\"input_tokens\":").append(inputTokens)
                .append(",\"verdict\":\"").append(accept ? "ACCEPT" : "REJECT").append('"');
        if (reason != null) {
            b.append(",\"reason\":");
            Json.string(b, reason);
        }
        emit(b);
    }

    public void alloc(Instant ts, String request, String tenant, List<PageRun> pages, String purpose,
            Integer claimedTokens) {
        alloc(ts, request, tenant, pages, purpose, claimedTokens, false);
    }

    /** @param restart spec v1.2: the request's table on this stream starts anew (a preempted request re-admitted) */
    public void alloc(Instant ts, String request, String tenant, List<PageRun> pages, String purpose,
            Integer claimedTokens, boolean restart) {
        StringBuilder b = requestEnvelope(ts, "ALLOC", request, tenant);
        runs(b, pages);
        b.append(",\"purpose\":\"").append(purpose).append('"');
        if (claimedTokens != null) {
            b.append(",\"claimed_tokens\":").append(claimedTokens);
        }
        if (restart) {
            b.append(",\"restart\":true");
        }
        emit(b);
    }

    /** @param fingerprints pairs of (logical page, hex fingerprint) of pages this write leaves complete */
    public void write(Instant ts, String request, String tenant, int from, int tokens, String source,
            List<Fingerprint> fingerprints) {
        write(ts, request, tenant, from, tokens, source, (String) null, fingerprints);
    }

    /**
     * {@code transfer} (a TRANSFER only), or null: the write is {@code sent} (spec v1.1: the sender writes
     * {@code XFER_SEND} for these positions) by that transfer (spec 1.3, amendment 2).
     */
    public void write(Instant ts, String request, String tenant, int from, int tokens, String source, String transfer,
            List<Fingerprint> fingerprints) {
        StringBuilder b = requestEnvelope(ts, "WRITE", request, tenant);
        b.append(",\"from\":").append(from).append(",\"tokens\":").append(tokens)
                .append(",\"source\":\"").append(source).append('"');
        if (transfer != null) {
            b.append(",\"sent\":true,\"transfer\":");
            Json.string(b, transfer);
        }
        if (fingerprints != null) {
            b.append(",\"fp\":[");
            for (int i = 0; i < fingerprints.size(); i++) {
                Fingerprint f = fingerprints.get(i);
                b.append(i == 0 ? "" : ",").append('[').append(f.logicalPage()).append(",\"").append(f.hex())
                        .append("\"]");
            }
            b.append(']');
        }
        emit(b);
    }

    public void share(Instant ts, String request, String tenant, List<PageRun> pages, List<String> expected) {
        share(ts, request, tenant, pages, expected, false);
    }

    /** @param restart spec v1.2: the request's table on this stream starts anew (a preempted request re-admitted) */
    public void share(Instant ts, String request, String tenant, List<PageRun> pages, List<String> expected,
            boolean restart) {
        StringBuilder b = requestEnvelope(ts, "SHARE", request, tenant);
        runs(b, pages);
        if (restart) {
            b.append(",\"restart\":true");
        }
        if (expected != null) {
            b.append(",\"fp\":[");
            for (int i = 0; i < expected.size(); i++) {
                b.append(i == 0 ? "\"" : ",\"").append(expected.get(i)).append('"');
            }
            b.append(']');
        }
        emit(b);
    }

    public void attach(Instant ts, String request, String tenant, int tokens) {
        StringBuilder b = requestEnvelope(ts, "ATTACH", request, tenant);
        b.append(",\"tokens\":").append(tokens);
        emit(b);
    }

    public void free(Instant ts, String request, List<PageRun> pages, String reason) {
        StringBuilder b = envelope(ts, "FREE");
        b.append(",\"request\":");
        Json.string(b, request);
        runs(b, pages);
        b.append(",\"reason\":\"").append(reason).append('"');
        emit(b);
    }

    /**
     * Spec v1.1, sender side: positions [from, from + tokens) of the request's table were read to be sent by transfer
     * {@code transfer} (spec 1.3, amendment 2: the engine's id of the transfer, one per attempt).
     */
    public void xferSend(Instant ts, String request, String tenant, String transfer, int from, int tokens) {
        StringBuilder b = requestEnvelope(ts, "XFER_SEND", request, tenant);
        b.append(",\"transfer\":");
        Json.string(b, transfer);
        b.append(",\"from\":").append(from).append(",\"tokens\":").append(tokens);
        emit(b);
    }

    /** Spec 1.3, amendment 3, sender side: the transport reports the read of transfer {@code transfer} finished. */
    public void xferDone(Instant ts, String request, String tenant, String transfer) {
        StringBuilder b = requestEnvelope(ts, "XFER_DONE", request, tenant);
        b.append(",\"transfer\":");
        Json.string(b, transfer);
        emit(b);
    }

    public void xferCommit(Instant ts, String request, String tenant, int claimed, int covered, Boolean checksumOk) {
        StringBuilder b = requestEnvelope(ts, "XFER_COMMIT", request, tenant);
        b.append(",\"claimed_tokens\":").append(claimed).append(",\"covered_tokens\":").append(covered);
        if (checksumOk != null) {
            b.append(",\"checksum_ok\":").append(checksumOk);
        }
        emit(b);
    }

    public void finish(Instant ts, String request, String tenant, String status, int httpStatus, int outputTokens,
            boolean delivered) {
        StringBuilder b = requestEnvelope(ts, "FINISH", request, tenant);
        b.append(",\"status\":\"").append(status).append("\",\"http_status\":").append(httpStatus)
                .append(",\"output_tokens\":").append(outputTokens).append(",\"delivered\":").append(delivered);
        emit(b);
    }

    public void heartbeat(Instant ts) {
        emit(envelope(ts, "HEARTBEAT"));
    }

    private StringBuilder envelope(Instant ts, String type) {
        b.setLength(0);
        b.append(head).append(seq + 1).append(",\"ts\":\"").append(timestamp(ts)).append(deploymentPart)
                .append(type).append('"');
        return b;
    }

    /** The timestamp text: the date part formatted once a day, the time of day written digit by digit. */
    private String timestamp(Instant ts) {
        long ms = ts.toEpochMilli();
        if (ms == lastMillis) {
            return lastTimestamp;
        }
        long day = Math.floorDiv(ms, 86_400_000L);
        if (day != lastDay) {
            lastDay = day;
            lastDate = TS.format(Instant.ofEpochMilli(day * 86_400_000L)).substring(0, 11);
        }
        int inDay = (int) (ms - day * 86_400_000L);
        char[] c = new char[24];
        lastDate.getChars(0, 11, c, 0);
        two(c, 11, inDay / 3_600_000);
        c[13] = ':';
        two(c, 14, inDay / 60_000 % 60);
        c[16] = ':';
        two(c, 17, inDay / 1000 % 60);
        c[19] = '.';
        int milli = inDay % 1000;
        c[20] = (char) ('0' + milli / 100);
        c[21] = (char) ('0' + milli / 10 % 10);
        c[22] = (char) ('0' + milli % 10);
        c[23] = 'Z';
        lastMillis = ms;
        lastTimestamp = new String(c);
        return lastTimestamp;
    }

    private static void two(char[] c, int at, int v) {
        c[at] = (char) ('0' + v / 10);
        c[at + 1] = (char) ('0' + v % 10);
    }

    private StringBuilder requestEnvelope(Instant ts, String type, String request, String tenant) {
        StringBuilder b = envelope(ts, type);
        b.append(",\"request\":");
        Json.string(b, request);
        b.append(",\"tenant\":");
        Json.string(b, tenant);
        return b;
    }

    private static void runs(StringBuilder b, List<PageRun> pages) {
        b.append(",\"pages\":[");
        for (int i = 0; i < pages.size(); i++) {
            PageRun r = pages.get(i);
            b.append(i == 0 ? "[" : ",[").append(r.firstPage()).append(',').append(r.count()).append(']');
        }
        b.append(']');
    }

    private void emit(StringBuilder b) {
        seq++;
        sink.accept(b.append('}').toString());
    }

    /** The content fingerprint of one logical page of a request. */
    public record Fingerprint(int logicalPage, String hex) {
    }
}
