package app.vigie.web.pages;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import app.vigie.incident.ExposureModel;
import app.vigie.incident.ExposureView;

/**
 * The matrix of whose tokens reached whom: the customers with the most tokens named (8 each side), the rest summed as
 * "others" without losing a token, another customer's tokens told from the same customer's, delivered from contained
 * and from not known yet.
 */
class ExposureMatrixTest {
    private static final Instant T = Instant.parse("2026-03-10T08:00:00Z");

    @Test
    void theTopCustomersAreNamedAndTheRestSummedWithoutLosingAToken() {
        List<ExposureView> exposures = new ArrayList<>();
        long total = 0;
        for (int v = 0; v < 12; v++) {
            for (int r = 0; r < 12; r++) {
                long tokens = (v + 1) * 100L + r;
                Boolean delivered = (v + r) % 3 == 0 ? null : (v + r) % 3 == 1;
                exposures.add(new ExposureView(v == r ? "INTRA_TENANT" : "CROSS_TENANT", "t" + v, "v" + v + r,
                        "t" + r, "r" + v + r, tokens, T, delivered));
                total += tokens;
            }
        }
        IncidentPage.Matrix m = ExposureMatrix.of(ExposureModel.pairs(exposures));
        assertThat(m.victims()).isEqualTo(12);
        assertThat(m.readers()).isEqualTo(12);
        assertThat(m.summed()).isTrue();
        // 8 named and "others" (null) on each side; the victims with the most tokens first
        assertThat(m.rows()).hasSize(9);
        assertThat(m.rows().get(0).victim()).isEqualTo("t11");
        assertThat(m.rows().get(8).victim()).isNull();
        assertThat(m.columns()).hasSize(9).endsWith((String) null);
        long shown = 0;
        for (IncidentPage.MatrixRow row : m.rows()) {
            for (IncidentPage.MatrixCell c : row.cells()) {
                shown += c.crossDelivered() + c.crossContained() + c.crossUnknown() + c.sameDelivered()
                        + c.sameContained() + c.sameUnknown();
            }
        }
        assertThat(shown).as("every token in one cell").isEqualTo(total);
        // a named customer reading its own tokens: the same customer, in its diagonal cell only
        int row = 0;
        String victim = m.rows().get(row).victim();
        int col = m.columns().indexOf(victim);
        IncidentPage.MatrixCell own = m.rows().get(row).cells().get(col);
        assertThat(own.same()).isTrue();
        assertThat(own.cross()).isFalse();
        assertThat(m.rows().get(row).cells().stream().filter(IncidentPage.MatrixCell::same)).hasSize(1);
    }

    /** Spec 1.3, amendment 3: the tokens of possible exposures are a count of their own, never delivered or contained. */
    @Test
    void possibleTokensAreACountOfTheirOwn() {
        IncidentPage.Matrix m = ExposureMatrix.of(ExposureModel.pairs(List.of(
                new ExposureView("CROSS_TENANT", "acme", "a", "globex", "b", 8, T, true),
                new ExposureView("CROSS_TENANT", "acme", "a", "globex", "c", 5, T, true, true),
                new ExposureView("CROSS_TENANT", "initech", "i", "globex", "d", 3, T, null, true))));
        IncidentPage.MatrixCell both = m.rows().get(m.rows().get(0).victim().equals("acme") ? 0 : 1).cells().get(0);
        assertThat(List.of(both.crossDelivered(), both.crossContained(), both.crossUnknown(), both.possible()))
                .containsExactly(8L, 0L, 0L, 5L);
        IncidentPage.MatrixCell only = m.rows().get(m.rows().get(0).victim().equals("acme") ? 1 : 0).cells().get(0);
        assertThat(only.cross()).as("a possible exposure alone is not a cross-tenant read").isFalse();
        assertThat(only.possible()).isEqualTo(3);
    }

    @Test
    void deliveredContainedAndUnknownAreKeptApart() {
        IncidentPage.Matrix m = ExposureMatrix.of(ExposureModel.pairs(List.of(
                new ExposureView("CROSS_TENANT", "acme", "a", "globex", "b", 8, T, true),
                new ExposureView("CROSS_TENANT", "acme", "a", "globex", "c", 5, T, false),
                new ExposureView("CROSS_TENANT", "acme", "a", "globex", "d", 3, T, null))));
        assertThat(m.summed()).isFalse();
        IncidentPage.MatrixCell c = m.rows().get(0).cells().get(0);
        assertThat(List.of(c.crossDelivered(), c.crossContained(), c.crossUnknown())).containsExactly(8L, 5L, 3L);
        assertThat(c.same()).isFalse();
    }
}
