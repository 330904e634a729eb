package app.vigie.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

/** A real PostgreSQL server for the tests, one per test JVM, shared by every test profile. */
public class PostgresResource implements QuarkusTestResourceLifecycleManager {
    private static EmbeddedPostgres postgres;

    static synchronized EmbeddedPostgres server() {
        if (postgres == null) {
            try {
                Path dir = Files.createTempDirectory("vigie-test-pg");
                postgres = EmbeddedPostgres.builder().setDataDirectory(dir.resolve("data"))
                        .setOverrideWorkingDirectory(Path.of(System.getProperty("java.io.tmpdir"), "vigie-pg-bin").toFile())
                        .setServerConfig("timezone", "UTC")
                        .setServerConfig("max_locks_per_transaction", "1024").start();
                Runtime.getRuntime().addShutdownHook(new Thread(PostgresResource::closeServer));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return postgres;
    }

    @Override
    public Map<String, String> start() {
        EmbeddedPostgres pg = server();
        return Map.of("quarkus.datasource.jdbc.url", "jdbc:postgresql://localhost:" + pg.getPort() + "/postgres",
                "quarkus.datasource.username", "postgres");
    }

    /** Each test profile has its own class loader, hence its own server: closed when the profile ends. */
    @Override
    public synchronized void stop() {
        closeServer();
    }

    private static synchronized void closeServer() {
        if (postgres != null) {
            try {
                postgres.close();
            } catch (IOException e) {
                // the server process is gone already
            }
            postgres = null;
        }
    }
}
