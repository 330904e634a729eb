package app.vigie.compliance.rules;

import java.util.List;
import java.util.Optional;

/** Every regime, the authorities and the severity scales: compliance-rules/ as read and checked at start. */
public record RuleSet(List<Regime> regimes, Authorities authorities, SeverityScales severity) {

    public Optional<Regime> regime(String id) {
        return regimes.stream().filter(r -> r.id().equals(id)).findFirst();
    }
}
