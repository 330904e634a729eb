package app.vigie.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The runtime is a plain-Java library: the service may depend on it, never the reverse, and it uses no framework.
 * Its one library is the Kafka client, for the Kafka sink, and only the sinks ({@code sim}) may use it: the pool,
 * the engine and the log writer stay plain Java. Checked on the compiled classes (every type a class refers to is
 * named in its constant pool) and on the POM.
 */
class DependencyDirectionTest {
    private static final List<String> FORBIDDEN = List.of("io/quarkus", "jakarta/", "javax/ws", "io/smallrye",
            "io/vertx", "org/jboss", "com/fasterxml", "app/vigie/auditlog", "app/vigie/security",
            "app/vigie/embedded", "app/vigie/problem", "app/vigie/db", "app/vigie/audit/");
    private static final String KAFKA = "org/apache/kafka";
    private static final List<String> LIBRARIES = List.of("kafka-clients");

    @Test
    void compiledClassesReferNoServiceOrFrameworkType() throws IOException {
        Path classes = Path.of("target", "classes");
        assertThat(classes).isDirectory();
        List<String> offences = new ArrayList<>();
        int checked = 0;
        try (Stream<Path> files = Files.walk(classes)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".class")).toList()) {
                checked++;
                String text = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1);
                for (String forbidden : FORBIDDEN) {
                    if (text.contains(forbidden)) {
                        offences.add(classes.relativize(f) + " refers to " + forbidden);
                    }
                }
                if (text.contains(KAFKA) && !classes.relativize(f).toString().startsWith("app/vigie/runtime/sim/")) {
                    offences.add(classes.relativize(f) + " refers to the Kafka client outside the sinks");
                }
            }
        }
        assertThat(checked).isPositive();
        assertThat(offences).isEmpty();
    }

    @Test
    void thePomHasNoDependencyOutsideTestsButTheKafkaClient() throws Exception {
        var doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(Path.of("pom.xml").toFile());
        NodeList deps = doc.getElementsByTagName("dependency");
        assertThat(deps.getLength()).isPositive();
        for (int i = 0; i < deps.getLength(); i++) {
            Element d = (Element) deps.item(i);
            NodeList scope = d.getElementsByTagName("scope");
            String artifact = d.getElementsByTagName("artifactId").item(0).getTextContent();
            if (LIBRARIES.contains(artifact)) {
                continue;
            }
            assertThat(scope.getLength() == 1 ? scope.item(0).getTextContent() : "compile")
                    .as("scope of %s", artifact).isEqualTo("test");
        }
    }
}
