package app.vigie.compliance.rules;

import java.time.ZoneId;
import java.util.List;

/**
 * A body of law (or contract) and its duties after a breach, read from one file of compliance-rules/.
 * {@code appliesToSource}: the text that sets its scope (whom it binds, where); {@code implies}: facts that follow
 * from others under it.
 */
public record Regime(String id, String name, String source, ZoneId zone, Applicability appliesTo,
        String appliesToSource, List<Implication> implies, InForce inForce, List<ObligationRule> obligations,
        String file) {

    /** A fact that follows from another: {@code premise} recorded true makes {@code conclusion} true, and
     *  {@code conclusion} recorded false makes {@code premise} false. */
    public record Implication(String premise, String conclusion, String source) {
    }
}
