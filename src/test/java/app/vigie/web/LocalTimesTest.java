package app.vigie.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.ZoneId;

import org.junit.jupiter.api.Test;

import app.vigie.problem.ProblemException;

class LocalTimesTest {
    private static final ZoneId PARIS = ZoneId.of("Europe/Paris");

    @Test
    void aLocalTimeIsReadInTheUsersZone() {
        assertThat(LocalTimes.parse("2026-12-02 14:30", PARIS, "x")).isEqualTo(Instant.parse("2026-12-02T13:30:00Z"));
        assertThat(LocalTimes.parse("2026-07-14T14:30", PARIS, "x")).isEqualTo(Instant.parse("2026-07-14T12:30:00Z"));
        assertThat(LocalTimes.parse("2026-07-14 14:30", ZoneId.of("America/New_York"), "x"))
                .isEqualTo(Instant.parse("2026-07-14T18:30:00Z"));
        assertThat(LocalTimes.parse("  ", PARIS, "x")).isNull();
    }

    @Test
    void anOffsetWins() {
        assertThat(LocalTimes.parse("2026-12-02T14:30+05:30", PARIS, "x")).isEqualTo(Instant.parse("2026-12-02T09:00:00Z"));
        assertThat(LocalTimes.parse("2026-12-02T14:30:00Z", PARIS, "x")).isEqualTo(Instant.parse("2026-12-02T14:30:00Z"));
    }

    @Test
    void aTimeSkippedInSpringIsRefusedNotShifted() {
        assertThatThrownBy(() -> LocalTimes.parse("2026-03-29 02:30", PARIS, "taken at"))
                .isInstanceOf(ProblemException.class).hasMessageContaining("taken at")
                .hasMessageContaining("does not exist in Europe/Paris");
        assertThat(LocalTimes.parse("2026-03-29 03:00", PARIS, "x")).isEqualTo(Instant.parse("2026-03-29T01:00:00Z"));
        assertThat(LocalTimes.parse("2026-03-29 01:59", PARIS, "x")).isEqualTo(Instant.parse("2026-03-29T00:59:00Z"));
    }

    @Test
    void aTimeRepeatedInAutumnNeedsItsOffset() {
        assertThatThrownBy(() -> LocalTimes.parse("2026-10-25 02:30", PARIS, "done at"))
                .isInstanceOf(ProblemException.class).hasMessageContaining("happens twice")
                .hasMessageContaining("2026-10-25T02:30+02:00 or 2026-10-25T02:30+01:00");
        assertThat(LocalTimes.parse("2026-10-25T02:30+02:00", PARIS, "x")).isEqualTo(Instant.parse("2026-10-25T00:30:00Z"));
        assertThat(LocalTimes.parse("2026-10-25T02:30+01:00", PARIS, "x")).isEqualTo(Instant.parse("2026-10-25T01:30:00Z"));
    }

    @Test
    void garbageSaysHowToWriteATime() {
        assertThatThrownBy(() -> LocalTimes.parse("yesterday", PARIS, "taken at")).isInstanceOf(ProblemException.class)
                .hasMessageContaining("'yesterday' is not a time").hasMessageContaining("2026-12-02 14:30");
        assertThatThrownBy(() -> LocalTimes.parse("2026-02-30 10:00", PARIS, "x")).isInstanceOf(ProblemException.class);
    }

    @Test
    void aFieldShowsTheLocalMinute() {
        assertThat(LocalTimes.field(Instant.parse("2026-10-25T01:30:00Z"), PARIS)).isEqualTo("2026-10-25 02:30");
    }
}
