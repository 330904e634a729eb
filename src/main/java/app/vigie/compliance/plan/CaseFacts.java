package app.vigie.compliance.plan;

import java.time.Instant;
import java.util.Map;

/**
 * What is known of one party's case in an incident: when our alert reached the controller (its awareness, which
 * starts its own clocks), its decisions by name, and the severity that counts ({@code severity}: LOW, MEDIUM,
 * HIGH, VERY_HIGH or null when not assessed; {@code severityBasis} says whose it is).
 */
public record CaseFacts(Instant controllerAwareAt, String awarenessEvidence, Map<String, Decision> decisions,
        String severity, String severityBasis) {

    public static final CaseFacts NONE = new CaseFacts(null, null, Map.of(), null, null);

    public Decision decision(String name) {
        return decisions.get(name);
    }
}
