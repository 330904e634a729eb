package app.vigie.build;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * Every class that declares tests is one the build runs: its name matches Surefire's includes (Test*, *Test, *Tests,
 * *TestCase) or Failsafe's (IT*, *IT, *ITCase). A property class named *Properties ran nowhere until this check.
 */
class TestDiscoveryTest {
    private static final Pattern TEST_ANNOTATION = Pattern.compile(
            "@(?:[\\w.]+\\.)?(Test|Property|Example|ParameterizedTest|RepeatedTest|TestFactory|TestTemplate)\\b");
    private static final Pattern RUN_BY_MAVEN = Pattern.compile(
            "(Test\\w*|\\w*Test|\\w*Tests|\\w*TestCase|IT\\w*|\\w*IT|\\w*ITCase)");

    @Test
    void everyClassWithTestsIsRunByTheBuild() throws IOException {
        List<Path> roots = Stream.of(Path.of("src/test/java"), Path.of("inference-runtime/src/test/java"))
                .filter(Files::isDirectory).toList();
        assertThat(roots).as("run from the project's root").isNotEmpty();
        List<String> missed;
        List<String> withTests;
        try (Stream<Path> files = roots.stream().flatMap(TestDiscoveryTest::walk)) {
            withTests = files.filter(p -> p.toString().endsWith(".java")).filter(TestDiscoveryTest::declaresTests)
                    .map(p -> p.getFileName().toString().replace(".java", "")).toList();
        }
        missed = withTests.stream().filter(n -> !RUN_BY_MAVEN.matcher(n).matches()).toList();
        assertThat(withTests).as("test classes found").hasSizeGreaterThan(50).contains("TestDiscoveryTest");
        assertThat(missed).as("classes with tests that Surefire and Failsafe would not run").isEmpty();
    }

    private static Stream<Path> walk(Path root) {
        try {
            return Files.walk(root).toList().stream();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean declaresTests(Path file) {
        try {
            return TEST_ANNOTATION.matcher(Files.readString(file)).find();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
