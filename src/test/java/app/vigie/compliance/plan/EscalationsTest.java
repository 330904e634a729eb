package app.vigie.compliance.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

import app.vigie.compliance.plan.Obligation.Status;
import app.vigie.compliance.rules.ObligationRule;

/** Which reminders a deadline has reached at a given time, moved across the window. */
class EscalationsTest {
    private static final Escalations STEPS = new Escalations(List.of(Duration.ofHours(24), Duration.ofHours(6),
            Duration.ofHours(1), Duration.ZERO));

    static Obligation obligation(Instant start, Instant due, Status status) {
        return new Obligation("acme", "gdpr", "gdpr-33-1", ObligationRule.Kind.AUTHORITY_NOTIFICATION,
                ObligationRule.Party.CONTROLLER, "supervisory_authority:FR", "CNIL", null,
                ObligationRule.Trigger.RISK, Obligation.Condition.MET, null, "controller_awareness", start, due,
                Obligation.DueBasis.STATUTORY, "PT72H", null, status, null, null, null, false, List.of(), true, true,
                false, "GDPR", List.of());
    }

    static List<String> names(List<Escalations.Step> steps) {
        return steps.stream().map(Escalations.Step::name).toList();
    }

    @Test
    void eachStepIsReachedAtItsOffsetBeforeTheDeadline() {
        Instant start = Instant.parse("2026-10-24T20:00:00Z");
        Instant due = Instant.parse("2026-10-27T20:00:00Z");
        Obligation o = obligation(start, due, Status.PENDING);
        assertThat(STEPS.reached(o, due.minusSeconds(24 * 3600 + 1))).isEmpty();
        assertThat(names(STEPS.reached(o, due.minusSeconds(24 * 3600)))).containsExactly("T-24H");
        assertThat(names(STEPS.reached(o, due.minusSeconds(6 * 3600 - 1)))).containsExactly("T-24H", "T-6H");
        assertThat(names(STEPS.reached(o, due.minusSeconds(1)))).containsExactly("T-24H", "T-6H", "T-1H");
        assertThat(names(STEPS.reached(obligation(start, due, Status.LATE), due.plusSeconds(1))))
                .containsExactly("T-24H", "T-6H", "T-1H", "OVERDUE");
        assertThat(STEPS.reached(o, due.minusSeconds(3600)).get(1).fireAt()).isEqualTo(due.minusSeconds(6 * 3600));
    }

    @Test
    void stepsBeforeTheClockStartedCollapseIntoOneFiredAtTheStart() {
        Instant start = Instant.parse("2026-10-25T08:30:00Z");
        Instant due = start.plus(Duration.ofHours(4));  // DORA's initial report
        Obligation o = obligation(start, due, Status.PENDING);
        List<Escalations.Step> atStart = STEPS.reached(o, start);
        assertThat(names(atStart)).containsExactly("T-6H");
        assertThat(atStart.get(0).fireAt()).isEqualTo(start);
        assertThat(names(STEPS.reached(o, due.minusSeconds(3600)))).containsExactly("T-6H", "T-1H");
    }

    @Test
    void nothingForWhatIsDoneNotRequiredOrWithoutADeadline() {
        Instant start = Instant.parse("2026-10-24T20:00:00Z");
        Instant due = Instant.parse("2026-10-27T20:00:00Z");
        Instant late = due.plusSeconds(3600);
        assertThat(STEPS.reached(obligation(start, due, Status.DONE), late)).isEmpty();
        assertThat(STEPS.reached(obligation(start, due, Status.NOT_REQUIRED), late)).isEmpty();
        assertThat(STEPS.reached(obligation(null, null, Status.PENDING), late)).isEmpty();
    }

    @Test
    void offsetsAreNamedAndMustBeBeforeTheDeadline() {
        assertThat(Escalations.name(Duration.ofHours(24))).isEqualTo("T-24H");
        assertThat(Escalations.name(Duration.ofMinutes(90))).isEqualTo("T-1H30M");
        assertThat(Escalations.name(Duration.ZERO)).isEqualTo("OVERDUE");
        assertThatThrownBy(() -> new Escalations(List.of(Duration.ofHours(-1))))
                .hasMessageContaining("before a deadline");
    }
}
