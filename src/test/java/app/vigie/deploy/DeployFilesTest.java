package app.vigie.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * deploy/: every YAML file parses; the Kubernetes objects have what they need (probes, resources, Secret references
 * rather than secret values); every topic Vigie uses has its KafkaTopic and is created by the compose file; every
 * image is pinned (a version tag or a digest, never latest). The files are not run: no cluster, no Docker engine.
 */
class DeployFilesTest {
    /** deploy/, or another copy of it (-Dvigie.deploy-dir: an earlier version's, to see a test fail on it). */
    static final Path DEPLOY = Path.of(System.getProperty("vigie.deploy-dir", "deploy"));
    private static final Pattern PINNED = Pattern.compile("^[^:@\\s]+(?::v?[0-9][\\w.\\-]*|@sha256:[0-9a-f]{64})$");

    /** Every document of every YAML file under deploy/, with its file. */
    record Doc(Path file, Map<String, Object> body) {
    }

    @SuppressWarnings("unchecked")
    static List<Doc> docs() throws IOException {
        List<Doc> out = new ArrayList<>();
        try (Stream<Path> files = Files.walk(DEPLOY)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".yaml") || p.toString().endsWith(".yml"))
                    .sorted().toList()) {
                try (Reader r = Files.newBufferedReader(f)) {
                    for (Object o : new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(r)) {
                        assertThat(o).as(f + " holds a mapping per document").isInstanceOf(Map.class);
                        out.add(new Doc(f, (Map<String, Object>) o));
                    }
                }
            }
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    static <T> T at(Object node, String... path) {
        Object o = node;
        for (String p : path) {
            if (!(o instanceof Map<?, ?> m)) {
                return null;
            }
            o = m.get(p);
        }
        return (T) o;
    }

    @Test
    void everyFileParsesAndEveryObjectIsNamed() throws IOException {
        List<Doc> docs = docs();
        assertThat(docs).hasSizeGreaterThan(10);
        for (Doc d : docs) {
            if (d.file().toString().contains("kubernetes") && !d.file().endsWith("kustomization.yaml")) {
                assertThat((Object) at(d.body(), "apiVersion")).as(d.file() + " apiVersion").isNotNull();
                assertThat((Object) at(d.body(), "kind")).as(d.file() + " kind").isNotNull();
                assertThat((Object) at(d.body(), "metadata", "name")).as(d.file() + " metadata.name").isNotNull();
            }
        }
        Set<String> kinds = new TreeSet<>();
        docs.forEach(d -> {
            Object k = at(d.body(), "kind");
            if (k != null) {
                kinds.add(k.toString());
            }
        });
        assertThat(kinds).contains("Deployment", "Service", "ConfigMap", "HorizontalPodAutoscaler",
                "PodDisruptionBudget", "Kafka", "KafkaNodePool", "KafkaTopic", "Cluster");
    }

    @Test
    @SuppressWarnings("unchecked")
    void kustomizationsNameFilesThatExist() throws IOException {
        for (Doc d : docs()) {
            if (d.file().endsWith("kustomization.yaml")) {
                for (Object r : (List<Object>) at(d.body(), "resources")) {
                    assertThat(d.file().getParent().resolve(r.toString())).as(d.file() + " -> " + r).exists();
                }
            }
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void theDeploymentHasProbesResourcesAndOnlySecretReferences() throws IOException {
        Doc deployment = docs().stream().filter(d -> "Deployment".equals(at(d.body(), "kind"))).findFirst()
                .orElseThrow();
        List<Object> containers = at(deployment.body(), "spec", "template", "spec", "containers");
        assertThat(containers).isNotEmpty();
        for (Object c : containers) {
            for (String probe : List.of("startupProbe", "readinessProbe", "livenessProbe")) {
                assertThat((Object) at(c, probe, "httpGet", "path")).as(probe).isNotNull();
            }
        }
        List<Object> all = new ArrayList<>(containers);
        all.addAll(Objects.requireNonNullElse(at(deployment.body(), "spec", "template", "spec", "initContainers"),
                List.of()));
        for (Object c : all) {
            assertThat((Object) at(c, "resources", "requests", "cpu")).isNotNull();
            assertThat((Object) at(c, "resources", "requests", "memory")).isNotNull();
            assertThat((Object) at(c, "resources", "limits", "memory")).isNotNull();
            assertThat((Object) at(c, "securityContext", "allowPrivilegeEscalation")).isEqualTo(false);
            assertThat((Object) at(c, "securityContext", "readOnlyRootFilesystem")).isEqualTo(true);
            for (Object e : (List<Object>) at(c, "env")) {
                String name = at(e, "name");
                if (name.matches(".*(PASSWORD|SECRET|KEY).*")) {
                    assertThat((Object) at(e, "value")).as(name + " must not be written in the file").isNull();
                    assertThat((Object) at(e, "valueFrom", "secretKeyRef", "name")).as(name).isNotNull();
                }
            }
        }
        assertThat((Object) at(deployment.body(), "spec", "template", "spec", "securityContext", "runAsNonRoot"))
                .isEqualTo(true);
    }

    @Test
    void everyTopicVigieUsesIsDeclaredAndCreated() throws IOException {
        Properties props = new Properties();
        try (Reader r = Files.newBufferedReader(Path.of("src/main/resources/application.properties"))) {
            props.load(r);
        }
        List<String> topics = List.of(props.getProperty("vigie.kafka.topic"),
                props.getProperty("vigie.kafka.dead-letter-topic"), props.getProperty("vigie.alerts.topic"));
        assertThat(topics).doesNotContainNull();
        Set<String> declared = new TreeSet<>();
        for (Doc d : docs()) {
            if ("KafkaTopic".equals(at(d.body(), "kind"))) {
                declared.add(at(d.body(), "metadata", "name"));
            }
        }
        assertThat(declared).containsAll(topics);
        String compose = Files.readString(DEPLOY.resolve("compose/compose.yaml"));
        Path setup = DEPLOY.resolve("compose/kafka/setup.sh");
        if (Files.exists(setup)) {
            compose += Files.readString(setup);
        }
        for (String t : topics) {
            assertThat(compose).as("the compose file creates " + t).contains(t + ":");
        }
    }

    /**
     * The Deployment asks Kubernetes to run the service as non-root: the kubelet refuses to start an image whose
     * USER is a name ("has non-numeric user, cannot verify user is non-root"), so the image's USER is a number that
     * is not 0, or the container says runAsUser.
     */
    @Test
    void theImageRunsAsANumericUserThatKubernetesCanCheck() throws IOException {
        Matcher user = Pattern.compile("(?m)^USER\\s+(\\S+)\\s*$").matcher(Files.readString(
                DEPLOY.resolve("docker/Dockerfile")));
        assertThat(user.find()).as("the image names its user").isTrue();
        String uid = user.group(1).split(":")[0];
        assertThat(uid).as("USER " + user.group(1)).matches("[1-9][0-9]*");
    }

    @Test
    @SuppressWarnings("unchecked")
    void everyImageIsPinned() throws IOException {
        List<String> images = new ArrayList<>();
        for (Doc d : docs()) {
            collect(d.body(), images);
            if (d.file().endsWith("kustomization.yaml") && at(d.body(), "images") != null) {
                for (Object i : (List<Object>) at(d.body(), "images")) {
                    images.add(at(i, "newName") + ":" + at(i, "newTag"));
                }
            }
        }
        Matcher from = Pattern.compile("(?m)^FROM\\s+(\\S+)").matcher(Files.readString(
                DEPLOY.resolve("docker/Dockerfile")));
        while (from.find()) {
            images.add(from.group(1));
        }
        // the Deployment names the image "vigie", which the kustomization replaces by a pinned one
        images.removeIf("vigie"::equals);
        assertThat(images).hasSizeGreaterThan(4);
        for (String image : images) {
            assertThat(image).as("pinned: " + image).matches(PINNED);
            assertThat(image).doesNotEndWith(":latest");
        }
    }

    /**
     * Kubernetes: the service connects to PostgreSQL as a role of its own, which CloudNativePG makes with no power
     * and which owns nothing; the tables' owner (the Secret CloudNativePG makes for it) is given only to the init
     * containers, which migrate (the service's image, init-and-exit) and then grant (a file of the postgres
     * kustomization); the service does not migrate. DeployRolesTest applies the same files to a real PostgreSQL.
     */
    @Test
    @SuppressWarnings("unchecked")
    void kubernetesTheServiceConnectsAsARoleWithoutOwnershipAndTheOwnerOnlyMigrates() throws IOException {
        List<Doc> docs = docs();
        Map<String, Object> cluster = docs.stream().filter(d -> "Cluster".equals(at(d.body(), "kind"))).findFirst()
                .orElseThrow().body();
        String ownerSecret = at(cluster, "metadata", "name") + "-app";
        String owner = at(cluster, "spec", "bootstrap", "initdb", "owner");
        assertThat((Object) at(cluster, "spec", "enableSuperuserAccess")).isEqualTo(false);
        Map<String, Object> pod = at(docs.stream().filter(d -> "Deployment".equals(at(d.body(), "kind")))
                .findFirst().orElseThrow().body(), "spec", "template", "spec");
        Map<String, Object> service = ((List<Map<String, Object>>) pod.get("containers")).get(0);
        String serviceSecret = secretOf(service, "QUARKUS_DATASOURCE_USERNAME");
        assertThat(serviceSecret).as("the service is not given the owner's credentials").isNotEqualTo(ownerSecret);
        assertThat(secretOf(service, "QUARKUS_DATASOURCE_PASSWORD")).isEqualTo(serviceSecret);
        assertThat(envValue(service, "QUARKUS_FLYWAY_MIGRATE_AT_START")).isEqualTo("false");
        assertThat(envValue(service, "QUARKUS_FLYWAY_VALIDATE_AT_START")).isEqualTo("true");
        assertThat(String.valueOf(service.get("env"))).doesNotContain(ownerSecret);
        Map<String, Object> role = ((List<Map<String, Object>>) at(cluster, "spec", "managed", "roles")).stream()
                .filter(r -> serviceSecret.equals(at(r, "passwordSecret", "name"))).findFirst().orElseThrow();
        assertThat(role.get("name")).isNotEqualTo(owner);
        assertThat(role).containsEntry("login", true);
        for (String power : List.of("superuser", "createdb", "createrole", "replication", "bypassrls")) {
            assertThat(role).as(power).containsEntry(power, false);
        }
        assertThat(role).as("no inRoles: not a member of the owner").doesNotContainKey("inRoles");

        List<Map<String, Object>> init = (List<Map<String, Object>>) pod.get("initContainers");
        assertThat(init).extracting(c -> c.get("name")).containsExactly("migrate", "grants");
        Map<String, Object> migrate = init.get(0);
        assertThat(migrate.get("image")).isEqualTo(service.get("image"));
        assertThat(envValue(migrate, "QUARKUS_INIT_AND_EXIT")).isEqualTo("true");
        assertThat(envValue(migrate, "QUARKUS_FLYWAY_MIGRATE_AT_START")).isEqualTo("true");
        assertThat(secretOf(migrate, "QUARKUS_DATASOURCE_USERNAME")).isEqualTo(ownerSecret);
        assertThat(secretOf(migrate, "VIGIE_SESSION_KEY")).as("the migration step needs no other secret").isNull();
        Map<String, Object> grants = init.get(1);
        assertThat(secretOf(grants, "PGUSER")).isEqualTo(ownerSecret);
        String command = String.valueOf(grants.get("command"));
        assertThat(command).contains("ON_ERROR_STOP=1", "service-grants.sql");
        Path grantsSql = DEPLOY.resolve("kubernetes/postgres/service-grants.sql");
        assertThat(Files.readString(DEPLOY.resolve("kubernetes/postgres/kustomization.yaml")))
                .contains("vigie-db-grants", "service-grants.sql");
        String statements = String.join("\n", DeployRolesTest.statements(Files.readString(grantsSql), null));
        assertThat(statements).contains("to " + role.get("name"), "for role " + owner)
                .doesNotContainIgnoringCase("truncate").doesNotContainIgnoringCase("grant all")
                .doesNotContainIgnoringCase(" in role ");
    }

    /**
     * compose: the service connects as its own role, never as the server's superuser (the owner); it is given
     * neither the owner's password nor a say in the migrations, which a one-shot runs first as the owner, then the
     * role's grants (db-roles), and only then the service.
     */
    @Test
    @SuppressWarnings("unchecked")
    void composeTheServiceConnectsAsARoleWithoutOwnershipAndTheOwnerOnlyMigrates() throws IOException {
        Map<String, Object> compose = docs().stream().filter(d -> d.file().endsWith("compose.yaml")).findFirst()
                .orElseThrow().body();
        Map<String, Object> services = at(compose, "services");
        String owner = at(services, "postgres", "environment", "POSTGRES_USER");
        Map<String, Object> vigie = (Map<String, Object>) services.get("vigie");
        assertThat((Object) at(vigie, "environment", "QUARKUS_DATASOURCE_USERNAME")).isNotNull().isNotEqualTo(owner);
        assertThat((Object) at(vigie, "environment", "QUARKUS_FLYWAY_MIGRATE_AT_START")).isEqualTo("false");
        assertThat((Object) at(vigie, "environment", "QUARKUS_FLYWAY_VALIDATE_AT_START")).isEqualTo("true");
        assertThat((List<Object>) vigie.get("secrets")).contains("db_service_password").doesNotContain("db_password");
        assertThat(String.valueOf(vigie.get("command"))).contains("/run/secrets/db_service_password")
                .doesNotContain("/run/secrets/db_password");
        assertThat((Object) at(vigie, "depends_on", "db-roles", "condition"))
                .isEqualTo("service_completed_successfully");

        Map<String, Object> migrate = (Map<String, Object>) services.get("vigie-migrate");
        assertThat(migrate.get("image")).isEqualTo(vigie.get("image"));
        assertThat((Object) at(migrate, "environment", "QUARKUS_INIT_AND_EXIT")).isEqualTo("true");
        assertThat((Object) at(migrate, "environment", "QUARKUS_DATASOURCE_USERNAME")).isEqualTo(owner);
        assertThat((List<Object>) migrate.get("secrets")).containsExactly("db_password");
        assertThat(migrate.get("env_file")).as("the migration step is given no other secret").isNull();

        Map<String, Object> roles = (Map<String, Object>) services.get("db-roles");
        assertThat((Object) at(roles, "depends_on", "vigie-migrate", "condition"))
                .isEqualTo("service_completed_successfully");
        assertThat(String.valueOf(roles.get("command"))).contains("-U " + owner, "ON_ERROR_STOP=1",
                "service-role.sql", "service-grants.sql");
        String role = Files.readString(DEPLOY.resolve("compose/service-role.sql"));
        assertThat(role).contains("nosuperuser", "nocreatedb", "nocreaterole", "noreplication", "nobypassrls");
        // the passwords are files kept out of git
        String ignored = Files.readString(Path.of(".gitignore"));
        for (Object secret : ((Map<String, Object>) compose.get("secrets")).values()) {
            String file = at(secret, "file");
            String listed = file.contains("/") ? file.substring(0, file.indexOf('/') + 1) : file;
            assertThat(ignored.lines()).as(file + " is kept out of git").contains("deploy/compose/" + listed);
        }
    }

    /**
     * compose's Kafka asks every client for SASL, as the Kustomize one: no plaintext listener, the controller on
     * loopback only, ACLs on and nobody allowed where no ACL says so; its users and their ACLs are those of
     * kubernetes/kafka/users.yaml; the service connects as its two users, with passwords from secret files.
     */
    @Test
    @SuppressWarnings("unchecked")
    void composeKafkaRequiresSaslAndHasTheUsersAndAclsOfKubernetes() throws IOException {
        Properties server = new Properties();
        try (Reader r = Files.newBufferedReader(DEPLOY.resolve("compose/kafka/server.properties"))) {
            server.load(r);
        }
        Map<String, String> protocols = new HashMap<>();
        for (String entry : server.getProperty("listener.security.protocol.map").split(",")) {
            protocols.put(entry.split(":")[0], entry.split(":")[1]);
        }
        for (String listener : server.getProperty("listeners").split(",")) {
            String name = listener.substring(0, listener.indexOf("://"));
            assertThat(protocols.get(name)).as(listener + " asks for SASL").isEqualTo("SASL_PLAINTEXT");
        }
        assertThat(server.getProperty("listeners")).contains("CONTROLLER://127.0.0.1:");
        assertThat(server.getProperty("sasl.enabled.mechanisms")).isEqualTo("SCRAM-SHA-512");
        assertThat(server.getProperty("authorizer.class.name")).endsWith("StandardAuthorizer");
        assertThat(server.getProperty("allow.everyone.if.no.acl.found")).isEqualTo("false");
        assertThat(server.getProperty("super.users")).isEqualTo("User:admin");
        assertThat(String.join("\n", server.stringPropertyNames())).doesNotContainIgnoringCase("password")
                .doesNotContain("jaas");

        // the users and ACLs of Kubernetes, one by one in the setup script
        String setup = Files.readString(DEPLOY.resolve("compose/kafka/setup.sh"));
        int acls = 0;
        for (Doc d : docs()) {
            if (!"KafkaUser".equals(at(d.body(), "kind"))) {
                continue;
            }
            String user = at(d.body(), "metadata", "name");
            assertThat((Object) at(d.body(), "spec", "authentication", "type")).isEqualTo("scram-sha-512");
            assertThat(setup).contains(user + ":kafka_");
            for (Object acl : (List<Object>) at(d.body(), "spec", "authorization", "acls")) {
                StringBuilder line = new StringBuilder("acl --allow-principal User:" + user);
                for (Object op : (List<Object>) at(acl, "operations")) {
                    line.append(" --operation ").append(op);
                }
                line.append(" --").append((String) at(acl, "resource", "type")).append(' ')
                        .append((String) at(acl, "resource", "name"));
                if ("prefix".equals(at(acl, "resource", "patternType"))) {
                    line.append(" --resource-pattern-type prefixed");
                }
                assertThat(setup).as("compose gives " + user + " the ACL of users.yaml").contains(line + "\n");
                acls++;
            }
        }
        assertThat(acls).isEqualTo((int) setup.lines().filter(l -> l.startsWith("acl --")).count());

        Map<String, Object> compose = docs().stream().filter(d -> d.file().endsWith("compose.yaml")).findFirst()
                .orElseThrow().body();
        Map<String, Object> vigie = at(compose, "services", "vigie");
        assertThat((Object) at(vigie, "environment", "KAFKA_SECURITY_PROTOCOL")).isEqualTo("SASL_PLAINTEXT");
        assertThat((Object) at(vigie, "environment", "VIGIE_KAFKA_SASL_MECHANISM")).isEqualTo("SCRAM-SHA-512");
        assertThat((Object) at(vigie, "environment", "VIGIE_KAFKA_USERS_INTAKE_USERNAME")).isEqualTo("vigie-intake");
        assertThat((Object) at(vigie, "environment", "VIGIE_KAFKA_USERS_ALERTS_USERNAME")).isEqualTo("vigie-alerts");
        assertThat(String.valueOf(vigie.get("command"))).contains(
                "VIGIE_KAFKA_USERS_INTAKE_PASSWORD=\"$$(cat /run/secrets/kafka_intake_password)\"",
                "VIGIE_KAFKA_USERS_ALERTS_PASSWORD=\"$$(cat /run/secrets/kafka_alerts_password)\"");
        assertThat((Object) at(compose, "services", "kafka", "ports")).as("not published on the host").isNull();
    }

    @SuppressWarnings("unchecked")
    static String secretOf(Map<String, Object> container, String env) {
        for (Object e : Objects.requireNonNullElse((List<Object>) container.get("env"), List.of())) {
            if (env.equals(at(e, "name"))) {
                return at(e, "valueFrom", "secretKeyRef", "name");
            }
        }
        return null;
    }

    @SuppressWarnings("unchecked")
    static String envValue(Map<String, Object> container, String env) {
        for (Object e : Objects.requireNonNullElse((List<Object>) container.get("env"), List.of())) {
            if (env.equals(at(e, "name"))) {
                return at(e, "value");
            }
        }
        return null;
    }

    /** Every value of a key "image" or "imageName", anywhere in the document. */
    @SuppressWarnings("unchecked")
    private static void collect(Object node, List<String> out) {
        if (node instanceof Map<?, ?> m) {
            for (Map.Entry<?, ?> e : m.entrySet()) {
                if ((e.getKey().equals("image") || e.getKey().equals("imageName")) && e.getValue() instanceof String s) {
                    out.add(s);
                } else {
                    collect(e.getValue(), out);
                }
            }
        } else if (node instanceof List<?> l) {
            l.forEach(x -> collect(x, out));
        }
    }
}
