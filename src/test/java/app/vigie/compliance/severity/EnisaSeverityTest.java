package app.vigie.compliance.severity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import app.vigie.compliance.rules.RuleLoader;
import app.vigie.compliance.severity.EnisaSeverity.Assessment;
import app.vigie.compliance.severity.EnisaSeverity.Inputs;

/**
 * ENISA's method on the shipped scales: the data-processing-context examples of the ENISA document's annex
 * (category base, contextual adjustment, resulting DPC), the formula, and the level bounds.
 */
class EnisaSeverityTest {
    private static final EnisaSeverity ENISA = new EnisaSeverity(RuleLoader.load(Path.of("compliance-rules"))
            .severity());

    private static Inputs inputs(String category, double adjustment, String ei, String c, String i, String a,
            boolean malicious) {
        return new Inputs(category, adjustment, ei, c, i, a, malicious);
    }

    /** ENISA 2013, Annex A: examples of DPC scoring, base of the category then the context's correction. */
    @ParameterizedTest(name = "{0}: DPC {3}")
    @CsvSource(delimiter = '|', textBlock = """
            supermarket customer list (name, address, phone)        | simple      |  0 | 1
            customer list of a luxury goods seller (financial status) | simple     |  1 | 2
            delivery addresses of an adult book store (sexual life)  | simple      |  2 | 3
            list of undercover officers (physical safety)            | simple      |  3 | 4
            incoming calls of an ISP helpdesk                        | behavioural | -1 | 1
            one week of call history                                 | behavioural |  0 | 2
            one year of call history (a detailed profile)            | behavioural |  1 | 3
            calls to a psychological support centre (health)         | behavioural |  2 | 4
            a bank's letter to a customer                            | financial   | -2 | 1
            one day of transactions without details                  | financial   | -1 | 2
            one month of account balances                            | financial   |  0 | 3
            one year of detailed bank statements                     | financial   |  1 | 4
            "performed general blood tests"                          | sensitive   | -3 | 1
            a blood test at the emergency room                       | sensitive   | -2 | 2
            a test for a specific disease                            | sensitive   | -1 | 3
            the results of the test                                  | sensitive   |  0 | 4
            """)
    void theAnnexExamplesOfDataProcessingContext(String example, String category, double adjustment,
            double dpc) {
        Assessment a = ENISA.assess(inputs(category, adjustment, "maximum", "none", "none", "none", false));
        assertThat(a.dpc()).as(example).isEqualTo(dpc);
        assertThat(a.score()).as("EI maximum (1), no circumstance: SE = DPC").isEqualTo(dpc);
    }

    @Test
    void aLeakOfPromptsToAnotherCustomerOfTheService() {
        // Prompts with health data (DPC 4) of identifiable persons (EI maximum) exposed to known recipients
        // (another tenant: +0.25), by a bug (not malicious): 4 x 1 + 0.25 = 4.25, very high.
        Assessment health = ENISA.assess(inputs("sensitive", 0, "maximum", "known_recipients", "none", "none", false));
        assertThat(health.score()).isEqualTo(4.25);
        assertThat(health.level()).isEqualTo("VERY_HIGH");
        // Business contact data (simple, 1) hard to tie to a person (EI limited, 0.5): 0.5 + 0.25 = 0.75, low.
        Assessment contacts = ENISA.assess(inputs("simple", 0, "limited", "known_recipients", "none", "none", false));
        assertThat(contacts.score()).isEqualTo(0.75);
        assertThat(contacts.level()).isEqualTo("LOW");
        // Every circumstance at its worst adds 2 (0.5 x 3 + 0.5 for malice).
        Assessment worst = ENISA.assess(inputs("simple", 0, "negligible", "unknown_recipients", "altered_unrecoverable",
                "permanent", true));
        assertThat(worst.cb()).isEqualTo(2.0);
        assertThat(worst.score()).isEqualTo(2.25);
        assertThat(worst.level()).isEqualTo("MEDIUM");
    }

    /** Sensitive data (DPC 4) times EI, plus the circumstances: each level reached at and just below its bound. */
    @ParameterizedTest(name = "SE {0} is {1}")
    @CsvSource({
        "1.75, LOW,       negligible,  known_recipients,   altered_recoverable,   temporary, false",
        "2.0,  MEDIUM,    limited,     none,               none,                  none,      false",
        "2.75, MEDIUM,    limited,     known_recipients,   altered_recoverable,   temporary, false",
        "3.0,  HIGH,      significant, none,               none,                  none,      false",
        "3.75, HIGH,      significant, known_recipients,   altered_recoverable,   temporary, false",
        "4.0,  VERY_HIGH, maximum,     none,               none,                  none,      false",
        "6.0,  VERY_HIGH, maximum,     unknown_recipients, altered_unrecoverable, permanent, true"})
    void theLevelsStartAtTheirLowerBound(double score, String level, String ei, String confidentiality,
            String integrity, String availability, boolean malicious) {
        Assessment got = ENISA.assess(inputs("sensitive", 0, ei, confidentiality, integrity, availability,
                malicious));
        assertThat(got.score()).isEqualTo(score);
        assertThat(got.level()).isEqualTo(level);
    }

    @Test
    void theContextualAdjustmentStaysWithinTheScaleAndBadInputIsNamed() {
        assertThat(ENISA.assess(inputs("sensitive", 3, "maximum", "none", "none", "none", false)).dpc()).isEqualTo(4);
        assertThat(ENISA.assess(inputs("simple", -3, "maximum", "none", "none", "none", false)).dpc()).isEqualTo(1);
        assertThatThrownBy(() -> ENISA.assess(inputs("medical", 0, "total", "none", "none", "none", false)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'category' must be one of behavioural, financial, sensitive, simple, got 'medical'")
                .hasMessageContaining("'ei' must be one of limited, maximum, negligible, significant, got 'total'");
    }
}
