package app.vigie.testing;

import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.net.URLEncoder;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A real Keycloak (its distribution from Maven Central, copied by the build to target/keycloak/keycloak.zip), run
 * as a process in development mode with the realm of src/test/resources/oidc/vigie-realm.json. Keycloak needs Java
 * 21 or later: the newest JDK under /usr/lib/jvm (these machines carry Temurin's beside Debian's 17), or
 * {@code KEYCLOAK_JAVA_HOME}.
 */
public final class Keycloak implements AutoCloseable {
    private final Process process;
    private final int port;
    private final Path log;

    private Keycloak(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
    }

    public String issuer() {
        return "http://localhost:" + port + "/realms/vigie";
    }

    public static Keycloak start(Path work) throws Exception {
        Path zip = Path.of(System.getProperty("vigie.keycloak.zip", "target/keycloak/keycloak.zip"));
        if (!Files.isRegularFile(zip)) {
            throw new AssertionError(zip + " is missing: the build copies it (mvn generate-test-resources)");
        }
        Path home = unzip(zip, work.resolve("keycloak"));
        Path data = home.resolve("data/import");
        Files.createDirectories(data);
        try (InputStream realm = Keycloak.class.getResourceAsStream("/oidc/vigie-realm.json")) {
            Files.copy(realm, data.resolve("vigie-realm.json"), StandardCopyOption.REPLACE_EXISTING);
        }
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Path log = work.resolve("keycloak.log");
        ProcessBuilder pb = new ProcessBuilder("bash", home.resolve("bin/kc.sh").toString(), "start-dev",
                "--http-port=" + port, "--import-realm", "--http-management-port=" + free(),
                "--cache=local");
        pb.environment().put("JAVA_HOME", javaHome().toString());
        pb.environment().put("KC_BOOTSTRAP_ADMIN_USERNAME", "kc-tests-admin");
        pb.environment().put("KC_BOOTSTRAP_ADMIN_PASSWORD", "kc-tests-admin-password");
        pb.environment().put("JAVA_OPTS_APPEND", "-Xmx512m");
        pb.redirectErrorStream(true).redirectOutput(log.toFile());
        Keycloak kc = new Keycloak(pb.start(), port, log);
        kc.awaitReady();
        return kc;
    }

    private void awaitReady() throws Exception {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        long until = System.currentTimeMillis() + 240_000;
        while (System.currentTimeMillis() < until) {
            if (!process.isAlive()) {
                throw new IllegalStateException("Keycloak exited with " + process.exitValue() + ":\n"
                        + Files.readString(log));
            }
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(issuer()
                        + "/.well-known/openid-configuration")).build(), HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            }
            Thread.sleep(500);
        }
        throw new IllegalStateException("Keycloak was not ready in 240 s:\n" + Files.readString(log));
    }

    private static int free() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** KEYCLOAK_JAVA_HOME, else the JDK of the highest version 21+ under /usr/lib/jvm. */
    static Path javaHome() throws IOException {
        String given = System.getenv("KEYCLOAK_JAVA_HOME");
        if (given != null && !given.isBlank()) {
            return Path.of(given);
        }
        Path best = null;
        int bestVersion = 0;
        try (Stream<Path> jdks = Files.list(Path.of("/usr/lib/jvm"))) {
            for (Path jdk : jdks.toList()) {
                Path release = jdk.resolve("release");
                if (!Files.isRegularFile(release) || !Files.isExecutable(jdk.resolve("bin/java"))) {
                    continue;
                }
                for (String line : Files.readAllLines(release, StandardCharsets.UTF_8)) {
                    if (line.startsWith("JAVA_VERSION=")) {
                        String v = line.substring("JAVA_VERSION=".length()).replace("\"", "");
                        int major = Integer.parseInt(v.split("[.+-]")[0]);
                        if (major >= 21 && major > bestVersion) {
                            best = jdk;
                            bestVersion = major;
                        }
                    }
                }
            }
        }
        if (best == null) {
            throw new AssertionError("Keycloak needs Java 21 or later: none under /usr/lib/jvm; set "
                    + "KEYCLOAK_JAVA_HOME");
        }
        return best;
    }

    private static Path unzip(Path zip, Path into) throws IOException {
        Path marker = into.resolve(".unzipped");
        if (!Files.exists(marker)) {
            Files.createDirectories(into);
            try (ZipInputStream in = new ZipInputStream(Files.newInputStream(zip))) {
                for (ZipEntry e; (e = in.getNextEntry()) != null;) {
                    Path target = into.resolve(e.getName()).normalize();
                    if (!target.startsWith(into)) {
                        throw new IOException("zip entry outside its folder: " + e.getName());
                    }
                    if (e.isDirectory()) {
                        Files.createDirectories(target);
                    } else {
                        Files.createDirectories(target.getParent());
                        Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
                    }
                }
            }
            Files.createFile(marker);
        }
        try (Stream<Path> top = Files.list(into)) {
            List<Path> dirs = top.filter(Files::isDirectory).toList();
            if (dirs.size() != 1) {
                throw new IOException("expected one Keycloak folder in " + into + ", found " + dirs);
            }
            return dirs.get(0);
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient admin = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** The provider's id of a user of the realm: the {@code sub} of its tokens. */
    public String userId(String username) throws Exception {
        JsonNode found = JSON.readTree(adminCall("GET", "/users?exact=true&username="
                + URLEncoder.encode(username, StandardCharsets.UTF_8), null));
        if (found.size() != 1) {
            throw new AssertionError("no single Keycloak user named " + username + ": " + found);
        }
        return found.get(0).get("id").asText();
    }

    /** Renames a user of the realm, as the user may itself (the realm allows editing one's username). */
    public void rename(String username, String newName) throws Exception {
        String id = userId(username);
        ObjectNode user = (ObjectNode) JSON.readTree(adminCall("GET", "/users/" + id, null));
        user.put("username", newName);
        adminCall("PUT", "/users/" + id, JSON.writeValueAsString(user));
    }

    private String adminCall(String method, String path, String json) throws Exception {
        HttpResponse<String> token = admin.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port
                + "/realms/master/protocol/openid-connect/token")).header("Content-Type",
                        "application/x-www-form-urlencoded").POST(HttpRequest.BodyPublishers.ofString(
                                "grant_type=password&client_id=admin-cli&username=kc-tests-admin"
                                        + "&password=kc-tests-admin-password")).build(),
                HttpResponse.BodyHandlers.ofString());
        if (token.statusCode() != 200) {
            throw new AssertionError("Keycloak's admin token: " + token.statusCode() + " " + token.body());
        }
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/admin/realms/vigie"
                + path)).header("Authorization", "Bearer " + JSON.readTree(token.body()).get("access_token")
                        .asText());
        b = json == null ? b.method(method, HttpRequest.BodyPublishers.noBody())
                : b.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(
                        json));
        HttpResponse<String> r = admin.send(b.build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() / 100 != 2) {
            throw new AssertionError("Keycloak " + method + " " + path + ": " + r.statusCode() + " " + r.body());
        }
        return r.body();
    }

    public String log() throws IOException {
        return Files.readString(log);
    }

    @Override
    public void close() throws InterruptedException {
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
