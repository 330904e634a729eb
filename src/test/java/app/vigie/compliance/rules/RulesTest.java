package app.vigie.compliance.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import app.vigie.compliance.rules.ObligationRule.Kind;
import app.vigie.compliance.rules.ObligationRule.Trigger;

/** compliance-rules/ as shipped reads and checks; a broken file is refused with its file, line and problem. */
class RulesTest {
    private static final Path DIR = Path.of("compliance-rules");

    static Map<String, String> shipped() throws IOException {
        Map<String, String> files = new TreeMap<>();
        try (var s = Files.list(DIR)) {
            for (Path p : s.filter(p -> p.toString().endsWith(".yaml")).toList()) {
                files.put(p.getFileName().toString(), Files.readString(p));
            }
        }
        return files;
    }

    @Test
    void theShippedRulesReadAndSayWhatTheLawSays() {
        RuleSet rules = RuleLoader.load(DIR);
        assertThat(rules.regimes()).extracting(Regime::id).containsExactlyInAnyOrder("gdpr", "uk-gdpr", "ch-nfadp",
                "nis2", "dora", "eu-ai-act", "hipaa", "us-ca", "tn");
        ObligationRule art33 = rules.regime("gdpr").orElseThrow().obligations().stream()
                .filter(o -> o.id().equals("gdpr-33-1")).findFirst().orElseThrow();
        assertThat(art33.due().exact()).isEqualTo(Duration.ofHours(72));
        assertThat(art33.clock()).isEqualTo(Clock.of(Clock.Origin.CONTROLLER_AWARENESS));
        assertThat(art33.trigger()).isEqualTo(Trigger.RISK);
        assertThat(art33.late()).isEqualTo("reasons");
        assertThat(art33.phased()).isTrue();
        assertThat(rules.authorities().of("supervisory_authority", "FR").orElseThrow().name()).contains("CNIL");
        assertThat(rules.authorities().sets().get("eea")).hasSize(30).contains("NO", "IS", "LI").doesNotContain("GB",
                "CH");
        ObligationRule tn = rules.regime("tn").orElseThrow().obligations().get(0);
        assertThat(tn.kind()).isEqualTo(Kind.NONE);
        assertThat(tn.note()).contains("2004-63").contains("pending");
        ObligationRule dora = rules.regime("dora").orElseThrow().obligations().get(0);
        assertThat(dora.cap().due().exact()).isEqualTo(Duration.ofHours(24));
        assertThat(rules.severity().levels().floorEntry(2.99).getValue()).isEqualTo("MEDIUM");
        assertThat(rules.severity().levels().floorEntry(3.0).getValue()).isEqualTo("HIGH");
    }

    @Test
    void calendarPeriodsKeepTheWallClockTimeAcrossAChangeOfTimeAndHoursDoNot() {
        ZoneId paris = ZoneId.of("Europe/Paris");
        // 2027-03-27 10:00 in Paris is 09:00 UTC (winter time); clocks go forward on 2027-03-28.
        Instant before = Instant.parse("2027-03-27T09:00:00Z");
        assertThat(Delay.parse("P1D").after(before, paris)).as("10:00 Paris, summer time")
                .isEqualTo(Instant.parse("2027-03-28T08:00:00Z"));
        assertThat(Delay.parse("PT24H").after(before, paris)).as("24 elapsed hours: 11:00 Paris")
                .isEqualTo(Instant.parse("2027-03-28T09:00:00Z"));
        // One month from 31 January: the end of February (no 31 February).
        assertThat(Delay.parse("P1M").after(Instant.parse("2027-01-31T09:00:00Z"), paris))
                .isEqualTo(Instant.parse("2027-02-28T09:00:00Z"));
        // Back to winter time on 2026-10-25: 72 hours are 72 hours.
        assertThat(Delay.parse("PT72H").after(Instant.parse("2026-10-24T22:30:00Z"), paris))
                .isEqualTo(Instant.parse("2026-10-27T22:30:00Z"));
        assertThat(Delay.parse("P3D").after(Instant.parse("2026-10-24T22:30:00Z"), paris)).as("00:30 Paris")
                .isEqualTo(Instant.parse("2026-10-27T23:30:00Z"));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            a typo in a key            | gdpr.yaml | '    trigger: risk' | '    triger: risk'        | gdpr.yaml line 27: 'obligations[1]': unknown key 'triger'
            an unknown trigger         | gdpr.yaml | '    trigger: risk' | '    trigger: sometimes'  | gdpr.yaml line 27: 'obligations[1].trigger': unknown value 'sometimes': one of always, risk, high_risk, decision
            a period that is not one   | gdpr.yaml | '    due: PT72H'    | '    due: 72 hours'       | gdpr.yaml line 29: 'obligations[1].due': not a period such as PT72H, P15D or P1M: '72 hours'
            an unknown recipient       | uk-gdpr.yaml | '    recipient: ico' | '    recipient: icoo' | uk-gdpr.yaml line 23: 'obligations[1].recipient': unknown recipient 'icoo'
            a clock after nothing      | nis2.yaml | '      after: nis2-23-4b' | '      after: nis2-23-4x' | nis2.yaml line 35: 'obligations[2].clock': 'after: nis2-23-4x' names no obligation of this regime
            a bad zone                 | dora.yaml | 'zone: Europe/Paris' | 'zone: Europe/Pariss'    | dora.yaml line 4: 'zone': not a time zone such as Europe/Paris: 'Europe/Pariss'
            an unknown country set     | gdpr.yaml | '    - country_in: eea' | '    - country_in: eeaa' | gdpr.yaml line 9: 'applies_to.any[0].country_in': 'eeaa' is neither a country code
            a decision left unnamed    | dora.yaml | '    decision: major\\n    clock: decision' | '    clock: decision' | dora.yaml line 10: 'obligations[0]': trigger 'decision' needs 'decision'
            a duty of nothing, unsaid  | tn.yaml   | '    note: >-'      | '    source2: x'          | tn.yaml line 15: 'obligations[0]': unknown key 'source2'
            YAML that does not parse   | gdpr.yaml | 'id: gdpr'          | 'id: [gdpr'               | gdpr.yaml line
            """)
    void aBrokenFileIsRefusedWithItsFileLineAndProblem(String what, String file, String from, String to,
            String message) throws IOException {
        Map<String, String> files = shipped();
        String text = files.get(file);
        String fromText = from.replace("\\n", "\n");
        assertThat(text).as("the fixture still finds its line").contains(fromText);
        files.put(file, text.replaceFirst(java.util.regex.Pattern.quote(fromText),
                java.util.regex.Matcher.quoteReplacement(to.replace("\\n", "\n"))));
        assertThatThrownBy(() -> RuleLoader.load(files, "")).isInstanceOf(InvalidRules.class)
                .hasMessageStartingWith(message);
    }

    @Test
    void duplicateIdsAndMissingFilesAreRefused() throws IOException {
        Map<String, String> files = shipped();
        files.put("gdpr-copy.yaml", files.get("gdpr.yaml").replace("id: gdpr\n", "id: gdpr-copy\n"));
        assertThatThrownBy(() -> RuleLoader.load(files, "")).isInstanceOf(InvalidRules.class)
                .hasMessageContaining("obligation id 'gdpr-33-2' is used by another obligation");
        Map<String, String> noSeverity = shipped();
        noSeverity.remove("severity.yaml");
        assertThatThrownBy(() -> RuleLoader.load(noSeverity, "rules/")).hasMessage(
                "rules/severity.yaml: missing: the ENISA severity scales");
        Map<String, String> twice = shipped();
        twice.put("gdpr.yaml", twice.get("gdpr.yaml").replace("zone: Europe/Paris\n",
                "zone: Europe/Paris\nzone: Europe/Berlin\n"));
        assertThatThrownBy(() -> RuleLoader.load(twice, "")).isInstanceOf(InvalidRules.class)
                .hasMessageContaining("gdpr.yaml line");
    }
}
