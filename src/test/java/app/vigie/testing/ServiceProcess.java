package app.vigie.testing;

import java.io.IOException;
import java.net.ServerSocket;
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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** The packaged service ({@code java -jar target/quarkus-app/quarkus-run.jar}) run as a separate process. */
public final class ServiceProcess implements AutoCloseable {
    public static final Path JAR = Path.of(System.getProperty("vigie.jar", "target/quarkus-app/quarkus-run.jar"));

    private final Path dataDir;
    private final Map<String, String> env;
    private final int port;
    private final Path log;
    private Process process;
    private Path directory;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    public ServiceProcess(Path dataDir, Map<String, String> env) throws IOException {
        this.dataDir = dataDir;
        this.env = env;
        try (ServerSocket s = new ServerSocket(0)) {
            this.port = s.getLocalPort();
        }
        this.log = dataDir.resolveSibling(dataDir.getFileName() + "-service.log");
    }

    /**
     * The environment of the production mode against {@code jdbcUrl} (PostgreSQL as user postgres; none when null)
     * and a Kafka topic, with an admin password and a session key; callers add their own settings.
     */
    public static Map<String, String> productionEnv(String jdbcUrl, String bootstrap, String topic,
            String adminPassword) {
        Map<String, String> env = new HashMap<>();
        env.put("VIGIE_MODE", "production");
        env.put("VIGIE_ADMIN_PASSWORD", adminPassword);
        env.put("VIGIE_SESSION_KEY", "test-session-key-of-32-characters-or-more");
        if (jdbcUrl != null) {
            env.put("QUARKUS_DATASOURCE_JDBC_URL", jdbcUrl);
        }
        env.put("QUARKUS_DATASOURCE_USERNAME", "postgres");
        env.put("KAFKA_BOOTSTRAP_SERVERS", bootstrap);
        env.put("VIGIE_KAFKA_TOPIC", topic);
        // the tests' webhook receivers listen on plain http on loopback
        env.put("VIGIE_WEBHOOK_ALLOWED_NETWORKS", "127.0.0.0/8");
        env.put("VIGIE_WEBHOOK_ALLOW_HTTP", "true");
        return env;
    }

    /** The process id of the running service. */
    public long pid() {
        return process.pid();
    }

    public int port() {
        return port;
    }

    public String log() throws IOException {
        return Files.readString(log, StandardCharsets.UTF_8);
    }

    /** Runs the service in this working directory (by default the build's). */
    public ServiceProcess in(Path dir) {
        this.directory = dir;
        return this;
    }

    private void launch() throws IOException {
        ProcessBuilder pb = new ProcessBuilder(javaBin(), "-jar", JAR.toAbsolutePath().toString());
        pb.environment().keySet().removeIf(k -> k.startsWith("VIGIE_") || k.startsWith("QUARKUS_"));
        pb.environment().put("VIGIE_DATA_DIR", dataDir.toAbsolutePath().toString());
        pb.environment().put("QUARKUS_HTTP_PORT", Integer.toString(port));
        pb.environment().putAll(env);
        if (directory != null) {
            pb.directory(directory.toFile());
        }
        pb.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        process = pb.start();
    }

    /** Starts the service and waits for it to end by itself (a refused start); returns its exit code. */
    public int startExpectingExit() throws Exception {
        launch();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("the service did not stop by itself in 120 s:\n" + log());
        }
        return process.exitValue();
    }

    public ServiceProcess start() throws Exception {
        launch();
        long until = System.currentTimeMillis() + 120_000;
        while (System.currentTimeMillis() < until) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the service exited with " + process.exitValue() + ":\n" + log());
            }
            try {
                if (get("/q/health/ready", null).statusCode() == 200) {
                    return this;
                }
            } catch (IOException e) {
                // not listening yet
            }
            Thread.sleep(250);
        }
        throw new IllegalStateException("the service did not become ready in 120 s:\n" + log());
    }

    /** {@code kill -9}: no shutdown hook runs. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /** SIGTERM: a graceful stop. Returns the exit code. */
    public int stop() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("the service did not stop in 60 s");
        }
        return process.exitValue();
    }

    public HttpResponse<String> get(String path, String credentials) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .timeout(Duration.ofSeconds(30));
        if (credentials != null) {
            b.header("Authorization", basic(credentials));
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    public HttpResponse<String> postNdjson(String body, String credentials) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/api/audit-log"))
                .timeout(Duration.ofSeconds(60)).header("Authorization", basic(credentials))
                .header("Content-Type", "application/x-ndjson")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    public HttpResponse<byte[]> getBytes(String path, String credentials) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .timeout(Duration.ofSeconds(60)).header("Authorization", basic(credentials)).build(),
                HttpResponse.BodyHandlers.ofByteArray());
    }

    /** Sends a JSON body with {@code method} (PUT, POST). */
    public HttpResponse<String> send(String method, String path, String json, String credentials)
            throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .timeout(Duration.ofSeconds(30)).header("Authorization", basic(credentials))
                .header("Content-Type", "application/json")
                .method(method, HttpRequest.BodyPublishers.ofString(json)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** Runs {@code java -jar quarkus-run.jar ARGS} to completion; returns exit code and output. */
    public static Map.Entry<Integer, String> command(Map<String, String> env, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(javaBin(), "-jar", JAR.toAbsolutePath().toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().putAll(new HashMap<>(env));
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(120, TimeUnit.SECONDS);
        return Map.entry(p.exitValue(), out);
    }

    /** A command's exit code, standard output and standard error, apart. */
    public record Run(int exit, String out, String err) {
    }

    /** Runs {@code java -jar quarkus-run.jar ARGS} to completion, its standard output apart from its errors. */
    public static Run commandApart(Map<String, String> env, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(javaBin(), "-jar", JAR.toAbsolutePath().toString()));
        cmd.addAll(List.of(args));
        Path err = Files.createTempFile("vigie-command", ".err");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(err.toFile());
        pb.environment().putAll(new HashMap<>(env));
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(120, TimeUnit.SECONDS);
        String errors = Files.readString(err);
        Files.delete(err);
        return new Run(p.exitValue(), out, errors);
    }

    private static String basic(String credentials) {
        return "Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8));
    }

    private static String javaBin() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    @Override
    public void close() throws InterruptedException {
        if (process != null && process.isAlive()) {
            stop();
        }
    }
}
