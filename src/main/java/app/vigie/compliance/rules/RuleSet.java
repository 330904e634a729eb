package app.vigie.compliance.rules;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every regime, the authorities, the severity scales and the public holidays by country: compliance-rules/ as read
 * and checked at start.
 */
public record RuleSet(List<Regime> regimes, Authorities authorities, SeverityScales severity,
        Map<String, HolidayCalendar> holidays) {

    /** The obligation rule of this id, in any regime. */
    public Optional<ObligationRule> obligation(String id) {
        return regimes.stream().flatMap(g -> g.obligations().stream()).filter(o -> o.id().equals(id)).findFirst();
    }

    public Optional<Regime> regime(String id) {
        return regimes.stream().filter(r -> r.id().equals(id)).findFirst();
    }
}
