package app.vigie.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
    private static final Path DEPLOY = Path.of("deploy");
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
            assertThat((Object) at(c, "resources", "requests", "cpu")).isNotNull();
            assertThat((Object) at(c, "resources", "requests", "memory")).isNotNull();
            assertThat((Object) at(c, "resources", "limits", "memory")).isNotNull();
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
        for (String t : topics) {
            assertThat(compose).as("the compose file creates " + t).contains(t + ":");
        }
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
        images.remove("vigie");
        assertThat(images).hasSizeGreaterThan(4);
        for (String image : images) {
            assertThat(image).as("pinned: " + image).matches(PINNED);
            assertThat(image).doesNotEndWith(":latest");
        }
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
