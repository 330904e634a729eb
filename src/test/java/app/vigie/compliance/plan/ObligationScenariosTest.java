package app.vigie.compliance.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.yaml.snakeyaml.Yaml;

import app.vigie.compliance.plan.ObligationPlanner.IncidentFacts;
import app.vigie.compliance.plan.ObligationPlanner.TenantCase;
import app.vigie.compliance.rules.RuleLoader;

/**
 * The table of scenarios of src/test/resources/compliance/scenarios.yaml (tenant profiles x regimes) planned on
 * the shipped compliance-rules/: every obligation expected, with its recipient, status, due time and basis, and no
 * other.
 */
class ObligationScenariosTest {
    private static final ObligationPlanner PLANNER =
            new ObligationPlanner(RuleLoader.load(java.nio.file.Path.of("compliance-rules")));

    static Stream<Arguments> scenarios() throws Exception {
        try (InputStream in = ObligationScenariosTest.class.getResourceAsStream("/compliance/scenarios.yaml")) {
            List<Map<String, Object>> all = new Yaml().load(in);
            return all.stream().map(s -> Arguments.of(s.get("name"), s));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    @SuppressWarnings("unchecked")
    void plansTheExpectedObligations(String name, Map<String, Object> s) {
        Map<String, Object> p = (Map<String, Object>) s.get("provider");
        ProviderProfile provider = new ProviderProfile((String) p.get("country"),
                Set.copyOf((List<String>) p.get("regimes")));
        List<TenantCase> tenants = new ArrayList<>();
        Map<String, List<Completion>> completions = new HashMap<>();
        Map<String, Object> t = (Map<String, Object>) s.get("tenant");
        if (t != null) {
            String id = (String) t.get("id");
            ControllerProfile profile = Boolean.TRUE.equals(t.get("unmapped")) ? ControllerProfile.unmapped(id)
                    : new ControllerProfile(id, true, id + " SA", (String) t.get("country"),
                            Set.copyOf((List<String>) t.getOrDefault("jurisdictions", List.of())),
                            Set.copyOf((List<String>) t.getOrDefault("sectors", List.of())),
                            t.get("alert_delay") == null ? null : Duration.parse((String) t.get("alert_delay")));
            tenants.add(new TenantCase(profile, facts(t)));
            completions(id, t, completions);
        }
        completions(null, p, completions);
        Object dismissed = s.get("dismissed");
        List<Obligation> plan = PLANNER.plan(new IncidentFacts(instant(s.get("detected_at")), dismissed != null,
                (String) dismissed), provider, facts(p), tenants, completions, instant(s.get("now")));

        List<String> got = plan.stream().map(ObligationScenariosTest::line).sorted().toList();
        List<String> expected = ((String) s.get("expect")).lines().map(String::strip).filter(l -> !l.isEmpty())
                .sorted().toList();
        assertThat(got).as(name).containsExactlyElementsOf(expected);
        assertThat(new LinkedHashSet<>(plan.stream().map(Obligation::key).toList())).as("keys are unique")
                .hasSize(plan.size());
        for (Obligation o : plan) {
            assertThat(o.status() == Obligation.Status.NOT_REQUIRED ? o.reason() : "n/a").as(o.key())
                    .isNotBlank();
            if (o.recipientName() == null) {
                assertThat(o.reason()).as("an unknown recipient is said: " + o.key()).contains("find the competent");
            }
        }
    }

    static String line(Obligation o) {
        String status = o.doneLate() ? "DONE_LATE" : o.status().name();
        return (o.tenant() == null ? "provider" : o.tenant()) + " " + o.rule() + " " + o.recipient() + " " + status
                + " " + (o.dueAt() == null ? "-" : o.dueAt()) + " " + (o.dueBasis() == null ? "-" : o.dueBasis());
    }

    @SuppressWarnings("unchecked")
    static CaseFacts facts(Map<String, Object> m) {
        Map<String, Decision> decisions = new HashMap<>();
        ((Map<String, String>) m.getOrDefault("decisions", Map.of())).forEach((k, v) -> {
            String[] parts = v.split(" ");
            decisions.put(k, new Decision(k, Boolean.parseBoolean(parts[0]), Instant.parse(parts[1]), "test " + k));
        });
        String severity = (String) m.get("severity");
        return new CaseFacts(instant(m.get("aware_at")), "test", decisions, severity,
                severity == null ? null : "the controller's decision");
    }

    @SuppressWarnings("unchecked")
    static void completions(String tenant, Map<String, Object> m, Map<String, List<Completion>> out) {
        ((Map<String, Object>) m.getOrDefault("completions", Map.of())).forEach((k, v) -> {
            String[] ruleAndRecipient = k.split(" ");
            out.computeIfAbsent(Obligation.key(tenant, ruleAndRecipient[0], ruleAndRecipient[1]), x -> new ArrayList<>())
                    .add(new Completion(null, instant(v), "receipt-1", null, "test", instant(v)));
        });
    }

    static Instant instant(Object v) {
        return v == null ? null : v instanceof Date d ? d.toInstant() : Instant.parse(v.toString());
    }
}
