package app.vigie.cli;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.zip.GZIPInputStream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * {@code replay [options] FILE...}: sends archived page audit logs (NDJSON, gzip or not) to a running Vigie in
 * batches, showing progress, and prints what became of them. Rejected lines are kept in the service's quarantine
 * with their file and line.
 */
public final class ReplayCommand {
    private static final String USAGE = """
            usage: replay [--url URL] [--user NAME] [--batch-lines N] [--flush] FILE...
              Sends NDJSON page audit logs (.gz too) to POST /api/audit-log of a running Vigie.
              --url URL         the service (default http://localhost:8080)
              --user NAME       account with the ingest or admin role (default admin)
                                its password is read from VIGIE_PASSWORD, else VIGIE_ADMIN_PASSWORD
              --batch-lines N   lines per request (default 5000; requests also stay under 8 MiB)
              --flush           afterwards, declare remaining gaps lost and apply what they held back
            """;
    private static final int MAX_BATCH_BYTES = 8 << 20;

    private final PrintStream out;
    private final PrintStream err;
    private final ObjectMapper json = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private String url = "http://localhost:8080";
    private String user = "admin";
    private int batchLines = 5000;
    private boolean flush;
    private String authorization;

    private ReplayCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    /** Runs the command; returns the process exit code (0 done, 1 failed, 2 bad usage). */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        return new ReplayCommand(out, err).main(args);
    }

    /** Counts of one file or of the whole run. */
    static final class Totals {
        long lines;
        long accepted;
        long duplicates;
        long pending;
        long blank;
        final List<String> rejected = new ArrayList<>();

        void add(Totals t) {
            lines += t.lines;
            accepted += t.accepted;
            duplicates += t.duplicates;
            pending += t.pending;
            blank += t.blank;
            rejected.addAll(t.rejected);
        }

        String summary() {
            return String.format("%d lines: %d accepted (%d pending behind a gap), %d duplicates, %d rejected, "
                    + "%d blank", lines, accepted, pending, duplicates, rejected.size(), blank);
        }
    }

    private int main(String[] args) {
        List<Path> files = new ArrayList<>();
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--url" -> url = value(args, ++i, "--url").replaceAll("/+$", "");
                    case "--user" -> user = value(args, ++i, "--user");
                    case "--batch-lines" -> batchLines = Integer.parseInt(value(args, ++i, "--batch-lines"));
                    case "--flush" -> flush = true;
                    case "-h", "--help" -> {
                        out.print(USAGE);
                        return 0;
                    }
                    default -> {
                        if (args[i].startsWith("--")) {
                            throw new IllegalArgumentException("unknown option " + args[i]);
                        }
                        files.add(Path.of(args[i]));
                    }
                }
            }
            if (files.isEmpty()) {
                throw new IllegalArgumentException("no file given");
            }
            if (batchLines < 1) {
                throw new IllegalArgumentException("--batch-lines must be >= 1");
            }
            for (Path f : files) {
                if (!Files.isReadable(f)) {
                    throw new IllegalArgumentException("cannot read " + f);
                }
            }
        } catch (IllegalArgumentException e) {
            err.println("replay: " + e.getMessage());
            err.print(USAGE);
            return 2;
        }
        String password = System.getenv("VIGIE_PASSWORD");
        if (password == null) {
            password = System.getenv("VIGIE_ADMIN_PASSWORD");
        }
        if (password == null) {
            err.println("replay: set VIGIE_PASSWORD (or VIGIE_ADMIN_PASSWORD) to the password of " + user);
            return 2;
        }
        authorization = "Basic " + Base64.getEncoder()
                .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
        Totals all = new Totals();
        try {
            for (Path f : files) {
                Totals t = replay(f);
                out.println(f + ": " + t.summary());
                all.add(t);
            }
            if (flush) {
                JsonNode r = post("/api/audit-log/flush", new byte[0], 0, null, 0, "application/json");
                out.println("flush: " + r.path("gaps").asLong() + " gap(s) declared lost, "
                        + r.path("applied").asLong() + " held-back record(s) applied");
            }
        } catch (IOException | ReplayException e) {
            err.println("replay: " + e.getMessage());
            out.println("incomplete: " + all.summary());
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 1;
        }
        out.println("total: " + all.summary());
        for (String r : all.rejected.subList(0, Math.min(20, all.rejected.size()))) {
            out.println("  rejected " + r);
        }
        if (all.rejected.size() > 20) {
            out.println("  ... and " + (all.rejected.size() - 20) + " more (GET /api/quarantine?source=file)");
        }
        return 0;
    }

    private Totals replay(Path file) throws IOException, ReplayException, InterruptedException {
        long size = Files.size(file);
        String name = file.toAbsolutePath().normalize().toString();
        Totals t = new Totals();
        Progress progress = new Progress(err, file.getFileName().toString(), size);
        try (CountingInputStream counted = new CountingInputStream(Files.newInputStream(file));
                InputStream in = new BufferedInputStream(gzipped(file) ? new GZIPInputStream(counted, 1 << 16)
                        : counted, 1 << 16)) {
            ByteArrayOutputStream batch = new ByteArrayOutputStream(1 << 20);
            int inBatch = 0;
            long firstLine = 1;
            long line = 0;
            ByteArrayOutputStream current = new ByteArrayOutputStream(4096);
            int b;
            boolean pendingLine = false;
            while (true) {
                b = in.read();
                if (b == -1) {
                    if (pendingLine) {
                        batch.write(current.toByteArray());
                        batch.write('\n');
                        inBatch++;
                        line++;
                    }
                    break;
                }
                pendingLine = true;
                if (b != '\n') {
                    current.write(b);
                    continue;
                }
                current.write('\n');
                current.writeTo(batch);
                current.reset();
                pendingLine = false;
                inBatch++;
                line++;
                if (inBatch >= batchLines || batch.size() >= MAX_BATCH_BYTES) {
                    send(t, batch, name, firstLine, inBatch);
                    firstLine = line + 1;
                    batch.reset();
                    inBatch = 0;
                    progress.show(counted.count(), line);
                }
            }
            if (inBatch > 0) {
                send(t, batch, name, firstLine, inBatch);
            }
            progress.done(counted.count(), line);
        }
        return t;
    }

    private void send(Totals t, ByteArrayOutputStream batch, String name, long firstLine, int lines)
            throws IOException, ReplayException, InterruptedException {
        JsonNode r = post("/api/audit-log", batch.toByteArray(), batch.size(), name, firstLine,
                "application/x-ndjson");
        t.lines += lines;
        t.accepted += r.path("accepted").asLong();
        t.duplicates += r.path("duplicates").asLong();
        t.pending += r.path("pending").asLong();
        t.blank += r.path("blank_lines").asLong();
        for (JsonNode rej : r.path("rejected")) {
            t.rejected.add(name + ":" + rej.path("line").asLong() + ": " + rej.path("reason").asText());
        }
    }

    private JsonNode post(String path, byte[] body, int length, String name, long firstLine, String type)
            throws IOException, ReplayException, InterruptedException {
        HttpRequest.Builder req = HttpRequest.newBuilder(URI.create(url + path))
                .timeout(Duration.ofMinutes(5))
                .header("Authorization", authorization)
                .header("Content-Type", type)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body, 0, length));
        if (name != null) {
            req.header("Vigie-Source", "file").header("Vigie-Source-Name", name)
                    .header("Vigie-Source-Line", Long.toString(firstLine));
        }
        HttpResponse<String> res;
        try {
            res = http.send(req.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new ReplayException("cannot reach " + url + ": " + e.getMessage());
        }
        if (res.statusCode() != 200) {
            String detail = res.body();
            try {
                detail = json.readTree(res.body()).path("detail").asText(detail);
            } catch (IOException e) {
                // not a problem document: show the body as it is
            }
            throw new ReplayException(path + " answered " + res.statusCode() + ": " + detail);
        }
        return json.readTree(res.body());
    }

    private static boolean gzipped(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return in.read() == 0x1f && in.read() == 0x8b;
        }
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }

    /** A failure of the service or of the connection. */
    static final class ReplayException extends Exception {
        ReplayException(String message) {
            super(message);
        }
    }

    /** Counts the bytes read from the file (compressed bytes for a gzip file), for progress. */
    static final class CountingInputStream extends FilterInputStream {
        private long count;

        CountingInputStream(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                count++;
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) {
                count += n;
            }
            return n;
        }

        long count() {
            return count;
        }
    }

    /** A progress line on stderr, at most once a second. */
    static final class Progress {
        private final PrintStream err;
        private final String name;
        private final long size;
        private final long start = System.nanoTime();
        private long lastShown;

        Progress(PrintStream err, String name, long size) {
            this.err = err;
            this.name = name;
            this.size = size;
        }

        void show(long bytes, long lines) {
            long now = System.nanoTime();
            if (now - lastShown < 1_000_000_000L) {
                return;
            }
            lastShown = now;
            print(bytes, lines);
        }

        void done(long bytes, long lines) {
            print(bytes, lines);
            err.println();
        }

        private void print(long bytes, long lines) {
            double seconds = Math.max(1e-3, (System.nanoTime() - start) / 1e9);
            int pct = size == 0 ? 100 : (int) Math.min(100, bytes * 100 / size);
            err.printf("\r%s: %3d%% (%,d of %,d bytes), %,d lines, %,.0f lines/s", name, pct, bytes, size, lines,
                    lines / seconds);
            err.flush();
        }
    }
}
