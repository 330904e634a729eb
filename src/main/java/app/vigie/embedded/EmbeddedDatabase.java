package app.vigie.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.jboss.logging.Logger;

import io.zonky.test.db.postgres.embedded.DefaultPostgresBinaryResolver;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import io.zonky.test.db.postgres.embedded.PgBinaryResolver;
import io.zonky.test.db.postgres.util.LinuxUtils;

import app.vigie.platform.PrivateFiles;

/**
 * The PostgreSQL server of the embedded mode: a real PostgreSQL from Maven Central binaries, its data under
 * {@code <data dir>/postgres}, started before the service and stopped after it.
 *
 * <p>No other account of the machine can use it: it listens on loopback only, has no Unix socket, and every
 * connection must give a password (scram-sha-256). Two roles: {@code postgres}, the owner, which only the migrations
 * use, and {@code vigie_service}, which the service uses: it reads and writes the tables but is no superuser and owns
 * none of them, so it can neither disable the append-only triggers nor run {@code COPY ... TO PROGRAM}. Their
 * passwords are random, kept in the data directory (0700) in files only its owner reads (0600), never logged.
 */
public final class EmbeddedDatabase implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(EmbeddedDatabase.class);
    static final String OWNER = "postgres";
    static final String SERVICE = "vigie_service";
    static final String OWNER_PASSWORD_FILE = "postgres-owner.password";
    static final String SERVICE_PASSWORD_FILE = "postgres-service.password";
    /** What pg_hba.conf allows: passwords over loopback TCP, nothing else. */
    static final String HBA = """
            # Written by Vigie (EmbeddedDatabase): every connection gives its role's password.
            host    all             all             127.0.0.1/32            scram-sha-256
            host    all             all             ::1/128                 scram-sha-256
            """;

    private final EmbeddedPostgres postgres;
    private final String ownerPassword;
    private final String servicePassword;

    private EmbeddedDatabase(EmbeddedPostgres postgres, String ownerPassword, String servicePassword) {
        this.postgres = postgres;
        this.ownerPassword = ownerPassword;
        this.servicePassword = servicePassword;
    }

    public static EmbeddedDatabase start(Path dataDir) throws IOException {
        PrivateFiles.directory(dataDir);
        Path pgData = dataDir.resolve("postgres");
        stopOrphan(pgData);
        Path ownerFile = dataDir.resolve(OWNER_PASSWORD_FILE);
        String owner = PrivateFiles.secret(ownerFile);
        String service = PrivateFiles.secret(dataDir.resolve(SERVICE_PASSWORD_FILE));
        Path binaries = dataDir.resolve("postgres-binaries");
        if (Files.exists(pgData.resolve("PG_VERSION")) && !Files.readString(pgData.resolve("pg_hba.conf")).equals(HBA)) {
            secureExisting(binaries, pgData, owner);
        }
        EmbeddedPostgres pg = EmbeddedPostgres.builder()
                .setDataDirectory(pgData)
                .setCleanDataDirectory(false)
                .setOverrideWorkingDirectory(binaries.toFile())
                .setPgBinaryResolver(ownBinaries())
                .setRegisterShutdownHook(false)
                .setPGStartupWait(Duration.ofSeconds(60))
                // a new cluster: initdb sets the owner's password from its file, and password authentication
                .setLocaleConfig("auth", "scram-sha-256")
                .setLocaleConfig("pwfile", ownerFile.toString())
                .setConnectConfig("password", owner)
                .setServerConfig("listen_addresses", "127.0.0.1")
                .setServerConfig("unix_socket_directories", "")
                .setServerConfig("password_encryption", "scram-sha-256")
                .setServerConfig("fsync", "on")
                .setServerConfig("synchronous_commit", "on")
                .setServerConfig("timezone", "UTC")
                // spec v1.1 transfers: one advisory lock per transferred request of a transaction (TransferStore)
                .setServerConfig("max_locks_per_transaction", "1024")
                // intake writes a lot: fewer checkpoints and compressed full-page images keep the WAL small
                .setServerConfig("max_wal_size", "2GB")
                .setServerConfig("checkpoint_timeout", "15min")
                .setServerConfig("wal_compression", "on")
                .setServerConfig("shared_buffers", "256MB")
                .setServerConfig("wal_buffers", "16MB")
                .start();
        EmbeddedDatabase db = new EmbeddedDatabase(pg, owner, service);
        try {
            Files.writeString(pgData.resolve("pg_hba.conf"), HBA); // initdb's own has the replication lines too
            db.prepareServiceRole();
        } catch (IOException | RuntimeException e) {
            db.close();
            throw e;
        }
        LOG.infof("Embedded PostgreSQL started on 127.0.0.1:%d, data in %s (password authentication)", pg.getPort(),
                pgData.toAbsolutePath());
        return db;
    }

    /**
     * The binaries, always under the data directory's {@code postgres-binaries}. Zonky caches the directory it
     * extracted into per resolver for the whole JVM: with its shared default resolver, a second database started in
     * the same JVM would use the first one's directory, and {@link #secureExisting} would not find them where the
     * earlier version put them. A resolver of our own per start misses that cache; the extraction itself is reused
     * when the directory already holds it.
     */
    public static PgBinaryResolver ownBinaries() {
        return (system, architecture) -> DefaultPostgresBinaryResolver.INSTANCE.getPgBinary(system, architecture);
    }

    /**
     * The service's role: may log in, read and write every table and sequence the owner makes (now and in later
     * migrations), nothing more. Its password follows its file at every start.
     */
    private void prepareServiceRole() {
        try (Connection c = DriverManager.getConnection(jdbcUrl(), OWNER, ownerPassword);
                Statement s = c.createStatement()) {
            s.execute("select pg_reload_conf()");
            boolean exists;
            try (ResultSet rs = s.executeQuery("select 1 from pg_roles where rolname = '" + SERVICE + "'")) {
                exists = rs.next();
            }
            String password = "'" + servicePassword.replace("'", "''") + "'";
            s.execute((exists ? "alter role " : "create role ") + SERVICE
                    + " login nosuperuser nocreatedb nocreaterole noreplication nobypassrls password " + password);
            s.execute("grant connect, temporary on database postgres to " + SERVICE);
            s.execute("grant usage on schema public to " + SERVICE);
            s.execute("grant select, insert, update, delete on all tables in schema public to " + SERVICE);
            s.execute("grant usage, select, update on all sequences in schema public to " + SERVICE);
            s.execute("alter default privileges for role " + OWNER + " in schema public grant select, insert, update, "
                    + "delete on tables to " + SERVICE);
            s.execute("alter default privileges for role " + OWNER + " in schema public grant usage, select, update "
                    + "on sequences to " + SERVICE);
        } catch (SQLException e) {
            throw new IllegalStateException("could not prepare the service's database role: " + e.getMessage(), e);
        }
    }

    /**
     * A data directory made by an earlier version trusted every local connection, and its owner had no password:
     * set the password in single-user mode (no connection of any kind is open meanwhile), then allow passwords only.
     */
    static void secureExisting(Path binaries, Path pgData, String ownerPassword) throws IOException {
        Path postgres;
        try (Stream<Path> files = Files.walk(binaries, 3)) {
            postgres = files.filter(p -> p.endsWith(Path.of("bin", "postgres")) && Files.isExecutable(p)).findFirst()
                    .orElseThrow(() -> new IOException("the PostgreSQL binaries are not under " + binaries
                            + ": cannot secure the data directory " + pgData));
        }
        LOG.warnf("The database in %s accepted local connections without a password (made by an earlier version): "
                + "setting the owner's password and password authentication", pgData);
        List<String> command = new ArrayList<>();
        if (LinuxUtils.isUnshareAvailable()) {
            command.addAll(List.of("unshare", "-U")); // as the server itself is started: PostgreSQL refuses root
        }
        command.addAll(List.of(postgres.toString(), "--single", "-D", pgData.toString(), "-c", "listen_addresses=",
                "-c", "unix_socket_directories=", OWNER));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try (var in = p.getOutputStream()) {
            in.write(("alter role " + OWNER + " password '" + ownerPassword.replace("'", "''") + "'\n")
                    .getBytes(StandardCharsets.UTF_8));
        }
        try {
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                throw new IOException("could not set the database owner's password in " + pgData);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while securing " + pgData, e);
        }
        Files.writeString(pgData.resolve("pg_hba.conf"), HBA);
    }

    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + postgres.getPort() + "/postgres";
    }

    /** The service's role (no superuser). */
    public String username() {
        return SERVICE;
    }

    public String password() {
        return servicePassword;
    }

    /** The owner, for the migrations. */
    public String ownerUsername() {
        return OWNER;
    }

    public String ownerPassword() {
        return ownerPassword;
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
