package app.vigie.web.csrf;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;

import org.junit.jupiter.api.Test;

/**
 * Every state-changing method of the dashboard's pages (package app.vigie.web) carries {@link DashboardForm}, so
 * {@link CsrfFilter} checks its token: a new form action without it fails here, not in production. The one exception
 * is named, with its reason.
 */
class CsrfCoverageTest {
    /**
     * Actions of people without a session, hence without a CSRF token to check: the acknowledgement link of an alert
     * (the link's secret token is the proof; a forger without it acknowledges nothing, and one with it could click).
     */
    private static final List<String> WITHOUT_SESSION = List.of("app.vigie.web.portal.AckPage.acknowledge");

    @Test
    void everyDashboardActionIsChecked() throws IOException, URISyntaxException, ClassNotFoundException {
        Path root = Path.of(CsrfFilter.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<String> unchecked = new ArrayList<>();
        int actions = 0;
        try (Stream<Path> files = Files.walk(root.resolve("app/vigie/web"))) {
            for (Path f : files.filter(x -> x.toString().endsWith(".class")).toList()) {
                String name = root.relativize(f).toString().replace('/', '.').replaceAll("\\.class$", "");
                for (Method m : Class.forName(name).getDeclaredMethods()) {
                    boolean changes = m.isAnnotationPresent(POST.class) || m.isAnnotationPresent(PUT.class)
                            || m.isAnnotationPresent(DELETE.class) || m.isAnnotationPresent(PATCH.class);
                    if (changes) {
                        actions++;
                        if (!m.isAnnotationPresent(DashboardForm.class)) {
                            unchecked.add(name + "." + m.getName());
                        }
                    }
                }
            }
        }
        assertThat(actions).as("the dashboard's actions found").isGreaterThanOrEqualTo(4);
        assertThat(unchecked).containsExactlyElementsOf(WITHOUT_SESSION);
    }
}
