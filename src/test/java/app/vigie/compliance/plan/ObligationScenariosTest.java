package app.vigie.compliance.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import app.vigie.compliance.rules.ObligationRule;
import app.vigie.compliance.rules.Regime;
import app.vigie.compliance.rules.RuleLoader;
import app.vigie.compliance.rules.RuleSet;

/**
 * The worked scenarios of compliance-rules/scenarios/ planned on the shipped compliance-rules/: each file holds a
 * request of {@code POST /api/obligations/plan} (read by the same {@link PlanRequest}), the law that decides it,
 * and every obligation expected, worked out by hand; any other obligation is a failure. A line:
 * {@code <tenant|provider> <rule> <recipient> <STATUS|DONE_LATE> <due|-> <basis|-> [limit=<outer limit>]
 * [code=<reason code>]}.
 */
class ObligationScenariosTest {
    static final Path DIR = Path.of("compliance-rules/scenarios");
    private static final RuleSet RULES = RuleLoader.load(Path.of("compliance-rules"));
    private static final ObligationPlanner PLANNER = new ObligationPlanner(RULES);
    private static final ProviderProfile DEFAULT_PROVIDER = new ProviderProfile("FR", Set.of("nis2"));

    static Stream<Arguments> scenarios() throws IOException {
        try (Stream<Path> files = Files.list(DIR)) {
            return files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList().stream()
                    .map(f -> Arguments.of(f.getFileName().toString(), f));
        }
    }

    static JsonNode read(Path file) throws IOException {
        return new YAMLMapper().readTree(file.toFile());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void plansTheExpectedObligations(String name, Path file) throws IOException {
        JsonNode s = read(file);
        assertThat(s.path("name").asText()).as("a scenario has a name").isNotBlank();
        assertThat(s.path("law").asText()).as("a scenario says which texts decide it").isNotBlank();
        PlanRequest request = PlanRequest.read(s.get("request"), DEFAULT_PROVIDER, PLANNER, Instant.EPOCH);
        List<Obligation> plan = request.plan(PLANNER);

        List<String> got = plan.stream().map(ObligationScenariosTest::line).sorted().toList();
        List<String> expected = new ArrayList<>();
        s.get("expect").forEach(l -> expected.add(l.asText().strip()));
        assertThat(got).as(name).containsExactlyElementsOf(expected.stream().sorted().toList());
        assertThat(new LinkedHashSet<>(plan.stream().map(Obligation::key).toList())).as("keys are unique")
                .hasSize(plan.size());
        for (Obligation o : plan) {
            if (o.status() == Obligation.Status.NOT_REQUIRED) {
                assertThat(o.reasonCode()).as("a reason code: " + o.key()).isNotNull();
                assertThat(o.reason()).as("a reason: " + o.key()).isNotBlank();
            }
            if (o.recipientName() == null) {
                assertThat(o.reason()).as("an unknown recipient is said: " + o.key()).containsAnyOf(
                        "find the competent", "unknown");
            }
        }
    }

    /** Every rule of the shipped files is exercised by at least one scenario, so an edit to any of them shows. */
    @Test
    void everyRuleAppearsInAScenario() throws IOException {
        Set<String> seen = new TreeSet<>();
        for (Arguments a : scenarios().toList()) {
            read((Path) a.get()[1]).get("expect").forEach(l -> seen.add(l.asText().strip().split(" ")[1]));
        }
        Set<String> all = new TreeSet<>();
        for (Regime g : RULES.regimes()) {
            g.obligations().stream().map(ObligationRule::id).forEach(all::add);
        }
        all.removeAll(seen);
        assertThat(all).as("rules no scenario plans").isEmpty();
    }

    static String line(Obligation o) {
        String status = o.doneLate() ? "DONE_LATE" : o.status().name();
        return (o.tenant() == null ? "provider" : o.tenant()) + " " + o.rule() + " " + o.recipient() + " " + status
                + " " + (o.dueAt() == null ? "-" : o.dueAt()) + " " + (o.dueBasis() == null ? "-" : o.dueBasis())
                + (o.outerLimitAt() == null ? "" : " limit=" + o.outerLimitAt())
                + (o.reasonCode() == null ? "" : " code=" + o.reasonCode());
    }
}
