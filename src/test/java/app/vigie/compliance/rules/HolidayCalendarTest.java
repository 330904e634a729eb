package app.vigie.compliance.rules;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import app.vigie.compliance.plan.Obligation;
import app.vigie.compliance.plan.ObligationPlanner;
import app.vigie.compliance.plan.PlanRequest;
import app.vigie.compliance.plan.ProviderProfile;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

/**
 * compliance-rules/holidays.yaml as read: Easter's date, the movable days, the days of a year a State fixes, and the
 * words a moved (or unmoved) DORA time limit carries.
 */
class HolidayCalendarTest {
    private static final RuleSet RULES = RuleLoader.load(Path.of("compliance-rules"));
    private static final Map<String, HolidayCalendar> DAYS = RULES.holidays();

    @ParameterizedTest(name = "Easter {0}")
    @CsvSource({"2024, 2024-03-31", "2025, 2025-04-20", "2026, 2026-04-05", "2027, 2027-03-28", "2038, 2038-04-25",
            "2285, 2285-03-22", "1818, 1818-03-22"})
    void easterIsComputed(int year, LocalDate sunday) {
        assertThat(HolidayCalendar.easter(year)).isEqualTo(sunday);
    }

    @ParameterizedTest(name = "{0} {1}: {2}")
    @CsvSource({
            "FR, 2026-05-14, true",    // Ascension: Easter + 39
            "FR, 2026-05-25, true",    // Whit Monday: Easter + 50
            "FR, 2026-05-08, true",
            "FR, 2026-04-03, false",   // Good Friday is regional in France (Alsace-Moselle)
            "DE, 2026-04-03, true",
            "IE, 2030-02-01, true",    // 1 February 2030 is a Friday: St Brigid's Day that Friday
            "IE, 2030-02-04, false",
            "IE, 2026-02-02, true",    // otherwise the first Monday of February
            "IE, 2026-10-26, true",    // the last Monday of October
            "NL, 2025-04-26, true",    // 27 April 2025 is a Sunday: King's Day the day before
            "NL, 2025-04-27, false",
            "NL, 2026-04-27, true",
            "IT, 2025-10-04, false",   // St Francis's Day from 2026 only (L. 151/2025)
            "IT, 2026-10-04, true",
            "ES, 2026-04-03, true",    // the 2026 resolution's list
            "LU, 2026-04-03, false"    // a bank closing day, not a legal holiday
    })
    void holidaysFollowTheirRules(String country, LocalDate day, boolean holiday) {
        assertThat(DAYS.get(country).holiday(day)).isEqualTo(holiday);
    }

    @Test
    void aYearAStateHasNotFixedIsNotKnown() {
        assertThat(DAYS.get("ES").known(2026)).isTrue();
        assertThat(DAYS.get("ES").known(2027)).isFalse();
        assertThat(DAYS.get("FR").known(2040)).isTrue();
        assertThat(DAYS.get("FR").workingDay(LocalDate.of(2026, 5, 16))).as("a Saturday").isFalse();
    }

    /** The due note says why a time limit moved, and why another did not, with the text that allows it. */
    @Test
    void aMovedTimeLimitSaysWhyAndAnUnmovedOneSaysWhatWouldMoveIt() throws IOException {
        ObligationPlanner planner = new ObligationPlanner(RULES);
        PlanRequest request = PlanRequest.read(new YAMLMapper().readTree(Path.of(
                "compliance-rules/scenarios/37-dora-relief-ascension-and-a-sunday.yaml").toFile()).get("request"),
                new ProviderProfile("FR", Set.of()), planner, Instant.EPOCH);
        List<Obligation> plan = request.plan(planner);
        assertThat(note(plan, "assur", "dora-19-initial")).contains("falls on a public holiday in FR (2026-05-14)")
                .contains("may be filed by noon of the next working day, 2026-05-15")
                .contains("Delegated Regulation 2025/301 Art. 5(4)-(5)");
        assertThat(note(plan, "assur", "dora-19-intermediate")).contains("falls on a weekend day (2026-05-17)");
        assertThat(note(plan, "banque", "dora-19-initial")).contains("no relief for a tenant of sector "
                + "'credit-institution'").contains("could file by noon of 2026-05-15");
        assertThat(note(plan, "fonds", "dora-19-initial")).contains("its type of financial entity is not recorded");
        assertThat(note(plan, "assur", "dora-19-final")).doesNotContain("falls on");
    }

    /**
     * A country whose holidays and clock Vigie does not know gets no relief: a weekend judged on Paris's clock could
     * fall on a Friday in Lisbon, and a relief there would call a late report on time.
     */
    @Test
    void aCountryWhoseHolidaysAreNotKnownGetsNoRelief() throws IOException {
        ObligationPlanner planner = new ObligationPlanner(RULES);
        ObjectNode request = (ObjectNode)
                new YAMLMapper().readTree(Path.of("compliance-rules/scenarios/"
                        + "37-dora-relief-ascension-and-a-sunday.yaml").toFile()).get("request");
        ObjectNode assur = (ObjectNode) request.get("tenants").get(0);
        assur.put("country", "PT");
        ((ObjectNode) assur.get("completions").get(0)).put("recipient", "financial_authority:PT");
        List<Obligation> plan = PlanRequest.read(request, new ProviderProfile("FR", Set.of()), planner, Instant.EPOCH)
                .plan(planner);
        Obligation initial = plan.stream().filter(o -> "assur".equals(o.tenant())
                && "dora-19-initial".equals(o.rule())).findFirst().orElseThrow();
        assertThat(initial.dueAt()).as("not moved").isEqualTo(Instant.parse("2026-05-14T00:00:00Z"));
        assertThat(initial.doneLate()).isTrue();
        assertThat(initial.dueNote()).contains("the holidays and time zone of PT are not in "
                + "compliance-rules/holidays.yaml");
        Obligation intermediate = plan.stream().filter(o -> "assur".equals(o.tenant())
                && "dora-19-intermediate".equals(o.rule())).findFirst().orElseThrow();
        assertThat(intermediate.dueAt()).as("a Sunday in Paris, not moved for Lisbon")
                .isEqualTo(Instant.parse("2026-05-17T09:00:00Z"));
    }

    private static String note(List<Obligation> plan, String tenant, String rule) {
        return plan.stream().filter(o -> tenant.equals(o.tenant()) && rule.equals(o.rule())).findFirst()
                .orElseThrow().dueNote();
    }
}
