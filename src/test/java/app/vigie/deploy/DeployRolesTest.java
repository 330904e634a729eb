package app.vigie.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

import app.vigie.testing.PgServer;

/**
 * deploy/'s database roles, applied to a real PostgreSQL as the deploy files say (the roles CloudNativePG or compose
 * make, the migrations run as the role the migration step uses, the grants SQL the files run), then attacked as the
 * role the service connects as: it must not disable the append-only trigger, truncate or drop {@code audit_event},
 * create tables, nor turn triggers off for its session; and it must still be able to do its work (every table's rows,
 * every sequence, the tables of a later migration, Flyway's validation). The roles are read from the files, so a file
 * that gives the service the owner's credentials fails here.
 */
class DeployRolesTest {
    private static final Path DEPLOY = DeployFilesTest.DEPLOY;
    private static final Pattern PSQL_FILE = Pattern.compile("-f\\s+(\\S+)");

    @TempDir
    Path dir;

    /** Who does what, as a deploy directory says. */
    record Roles(String database, String owner, String migrator, String grantor, List<Path> grantFiles,
            String service) {
    }

    @Test
    void kubernetesTheServiceRoleCannotDisableTheTriggersNorTruncateTheAuditTrail() throws Exception {
        Map<String, Object> cluster = yaml(DEPLOY.resolve("kubernetes/postgres/cluster.yaml")).get(0);
        String clusterName = at(cluster, "metadata", "name");
        String database = at(cluster, "spec", "bootstrap", "initdb", "database");
        String owner = at(cluster, "spec", "bootstrap", "initdb", "owner");
        List<Map<String, Object>> managed = Objects.requireNonNullElse(at(cluster, "spec", "managed", "roles"),
                List.of());
        Map<String, Object> deployment = yaml(DEPLOY.resolve("kubernetes/base/deployment.yaml")).get(0);
        Map<String, Object> pod = at(deployment, "spec", "template", "spec");

        // a Secret names a role: <cluster>-app is the owner's (CloudNativePG's bootstrap), a managed role's is its own
        Function<String, String> roleOfSecret = secret -> {
            if (secret.equals(clusterName + "-app")) {
                return owner;
            }
            return managed.stream().filter(r -> secret.equals(at(r, "passwordSecret", "name")))
                    .map(r -> (String) r.get("name")).findFirst()
                    .orElseThrow(() -> new AssertionError("no database role has the Secret " + secret));
        };
        String service = null;
        String migrator = null;
        String grantor = null;
        List<Path> grantFiles = new ArrayList<>();
        List<Map<String, Object>> all = new ArrayList<>(Objects.requireNonNullElse(at(pod, "initContainers"),
                List.of()));
        List<Map<String, Object>> main = at(pod, "containers");
        all.addAll(main);
        for (Map<String, Object> c : all) {
            String dbUser = DeployFilesTest.secretOf(c, "QUARKUS_DATASOURCE_USERNAME");
            if (dbUser != null) {
                boolean migrates = !"false".equals(DeployFilesTest.envValue(c, "QUARKUS_FLYWAY_MIGRATE_AT_START"));
                String role = roleOfSecret.apply(dbUser);
                if (migrates) {
                    migrator = role;
                }
                if (main.contains(c)) {
                    service = role;
                }
            }
            String pgUser = DeployFilesTest.secretOf(c, "PGUSER");
            if (pgUser != null) {
                grantor = roleOfSecret.apply(pgUser);
                for (Object arg : Objects.requireNonNullElse((List<Object>) at(c, "command"), List.of())) {
                    if (arg.toString().endsWith(".sql")) {
                        // mounted from the ConfigMap the postgres kustomization makes of the file of that name
                        grantFiles.add(DEPLOY.resolve("kubernetes/postgres")
                                .resolve(Path.of(arg.toString()).getFileName()));
                    }
                }
            }
        }
        assertThat(service).as("the role the service connects as").isNotNull();
        assertThat(migrator).as("the role the migrations run as").isNotNull();

        try (PgServer pg = new PgServer(dir.resolve("k8s")).start()) {
            try (Connection c = pg.connect("postgres"); Statement s = c.createStatement()) {
                // as CloudNativePG's initdb bootstrap makes them: the owner is no superuser
                s.execute("create role " + owner + " login nosuperuser");
                s.execute("create database " + database + " owner " + owner);
                for (Map<String, Object> r : managed) {
                    s.execute("create role " + r.get("name") + attributes(r));
                }
            }
            Roles roles = new Roles(database, owner, migrator, grantor, grantFiles, service);
            attack(pg, roles, null);
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void composeTheServiceRoleCannotDisableTheTriggersNorTruncateTheAuditTrail() throws Exception {
        Map<String, Object> compose = yaml(DEPLOY.resolve("compose/compose.yaml")).get(0);
        Map<String, Object> services = (Map<String, Object>) compose.get("services");
        String database = at(services, "postgres", "environment", "POSTGRES_DB");
        String superuser = at(services, "postgres", "environment", "POSTGRES_USER");
        String service = at(services, "vigie", "environment", "QUARKUS_DATASOURCE_USERNAME");
        String migrator = null;
        String grantor = null;
        List<Path> grantFiles = new ArrayList<>();
        for (Map.Entry<String, Object> e : services.entrySet()) {
            String username = at(e.getValue(), "environment", "QUARKUS_DATASOURCE_USERNAME");
            Object migrates = at(e.getValue(), "environment", "QUARKUS_FLYWAY_MIGRATE_AT_START");
            if (username != null && !"false".equals(migrates)) {
                migrator = username;
            }
            Object commandNode = at(e.getValue(), "command");
            String command = String.valueOf(commandNode);
            if (command.contains("psql")) {
                Matcher u = Pattern.compile("-U\\s+(\\S+)").matcher(command);
                assertThat(u.find()).as(e.getKey() + " names its user").isTrue();
                grantor = u.group(1);
                Map<String, Path> mounts = new HashMap<>();
                for (Object v : Objects.requireNonNullElse((List<Object>) at(e.getValue(), "volumes"), List.of())) {
                    String[] parts = v.toString().split(":");
                    mounts.put(parts[1], DEPLOY.resolve("compose").resolve(parts[0]).normalize());
                }
                Matcher f = PSQL_FILE.matcher(command);
                while (f.find()) {
                    grantFiles.add(Objects.requireNonNull(mounts.get(f.group(1)), f.group(1) + " is mounted"));
                }
            }
        }
        assertThat(service).as("the role the service connects as").isNotNull();
        assertThat(migrator).as("the role the migrations run as").isNotNull();

        try (PgServer pg = new PgServer(dir.resolve("compose")).start()) {
            try (Connection c = pg.connect("postgres"); Statement s = c.createStatement()) {
                // as the postgres image makes them: POSTGRES_USER is the server's superuser and owns POSTGRES_DB
                s.execute("create role " + superuser + " login superuser");
                s.execute("create database " + database + " owner " + superuser);
            }
            Roles roles = new Roles(database, superuser, migrator, grantor, grantFiles, service);
            attack(pg, roles, "a-service-password");
        }
    }

    /**
     * Migrates as the migration step's role, applies the grants files as theirs, then attacks as the service's role.
     */
    private static void attack(PgServer pg, Roles r, String servicePassword) throws Exception {
        String url = pg.jdbcUrl(r.database());
        Flyway.configure().dataSource(url, r.migrator(), "").locations("classpath:db/migration").load().migrate();
        if (!r.grantFiles().isEmpty()) {
            try (Connection c = pg.connect(r.database(), r.grantor()); Statement s = c.createStatement()) {
                for (Path f : r.grantFiles()) {
                    for (String sql : statements(Files.readString(f), servicePassword)) {
                        s.execute(sql);
                    }
                }
            }
        }
        // a later migration, by the owner: its table is the service's to use too (default privileges)
        try (Connection c = pg.connect(r.database(), r.migrator()); Statement s = c.createStatement()) {
            s.execute("create table later_migration (id bigserial primary key, what text)");
        }
        try (Connection c = pg.connect(r.database(), r.service()); Statement s = c.createStatement()) {
            // the attacks: each must be refused by PostgreSQL (the first one passes when the service is the owner)
            s.execute("insert into audit_event (at, actor, action, target) values (now(), 'svc', 'LOGIN', 'x')");
            assertThatThrownBy(() -> s.execute("alter table audit_event disable trigger audit_event_append_only"))
                    .hasMessageContaining("must be owner");
            assertThatThrownBy(() -> s.execute("alter table audit_event disable trigger all"))
                    .hasMessageContaining("must be owner");
            assertThatThrownBy(() -> s.execute("truncate audit_event")).as("the service truncates audit_event")
                    .hasMessageContaining("permission denied");
            assertThatThrownBy(() -> s.execute("drop table audit_event")).hasMessageContaining("must be owner");
            assertThatThrownBy(() -> s.execute("drop trigger audit_event_append_only on audit_event"))
                    .hasMessageContaining("must be owner");
            assertThatThrownBy(() -> s.execute("set session_replication_role = replica"))
                    .hasMessageContaining("permission denied");
            assertThatThrownBy(() -> s.execute("delete from audit_event")).hasMessageContaining("append-only");
            assertThatThrownBy(() -> s.execute("update audit_event set actor = 'someone else'"))
                    .hasMessageContaining("append-only");
            assertThatThrownBy(() -> s.execute("create table sneaky (x int)"))
                    .hasMessageContaining("permission denied");
            assertThatThrownBy(() -> s.execute("create or replace function audit_event_append_only() returns trigger "
                    + "language plpgsql as $$ begin return new; end $$")).isInstanceOf(SQLException.class);
            assertThatThrownBy(() -> s.execute("delete from flyway_schema_history"))
                    .hasMessageContaining("permission denied");
            assertThat(value(s, "select count(*) from audit_event")).isEqualTo("1");
            // what made them fail
            assertThat(value(s, "select rolsuper or rolcreaterole or rolcreatedb or rolbypassrls or rolreplication "
                    + "from pg_roles where rolname = current_user")).as("the service's role has no power")
                    .isEqualTo("f");
            assertThat(value(s, "select count(*) from pg_class c join pg_namespace n on n.oid = c.relnamespace "
                    + "where n.nspname = 'public' and pg_has_role(current_user, c.relowner, 'USAGE')"))
                    .as("the service's role owns nothing (nor is it a member of the owner)").isEqualTo("0");

            // and its work: every table's rows, every sequence, Flyway's validation
            // (materialized: the privilege functions see only public's tables and sequences, whatever the plan)
            assertThat(value(s, "with t as materialized (select oid, relname from pg_class where relnamespace = "
                    + "'public'::regnamespace and relkind in ('r', 'p') and relname <> 'flyway_schema_history') "
                    + "select string_agg(relname, ',') from t where not (has_table_privilege(oid, 'select') and "
                    + "has_table_privilege(oid, 'insert') and has_table_privilege(oid, 'update') and "
                    + "has_table_privilege(oid, 'delete'))")).as("tables whose rows the service cannot read and write")
                    .isNull();
            assertThat(value(s, "with q as materialized (select oid, relname from pg_class where relnamespace = "
                    + "'public'::regnamespace and relkind = 'S') select string_agg(relname, ',') from q where not "
                    + "has_sequence_privilege(oid, 'usage')")).as("sequences the service cannot use").isNull();
            s.execute("insert into later_migration (what) values ('the service writes a later table')");
            assertThat(value(s, "select count(*) from flyway_schema_history")).isNotEqualTo("0");
        }
        Flyway.configure().dataSource(url, r.service(), "").locations("classpath:db/migration").load().validate();
    }

    /** The statements of a SQL file as psql runs it: {@code $$} bodies kept whole, psql's own commands resolved. */
    static List<String> statements(String sql, String servicePassword) {
        List<String> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        boolean dollar = false;
        for (String line : sql.split("\n", -1)) {
            String t = line.strip();
            if (!dollar && (t.startsWith("--") || t.isEmpty())) {
                continue;
            }
            if (!dollar && t.startsWith("\\")) {
                // \set service_password `cat /run/secrets/...`: what psql reads from the secret file
                assertThat(t).startsWith("\\set service_password ");
                continue;
            }
            current.append(line.replace(":'service_password'",
                    servicePassword == null ? ":'service_password'" : "'" + servicePassword.replace("'", "''") + "'"))
                    .append('\n');
            int count = line.split("\\$\\$", -1).length - 1;
            if (count % 2 == 1) {
                dollar = !dollar;
            }
            if (!dollar && t.endsWith(";")) {
                out.add(current.toString().strip());
                current.setLength(0);
            }
        }
        assertThat(current.toString().strip()).as("a statement without its ';'").isEmpty();
        return out;
    }

    private static String attributes(Map<String, Object> role) {
        StringBuilder b = new StringBuilder();
        for (String a : List.of("login", "superuser", "createdb", "createrole", "replication", "bypassrls",
                "inherit")) {
            Object v = role.get(a);
            boolean on = v == null ? a.equals("inherit") : Boolean.TRUE.equals(v); // CloudNativePG's defaults
            b.append(' ').append(on ? "" : "no").append(a);
        }
        return b.toString();
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> yaml(Path file) throws IOException {
        List<Map<String, Object>> out = new ArrayList<>();
        try (Reader r = Files.newBufferedReader(file)) {
            for (Object o : new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(r)) {
                out.add((Map<String, Object>) o);
            }
        }
        return out;
    }

    private static <T> T at(Object node, String... path) {
        return DeployFilesTest.at(node, path);
    }

    private static String value(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }
}
