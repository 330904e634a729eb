package app.vigie.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.jboss.logging.Logger;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

/**
 * The PostgreSQL server of the embedded mode: a real PostgreSQL from Maven Central binaries, its data under
 * {@code <data dir>/postgres}, listening on loopback only, started before the service and stopped after it.
 */
public final class EmbeddedDatabase implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(EmbeddedDatabase.class);

    private final EmbeddedPostgres postgres;

    private EmbeddedDatabase(EmbeddedPostgres postgres) {
        this.postgres = postgres;
    }

    public static EmbeddedDatabase start(Path dataDir) throws IOException {
        Path pgData = dataDir.resolve("postgres");
        Files.createDirectories(dataDir);
        stopOrphan(pgData);
        EmbeddedPostgres pg = EmbeddedPostgres.builder()
                .setDataDirectory(pgData)
                .setCleanDataDirectory(false)
                .setOverrideWorkingDirectory(dataDir.resolve("postgres-binaries").toFile())
                .setRegisterShutdownHook(false)
                .setPGStartupWait(Duration.ofSeconds(60))
                .setServerConfig("listen_addresses", "127.0.0.1")
                .setServerConfig("fsync", "on")
                .setServerConfig("synchronous_commit", "on")
                .setServerConfig("timezone", "UTC")
                // intake writes a lot: fewer checkpoints and compressed full-page images keep the WAL small
                .setServerConfig("max_wal_size", "2GB")
                .setServerConfig("checkpoint_timeout", "15min")
                .setServerConfig("wal_compression", "on")
                .setServerConfig("shared_buffers", "256MB")
                .setServerConfig("wal_buffers", "16MB")
                .start();
        LOG.infof("Embedded PostgreSQL started on 127.0.0.1:%d, data in %s", pg.getPort(), pgData.toAbsolutePath());
        return new EmbeddedDatabase(pg);
    }

    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + postgres.getPort() + "/postgres";
    }

    public String username() {
        return "postgres";
    }

    /**
     * A server left running by a service that was killed ({@code kill -9}) still holds the data directory: stop it
     * (a fast shutdown keeps every committed transaction) before starting ours.
     */
    static void stopOrphan(Path pgData) throws IOException {
        Path pidFile = pgData.resolve("postmaster.pid");
        if (!Files.exists(pidFile)) {
            return;
        }
        List<String> lines = Files.readAllLines(pidFile, StandardCharsets.UTF_8);
        if (lines.isEmpty()) {
            return;
        }
        long pid;
        try {
            pid = Long.parseLong(lines.get(0).trim());
        } catch (NumberFormatException e) {
            return;
        }
        Optional<ProcessHandle> orphan = ProcessHandle.of(pid).filter(ProcessHandle::isAlive)
                .filter(h -> h.info().command().map(c -> c.contains("postgres")).orElse(false));
        if (orphan.isEmpty()) {
            return;
        }
        LOG.warnf("A PostgreSQL server (pid %d) from an earlier run still holds %s; stopping it", pid, pgData);
        try {
            new ProcessBuilder("kill", "-INT", Long.toString(pid)).inheritIO().start().waitFor(10, TimeUnit.SECONDS);
            if (!orphan.get().onExit().toCompletableFuture().completeOnTimeout(null, 60, TimeUnit.SECONDS).join()
                    .isAlive()) {
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while stopping the orphan PostgreSQL server", e);
        } catch (RuntimeException e) {
            // fall through to a forced stop
        }
        orphan.get().destroyForcibly();
    }

    @Override
    public void close() {
        try {
            postgres.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
