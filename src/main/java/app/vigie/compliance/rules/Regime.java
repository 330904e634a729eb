package app.vigie.compliance.rules;

import java.time.ZoneId;
import java.util.List;

/** A body of law (or contract) and its duties after a breach, read from one file of compliance-rules/. */
public record Regime(String id, String name, String source, ZoneId zone, Applicability appliesTo, InForce inForce,
        List<ObligationRule> obligations, String file) {
}
