package app.vigie.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.zonky.test.db.postgres.embedded.DefaultPostgresBinaryResolver;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

/**
 * The embedded mode's PostgreSQL, attacked as another local account would: connecting over loopback without the
 * password, with a wrong one, as the service's role to disable the append-only trigger or run a program; and the
 * files that keep the secrets.
 */
class EmbeddedDatabaseTest {
    @TempDir
    Path dir;

    @TempDir
    static Path elsewhere;

    /**
     * Zonky caches, per binary resolver and for the whole JVM, the directory it extracted the binaries into. Another
     * database started earlier in the same JVM with the shared default resolver (in CI, any earlier test) must change
     * nothing here: this one is started first, on purpose.
     */
    @BeforeAll
    static void anotherDatabaseRanInThisJvmBefore() throws Exception {
        try (EmbeddedPostgres other = EmbeddedPostgres.builder().setDataDirectory(elsewhere.resolve("postgres"))
                .setOverrideWorkingDirectory(elsewhere.resolve("binaries").toFile())
                .setPgBinaryResolver(DefaultPostgresBinaryResolver.INSTANCE).setRegisterShutdownHook(false)
                .setPGStartupWait(Duration.ofSeconds(60)).start()) {
            assertThat(other.getPort()).isPositive();
        }
    }

    @Test
    void aNewDatabaseAsksEveryoneForAPasswordAndTheServiceIsNoSuperuser() throws Exception {
        Path data = dir.resolve("data");
        try (EmbeddedDatabase db = EmbeddedDatabase.start(data)) {
            assertRefusedWithoutPassword(db);
            assertThat(postgresUnder(data.resolve("postgres-binaries")))
                    .as("the binaries are the data directory's own, wherever another database's are").isTrue();
            assertThat(perms(data)).isEqualTo("rwx------");
            assertThat(perms(data.resolve(EmbeddedDatabase.OWNER_PASSWORD_FILE))).isEqualTo("rw-------");
            assertThat(perms(data.resolve(EmbeddedDatabase.SERVICE_PASSWORD_FILE))).isEqualTo("rw-------");
            assertThat(Files.readString(data.resolve(EmbeddedDatabase.OWNER_PASSWORD_FILE)).strip())
                    .isEqualTo(db.ownerPassword()).hasSizeGreaterThanOrEqualTo(40);
            assertThat(db.password()).isNotEqualTo(db.ownerPassword());
            try (Connection owner = connect(db, db.ownerUsername(), db.ownerPassword());
                    Statement s = owner.createStatement()) {
                // the shape of the audit trail (V11): a table the owner makes, append-only by a trigger
                s.execute("create table trail (id bigint generated always as identity primary key, what text)");
                s.execute("create function trail_append_only() returns trigger language plpgsql as $$ begin "
                        + "raise exception 'append-only'; end $$");
                s.execute("create trigger trail_append_only before update or delete on trail for each row "
                        + "execute function trail_append_only()");
                assertThat(value(s, "show unix_socket_directories")).isEmpty();
            }
            try (Connection service = connect(db, db.username(), db.password());
                    Statement s = service.createStatement()) {
                assertThat(value(s, "select rolsuper::text from pg_roles where rolname = current_user"))
                        .isEqualTo("false");
                s.execute("insert into trail (what) values ('written by the service')");
                assertThat(value(s, "select what from trail")).isEqualTo("written by the service");
                assertThatThrownBy(() -> s.execute("delete from trail")).hasMessageContaining("append-only");
                assertThatThrownBy(() -> s.execute("alter table trail disable trigger all"))
                        .hasMessageContaining("must be owner");
                assertThatThrownBy(() -> s.execute("copy (select 1) to program 'touch " + dir.resolve("pwned")
                        + "'")).isInstanceOf(SQLException.class);
                assertThatThrownBy(() -> s.execute("create table sneaky (x int)")).isInstanceOf(SQLException.class);
            }
            assertThat(dir.resolve("pwned")).doesNotExist();
        }
        // a restart keeps the passwords and the data, and still refuses
        try (EmbeddedDatabase db = EmbeddedDatabase.start(data);
                Connection service = connect(db, db.username(), db.password());
                Statement s = service.createStatement()) {
            assertThat(value(s, "select count(*) from trail")).isEqualTo("1");
            assertRefusedWithoutPassword(db);
        }
    }

    @Test
    void aDatabaseMadeByAnEarlierVersionIsSecuredAndKeepsItsData() throws Exception {
        Path data = dir.resolve("old");
        Files.createDirectories(data);
        // as versions before password authentication made it: initdb -A trust, a superuser without password
        try (EmbeddedPostgres old = EmbeddedPostgres.builder().setDataDirectory(data.resolve("postgres"))
                .setCleanDataDirectory(false).setOverrideWorkingDirectory(data.resolve("postgres-binaries").toFile())
                .setPgBinaryResolver(EmbeddedDatabase.ownBinaries())
                .setRegisterShutdownHook(false).setPGStartupWait(Duration.ofSeconds(60))
                .setServerConfig("listen_addresses", "127.0.0.1").start();
                Connection c = DriverManager.getConnection(
                        "jdbc:postgresql://127.0.0.1:" + old.getPort() + "/postgres", "postgres", "");
                Statement s = c.createStatement()) {
            s.execute("create table incident (id text)");
            s.execute("insert into incident values ('kept')");
        }
        try (EmbeddedDatabase db = EmbeddedDatabase.start(data)) {
            assertRefusedWithoutPassword(db);
            try (Connection service = connect(db, db.username(), db.password());
                    Statement s = service.createStatement()) {
                assertThat(value(s, "select id from incident")).isEqualTo("kept");
            }
        }
    }

    private static void assertRefusedWithoutPassword(EmbeddedDatabase db) {
        for (String role : new String[] {"postgres", EmbeddedDatabase.SERVICE}) {
            assertThatThrownBy(() -> connect(db, role, "").close()).isInstanceOf(SQLException.class)
                    .hasMessageContaining("password");
            assertThatThrownBy(() -> connect(db, role, "a-guess").close()).isInstanceOf(SQLException.class)
                    .hasMessageContaining("password authentication failed");
        }
    }

    private static Connection connect(EmbeddedDatabase db, String user, String password) throws SQLException {
        return DriverManager.getConnection(db.jdbcUrl(), user, password);
    }

    private static String value(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    private static boolean postgresUnder(Path binaries) throws Exception {
        try (Stream<Path> files = Files.walk(binaries, 3)) {
            return files.anyMatch(p -> p.endsWith(Path.of("bin", "postgres")));
        }
    }

    private static String perms(Path p) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
    }
}
