package app.vigie.testing;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

/**
 * A real PostgreSQL server that a test can stop and start again on the same port and data (an outage), for
 * services run as separate processes.
 */
public final class PgServer implements AutoCloseable {
    private final Path data;
    private final int port;
    private EmbeddedPostgres pg;

    public PgServer(Path data) throws IOException {
        this.data = data;
        try (ServerSocket s = new ServerSocket(0)) {
            this.port = s.getLocalPort();
        }
    }

    public synchronized PgServer start() throws IOException {
        pg = EmbeddedPostgres.builder().setDataDirectory(data).setCleanDataDirectory(false).setPort(port)
                .setOverrideWorkingDirectory(Path.of(System.getProperty("java.io.tmpdir"), "vigie-pg-bin").toFile())
                .setRegisterShutdownHook(true).setPGStartupWait(Duration.ofSeconds(60))
                .setServerConfig("listen_addresses", "127.0.0.1").setServerConfig("timezone", "UTC")
                .setServerConfig("max_connections", "200").setServerConfig("max_locks_per_transaction", "1024")
                // as the embedded mode sets it (EmbeddedDatabase): intake writes a lot
                .setServerConfig("max_wal_size", "2GB").setServerConfig("checkpoint_timeout", "15min")
                .setServerConfig("wal_compression", "on").setServerConfig("shared_buffers", "256MB")
                .setServerConfig("wal_buffers", "16MB").start();
        return this;
    }

    /** Stops the server (fast shutdown: open connections are cut). */
    public synchronized void stop() throws IOException {
        if (pg != null) {
            pg.close();
            pg = null;
        }
    }

    public int port() {
        return port;
    }

    public String jdbcUrl(String database) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
    }

    public Connection connect(String database) throws SQLException {
        return connect(database, "postgres");
    }

    /** As {@code role} (the server trusts loopback connections: no password). */
    public Connection connect(String database, String role) throws SQLException {
        return DriverManager.getConnection(jdbcUrl(database), role, "");
    }

    public void createDatabase(String name) throws SQLException {
        try (Connection c = connect("postgres"); Statement s = c.createStatement()) {
            s.execute("create database " + name);
        }
    }

    @Override
    public void close() throws IOException {
        stop();
    }
}
