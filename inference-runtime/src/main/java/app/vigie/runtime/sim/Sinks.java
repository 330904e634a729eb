package app.vigie.runtime.sim;

import java.io.BufferedWriter;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
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
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import java.util.zip.GZIPOutputStream;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/** Where the audit log goes: an NDJSON file (gzip when its name ends in .gz), Vigie over HTTP, or a Kafka topic. */
public final class Sinks {
    private static final Pattern NONE_REJECTED = Pattern.compile(
            "\"rejected\"\\s*:\\s*\\[\\s*\\]");
    private Sinks() {
    }

    /** A line consumer that must be closed to flush what it holds. */
    public interface Sink extends Consumer<String>, Closeable {
        @Override
        void close() throws IOException;
    }

    public static Sink file(Path path) throws IOException {
        OutputStream out = Files.newOutputStream(path);
        if (path.getFileName().toString().endsWith(".gz")) {
            out = new GZIPOutputStream(out, 1 << 16);
        }
        BufferedWriter w = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16);
        return new Sink() {
            @Override
            public void accept(String line) {
                try {
                    w.write(line);
                    w.write('\n');
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot write " + path, e);
                }
            }

            @Override
            public void close() throws IOException {
                w.close();
            }
        };
    }

    /** Posts batches of {@code batch} lines to {@code POST /api/audit-log}; a batch not accepted whole stops the run. */
    public static Sink http(URI base, String user, String password, int batch) {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        String auth = "Basic " + Base64.getEncoder().encodeToString((user + ":" + password)
                .getBytes(StandardCharsets.UTF_8));
        URI target = base.resolve("/api/audit-log");
        List<String> pending = new ArrayList<>(batch);
        return new Sink() {
            @Override
            public void accept(String line) {
                pending.add(line);
                if (pending.size() >= batch) {
                    send();
                }
            }

            private void send() {
                if (pending.isEmpty()) {
                    return;
                }
                String body = String.join("\n", pending) + "\n";
                try {
                    HttpResponse<String> r = client.send(HttpRequest.newBuilder(target)
                            .header("Authorization", auth).header("Content-Type", "application/x-ndjson")
                            .timeout(Duration.ofMinutes(2))
                            .POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                            HttpResponse.BodyHandlers.ofString());
                    if (r.statusCode() != 200 || !NONE_REJECTED.matcher(r.body()).find()) {
                        throw new IllegalStateException("Vigie at " + target + " answered " + r.statusCode() + ": "
                                + abbreviate(r.body()));
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot reach Vigie at " + target + ": " + e.getMessage(), e);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while posting to " + target, e);
                }
                pending.clear();
            }

            @Override
            public void close() {
                send();
            }
        };
    }

    /**
     * Produces each line to a Kafka topic, keyed by its stream (as the spec asks: one stream's records stay in one
     * partition, in order), idempotent and acknowledged by every in-sync replica. Closing waits for every send.
     */
    public static Sink kafka(String bootstrapServers, String topic) {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrapServers);
        p.put("acks", "all");
        p.put("enable.idempotence", "true");
        p.put("linger.ms", "5");
        p.put("compression.type", "lz4");
        p.put("key.serializer", StringSerializer.class.getName());
        p.put("value.serializer", StringSerializer.class.getName());
        KafkaProducer<String, String> producer =
                new KafkaProducer<>(p);
        AtomicReference<Exception> failed = new AtomicReference<>();
        return new Sink() {
            @Override
            public void accept(String line) {
                Exception e = failed.get();
                if (e != null) {
                    throw new IllegalStateException("Kafka at " + bootstrapServers + " refused a record: "
                            + e.getMessage(), e);
                }
                producer.send(new ProducerRecord<>(topic, streamOf(line), line),
                        (meta, error) -> {
                            if (error != null) {
                                failed.compareAndSet(null, error);
                            }
                        });
            }

            @Override
            public void close() {
                producer.close(Duration.ofMinutes(1));
                Exception e = failed.get();
                if (e != null) {
                    throw new IllegalStateException("Kafka at " + bootstrapServers + " refused a record: "
                            + e.getMessage(), e);
                }
            }
        };
    }

    /** The stream of a line written by {@code AuditLogWriter} (its second field), unescaped. */
    static String streamOf(String line) {
        String prefix = "{\"v\":1,\"stream\":\"";
        if (!line.startsWith(prefix)) {
            throw new IllegalArgumentException("not a line of AuditLogWriter: " + abbreviate(line));
        }
        StringBuilder b = new StringBuilder();
        for (int i = prefix.length(); i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '"') {
                return b.toString();
            }
            if (c == '\\' && i + 1 < line.length()) {
                char n = line.charAt(++i);
                switch (n) {
                    case 'n' -> b.append('\n');
                    case 'r' -> b.append('\r');
                    case 't' -> b.append('\t');
                    case 'u' -> {
                        b.append((char) Integer.parseInt(line.substring(i + 1, i + 5), 16));
                        i += 4;
                    }
                    default -> b.append(n);
                }
            } else {
                b.append(c);
            }
        }
        throw new IllegalArgumentException("unterminated stream in " + abbreviate(line));
    }

    private static String abbreviate(String s) {
        return s.length() <= 500 ? s : s.substring(0, 497) + "...";
    }
}
