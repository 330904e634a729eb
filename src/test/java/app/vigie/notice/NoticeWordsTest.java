package app.vigie.notice;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import app.vigie.compliance.plan.Obligation;
import app.vigie.compliance.plan.ObligationPlanner;
import app.vigie.compliance.plan.ProviderProfile;
import app.vigie.compliance.rules.Applicability;
import app.vigie.compliance.rules.Clock;
import app.vigie.compliance.rules.ObligationRule;
import app.vigie.compliance.rules.Regime;
import app.vigie.compliance.rules.RuleLoader;
import app.vigie.compliance.rules.RuleSet;
import app.vigie.detection.core.Rule;
import app.vigie.incident.IncidentStatus;
import app.vigie.pack.RegulatorPackService;

/**
 * templates/notices/words.yaml has words for every code a document can show, in every language: each enum of the
 * planner and the detector, each regime, decision and recipient of the shipped rules. A new code without its words
 * fails here, not in a letter to a regulator.
 */
class NoticeWordsTest {

    @Test
    @SuppressWarnings("unchecked")
    void everyCodeHasItsWordsInEveryLanguage() throws Exception {
        Words words = new Words((Map<String, Map<String, Map<String, String>>>) (Map<?, ?>) new Yaml().load(
                Files.readString(Path.of("templates/notices/words.yaml"))));
        RuleSet rules = RuleLoader.load(Path.of("compliance-rules"));
        Map<String, List<String>> codes = new LinkedHashMap<>();
        codes.put("kind", names(ObligationRule.Kind.values()));
        codes.put("status", names(Obligation.Status.values()));
        codes.put("condition", names(Obligation.Condition.values()));
        codes.put("basis", names(Obligation.DueBasis.values()));
        codes.put("reason", names(Obligation.ReasonCode.values()));
        codes.put("severity", List.of("LOW", "MEDIUM", "HIGH", "VERY_HIGH"));
        codes.put("incident_status", names(IncidentStatus.values()));
        codes.put("finding", names(Rule.values()));
        codes.put("pack", names(RegulatorPackService.Part.values()));
        codes.put("regime", rules.regimes().stream().map(Regime::id).toList());
        Set<String> decisions = new TreeSet<>();
        Set<String> recipients = new TreeSet<>(List.of("unknown"));
        ObligationPlanner planner = new ObligationPlanner(rules);
        for (Regime g : rules.regimes()) {
            for (ObligationRule r : g.obligations()) {
                decisions.addAll(r.decisions());
                decisions.addAll(r.exceptions());
                r.sooner().forEach(s -> decisions.add(s.decision()));
                if (r.clock() != null && r.clock().ref() != null && r.clock().origin()
                        == Clock.Origin.DECISION) {
                    decisions.add(r.clock().ref());
                }
                if (RuleLoader.RECIPIENTS.contains(r.recipient()) && !RuleLoader.BY_COUNTRY.contains(r.recipient())) {
                    recipients.add(r.recipient());
                }
            }
        }
        assertThat(planner.decisions(null, new ProviderProfile("FR", Set.of("nis2")))).isSubsetOf(decisions);
        codes.put("decision", List.copyOf(decisions));
        // every sector a rule names: the notification form gives a tenant's sectors in words
        Set<String> sectors = new TreeSet<>();
        for (Regime g : rules.regimes()) {
            sectors(g.appliesTo(), sectors);
            for (ObligationRule r : g.obligations()) {
                sectors(r.appliesTo(), sectors);
                if (r.relief() != null) {
                    sectors.addAll(r.relief().eligibleSectors());
                    sectors.addAll(r.relief().excludedSectors());
                }
            }
        }
        assertThat(sectors).contains("financial", "insurance-undertaking", "credit-institution");
        codes.put("sector", List.copyOf(sectors));
        codes.put("recipient", List.copyOf(recipients));
        List<String> missing = new ArrayList<>();
        for (String lang : Words.LANGUAGES) {
            codes.forEach((group, list) -> list.stream().filter(c -> !words.has(lang, group, c))
                    .forEach(c -> missing.add(lang + " " + group + " " + c)));
        }
        assertThat(missing).as("codes without words in templates/notices/words.yaml").isEmpty();
        // and both languages say the same things
        assertThat(words.all("fr").keySet()).isEqualTo(words.all("en").keySet());
        words.all("en").forEach((group, w) -> assertThat(words.all("fr").get(group).keySet()).as(group)
                .isEqualTo(w.keySet()));
    }

    private static void sectors(Applicability a, Set<String> into) {
        if (a instanceof Applicability.SectorIn in) {
            into.addAll(in.codes());
        } else if (a instanceof Applicability.Any any) {
            any.of().forEach(x -> sectors(x, into));
        } else if (a instanceof Applicability.All all) {
            all.of().forEach(x -> sectors(x, into));
        }
    }

    /**
     * A French document names each special category (GDPR Art. 9 and 10) in French: every loop over
     * specialCategories in a French notice template has a case for every code a controller can state, so that no
     * code falls through to its English spelling.
     */
    @Test
    void everySpecialCategoryIsNamedInFrenchInEveryFrenchDocument() throws Exception {
        // the register lists GDPR Art. 9's categories (article9) and says Art. 10's data apart
        Pattern loop = Pattern.compile("\\{#for (\\w+) in [\\w.]*(specialCategories|article9)}(.*?)\\{/for}",
                Pattern.DOTALL);
        List<String> missing = new ArrayList<>();
        int loops = 0;
        try (Stream<Path> files = Files.list(Path.of("templates/notices"))) {
            for (Path p : files.filter(x -> x.toString().endsWith(".fr.html")).sorted().toList()) {
                String text = Files.readString(p);
                for (Matcher m = loop.matcher(text); m.find();) {
                    loops++;
                    boolean article9 = m.group(2).equals("article9");
                    String body = m.group(3);
                    new TreeSet<>(Statements.SPECIAL).stream()
                            .filter(c -> !(article9 && c.equals("criminal_convictions")))
                            .filter(c -> !body.contains("{#case '" + c + "'}"))
                            .forEach(c -> missing.add(p.getFileName() + ": " + c));
                    if (article9 && !text.contains("condamnations pénales")) {
                        missing.add(p.getFileName() + ": criminal_convictions (Art. 10) said apart");
                    }
                }
            }
        }
        assertThat(loops).as("French templates listing special categories").isGreaterThanOrEqualTo(3);
        assertThat(missing).as("special categories without their French words").isEmpty();
    }

    /** Every rule of the shipped files has its citation in every language. */
    @Test
    void everyRuleCitesItsSourceInEveryLanguage() {
        RuleSet rules = RuleLoader.load(Path.of("compliance-rules"));
        Stream.of(rules.regimes().toArray(Regime[]::new)).flatMap(g -> g.obligations().stream()).forEach(r -> {
            for (String lang : Words.LANGUAGES) {
                assertThat(r.sources().get(lang)).as(r.id() + " " + lang).isNotBlank();
            }
            assertThat(r.sources().get("fr")).as(r.id() + ": a French citation, not the English one")
                    .isNotEqualTo(r.sources().get("en"));
            if (r.note() != null) {
                assertThat(r.notes().get("fr")).as(r.id() + ": its note in French").isNotBlank()
                        .isNotEqualTo(r.notes().get("en"));
            }
        });
    }

    private static List<String> names(Enum<?>[] values) {
        return Stream.of(values).map(Enum::name).toList();
    }
}
