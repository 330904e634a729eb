package app.vigie.security;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HEAD;
import jakarta.ws.rs.OPTIONS;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;

/**
 * Every JAX-RS endpoint of the service, found by reflection on its compiled classes (tests left out): each resource
 * method as {@code METHOD /path/{template}}, so that a test can say which of them it has not exercised.
 */
final class JaxRsEndpoints {
    private static final List<Class<? extends Annotation>> METHODS = List.of(GET.class, POST.class, PUT.class,
            DELETE.class, PATCH.class, HEAD.class, OPTIONS.class);
    private static final Pattern PARAM = Pattern.compile("\\{\\s*\\w[\\w.-]*\\s*(?::\\s*((?:[^{}]|\\{[^{}]*\\})+))?\\}");

    private JaxRsEndpoints() {
    }

    /** Every resource method of the service: {@code METHOD /path}, sorted. */
    static Set<String> all() {
        Set<String> out = new TreeSet<>();
        for (JavaClass c : new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("app.vigie")) {
            if (!c.isAnnotatedWith(Path.class)) {
                continue;
            }
            Class<?> type = c.reflect();
            String base = type.getAnnotation(Path.class).value();
            for (Method m : type.getMethods()) {
                for (Class<? extends Annotation> verb : METHODS) {
                    if (m.isAnnotationPresent(verb)) {
                        Path sub = m.getAnnotation(Path.class);
                        out.add(verb.getSimpleName() + " " + join(base, sub == null ? "" : sub.value()));
                    }
                }
            }
        }
        return out;
    }

    /** Whether {@code exercised} ({@code METHOD /concrete/path?query}) is a call of {@code endpoint}. */
    static boolean matches(String endpoint, String exercised) {
        String[] e = endpoint.split(" ", 2);
        String[] x = exercised.split(" ", 2);
        if (!e[0].equals(x[0])) {
            return false;
        }
        String path = x[1].contains("?") ? x[1].substring(0, x[1].indexOf('?')) : x[1];
        StringBuilder regex = new StringBuilder();
        Matcher m = PARAM.matcher(e[1]);
        int at = 0;
        while (m.find()) {
            regex.append(Pattern.quote(e[1].substring(at, m.start())));
            regex.append(m.group(1) == null ? "[^/]+" : "(?:" + m.group(1) + ")");
            at = m.end();
        }
        regex.append(Pattern.quote(e[1].substring(at)));
        return path.matches(regex.toString());
    }

    private static String join(String base, String sub) {
        return Stream.of(strip(base), strip(sub)).filter(s -> !s.isEmpty())
                .collect(Collectors.joining("/", "/", ""));
    }

    private static String strip(String s) {
        return s.replaceAll("^/+|/+$", "");
    }
}
