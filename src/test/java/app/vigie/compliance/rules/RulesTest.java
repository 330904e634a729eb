package app.vigie.compliance.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.Period;
import java.time.ZoneId;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
                "nis2", "dora", "eu-ai-act", "hipaa", "us-ca", "tn", "ch-isg");
        ObligationRule art33 = rules.regime("gdpr").orElseThrow().obligations().stream()
                .filter(o -> o.id().equals("gdpr-33-1")).findFirst().orElseThrow();
        assertThat(art33.due().exact()).isEqualTo(Duration.ofHours(72));
        assertThat(art33.clock()).isEqualTo(Clock.of(Clock.Origin.CONTROLLER_AWARENESS));
        assertThat(art33.trigger()).isEqualTo(Trigger.RISK);
        assertThat(art33.late()).isEqualTo("reasons");
        assertThat(art33.phased()).isTrue();
        assertThat(rules.authorities().of("supervisory_authority", "FR").orElseThrow().name()).contains("CNIL");
        // the letter's own authority of a controller: the ICO and the FDPIC by their data, else the GDPR's
        assertThat(rules.authorities().dataProtectionAuthority("GB")).isEqualTo("ico");
        assertThat(rules.authorities().dataProtectionAuthority("CH")).isEqualTo("fdpic");
        assertThat(rules.authorities().dataProtectionAuthority("IE")).isEqualTo("supervisory_authority:IE");
        assertThat(rules.authorities().isDataProtectionAuthority("fdpic")).isTrue();
        assertThat(rules.authorities().isDataProtectionAuthority("bacs")).isFalse();
        assertThat(rules.authorities().isDataProtectionAuthority("supervisory_authority:FR")).isTrue();
        assertThat(rules.authorities().sets().get("eea")).hasSize(30).contains("NO", "IS", "LI").doesNotContain("GB",
                "CH");
        ObligationRule tn = rules.regime("tn").orElseThrow().obligations().get(0);
        assertThat(tn.kind()).isEqualTo(Kind.NONE);
        assertThat(tn.note()).contains("2004-63").contains("not in force").contains("Decree-law 2023-17")
                .doesNotContain("Nothing is due");
        ObligationRule dora = rules.regime("dora").orElseThrow().obligations().get(0);
        assertThat(dora.cap().due().exact()).isEqualTo(Duration.ofHours(24));
        assertThat(dora.cap().lapses()).as("Delegated Regulation 2025/301 Art. 5(2)").isTrue();
        ObligationRule early = rules.regime("nis2").orElseThrow().obligations().get(0);
        assertThat(early.clock().origin()).as("Implementing Regulation 2024/2690 recital 31")
                .isEqualTo(Clock.Origin.DECISION);
        assertThat(early.inForce().byCountry().get("DE").from()).isEqualTo(LocalDate.of(2025, 12, 6));
        assertThat(early.inForce().byCountry().get("FR").from()).as("not known").isNull();
        ObligationRule ai = rules.regime("eu-ai-act").orElseThrow().obligations().get(0);
        assertThat(ai.inForce().from()).as("AI Act Art. 113(c)(i) as amended by Regulation 2026/1744")
                .isEqualTo(LocalDate.of(2027, 12, 2));
        assertThat(ai.clock().origin()).as("Art. 73(2): from awareness of the serious incident")
                .isEqualTo(Clock.Origin.DECISION);
        Regime doraRegime = rules.regime("dora").orElseThrow();
        assertThat(doraRegime.appliesTo().matches("GB", Set.of("GB"), Set.of("financial"), false))
                .as("DORA Art. 2-3: a UK bank is not a financial entity under DORA").isFalse();
        assertThat(doraRegime.appliesTo().matches("FR", Set.of(), Set.of("financial"), false)).isTrue();
        assertThat(doraRegime.appliesToSource()).contains("Art. 2(1)");
        ObligationRule hipaa = rules.regime("hipaa").orElseThrow().obligations().stream()
                .filter(o -> o.id().equals("hipaa-164-404")).findFirst().orElseThrow();
        assertThat(hipaa.outerLimit().calendar()).as("45 CFR 164.404(b)").isEqualTo(Period.ofDays(60));
        assertThat(hipaa.exceptions()).as("164.402(2), not the GDPR's").containsExactly(
                "low_probability_of_compromise");
        ObligationRule ca = rules.regime("us-ca").orElseThrow().obligations().stream()
                .filter(o -> o.id().equals("us-ca-1798-82-a")).findFirst().orElseThrow();
        assertThat(ca.exceptions()).as("1798.82(a) has no risk test").isEmpty();
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
            a typo in a key            | gdpr.yaml | '    trigger: risk' | '    triger: risk'        | gdpr.yaml line LINE: 'obligations[1]': unknown key 'triger'
            an unknown trigger         | gdpr.yaml | '    trigger: risk' | '    trigger: sometimes'  | gdpr.yaml line LINE: 'obligations[1].trigger': unknown value 'sometimes': one of always, risk, high_risk, decision
            a period that is not one   | gdpr.yaml | '    due: PT72H'    | '    due: 72 hours'       | gdpr.yaml line LINE: 'obligations[1].due': not a period such as PT72H, P15D or P1M: '72 hours'
            an unknown recipient       | uk-gdpr.yaml | '    recipient: ico' | '    recipient: icoo' | uk-gdpr.yaml line LINE: 'obligations[1].recipient': unknown recipient 'icoo'
            a clock after nothing      | nis2.yaml | '      after: nis2-23-4b\n    due: P1M\n    source:\n      en: "NIS2 Art. 23(4)(d)"' | '      after: nis2-23-4x\n    due: P1M\n    source:\n      en: "NIS2 Art. 23(4)(d)"' | nis2.yaml line LINE: 'obligations[3].clock': 'after: nis2-23-4x' names no obligation of this regime
            a bad zone                 | dora.yaml | 'zone: Europe/Paris' | 'zone: Europe/Pariss'    | dora.yaml line LINE: 'zone': not a time zone such as Europe/Paris: 'Europe/Pariss'
            an unknown country set     | gdpr.yaml | '    - country_in: eea' | '    - country_in: eeaa' | gdpr.yaml line LINE: 'applies_to.any[0].country_in': 'eeaa' is neither a country code
            a decision left unnamed    | dora.yaml | '    decision: major\n    clock: decision' | '    clock: decision' | dora.yaml line OBLIGATION: 'obligations[0]': trigger 'decision' needs 'decision'
            a duty of nothing, unsaid  | tn.yaml   | '    trigger: always' | '    source2: x'        | tn.yaml line LINE: 'obligations[0]': unknown key 'source2'
            YAML that does not parse   | gdpr.yaml | 'id: gdpr'          | 'id: [gdpr'               | gdpr.yaml line
            a date that is not one     | gdpr.yaml | 'from: 2018-05-25'  | 'from: 25/05/2018'        | gdpr.yaml line LINE: 'in_force.from': not a date such as 2026-08-02: '25/05/2018'
            in force ending before it starts | gdpr.yaml | 'from: 2018-05-25,' | 'from: 2018-05-25, until: 2017-01-01,' | gdpr.yaml line LINE: 'in_force.until': 'until' must come after 'from'
            a transposition neither known nor said | nis2.yaml | '    NL: {unknown: "the Cyberbeveiligingswet' | '    NL: {unknowable: "the Cyberbeveiligingswet' | nis2.yaml line LINE: 'in_force.by_country.NL': unknown key 'unknowable'
            an outer limit on a fixed period | gdpr.yaml | '    due: PT72H' | '    due: PT72H\n    outer_limit: P60D' | gdpr.yaml line LINE: 'obligations[1].outer_limit': 'outer_limit' bounds an open-ended duty
            a scope without its source | tn.yaml   | 'applies_to_source: ' | '# applies_to_source: ' | tn.yaml line 1: 'applies_to_source' is required
            a relief on no fixed period | dora.yaml | '    due: PT4H\n' | '    due: undue_delay\n    target: PT4H\n' | dora.yaml line LINE: 'obligations[0].due': a 'relief' moves a fixed time limit
            a holiday rule that is none | holidays.yaml | '"05-08", ' | '"05-32", ' | holidays.yaml line LINE: 'countries.FR.days[3]': not a day of the year: '05-32'
            a fact implying itself     | hipaa.yaml | '    then: five_hundred_or_more' | '    then: more_than_500_residents_of_a_state' | hipaa.yaml line LINE: 'implies[0].then': a fact that implies itself says nothing
            a cap that lapses on no decision | dora.yaml | '    due: PT72H\n    relief:' | '    due: PT72H\n    cap: {clock: processor_awareness, due: P20D, lapses: true}\n    relief:' | dora.yaml line LINE: 'obligations[1].cap.lapses': 'lapses' needs the rule's clock to be its decision
            an unknown exposure        | gdpr.yaml | '    exposure: [victim]' | '    exposure: [reader]' | gdpr.yaml line LINE: 'obligations[1].exposure': a list of victim
            if_undecided without a decision | gdpr.yaml | '    trigger: risk' | '    trigger: risk\n    if_undecided: held' | gdpr.yaml line LINE: 'obligations[1].if_undecided': 'if_undecided' goes with trigger 'decision'
            a country for a named authority | uk-gdpr.yaml | '    recipient: ico' | '    recipient: ico\n    recipient_from: occurrence' | uk-gdpr.yaml line LINE: 'obligations[1].recipient_from': only an authority chosen by country
            a data protection authority of no country | authorities.yaml | 'data_protection_authority_of: CH}' | 'data_protection_authority_of: Swiss}' | authorities.yaml line LINE: 'authorities.named.fdpic.data_protection_authority_of': 'Swiss' is not a country code such as GB
            imputed on a decision clock | ch-nfadp.yaml | '    clock: decision' | '    clock: decision\n    imputed: true' | ch-nfadp.yaml line LINE: 'obligations[2].imputed': 'imputed' moves a controller_awareness clock
            """)
    void aBrokenFileIsRefusedWithItsFileLineAndProblem(String what, String file, String from, String to,
            String message) throws IOException {
        Map<String, String> files = shipped();
        String text = files.get(file);
        String fromText = from.replace("\\n", "\n");
        assertThat(text).as("the fixture still finds its line").contains(fromText);
        files.put(file, text.replaceFirst(Pattern.quote(fromText),
                Matcher.quoteReplacement(to.replace("\\n", "\n"))));
        String changed = files.get(file);
        // the line the changed text starts on, or the line after it for a key it adds
        int at = changed.substring(0, changed.indexOf(to.replace("\\n", "\n"))).split("\n", -1).length;
        String[] added = to.replace("\\n", "\n").split("\n");
        String[] was = fromText.split("\n");
        int line = at + firstDifference(was, added);
        // the line of the obligation the change is in ("  - id: ...")
        String before = changed.substring(0, changed.indexOf(to.replace("\\n", "\n")));
        int obligation = before.contains("  - id:")
                ? before.substring(0, before.lastIndexOf("  - id:")).split("\n", -1).length : 0;
        assertThatThrownBy(() -> RuleLoader.load(files, "")).isInstanceOf(InvalidRules.class)
                .hasMessageStartingWith(message.replace("LINE", Integer.toString(line))
                        .replace("OBLIGATION", Integer.toString(obligation)));
    }

    /** The index of the first line where the replacement differs from the original. */
    private static int firstDifference(String[] was, String[] now) {
        for (int i = 0; i < Math.min(was.length, now.length); i++) {
            if (!was[i].equals(now[i])) {
                return i;
            }
        }
        return Math.min(was.length, now.length);
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
