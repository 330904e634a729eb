package app.vigie.register;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * An entry of a violation register (GDPR Art. 33(5)): the facts of a breach, its effects and the remedial action
 * taken, whether and when the authority and the persons concerned were informed, and why not when they were not.
 * {@code register} is the tenant whose controller keeps it, or {@code provider} for the provider's own.
 */
public record RegisterEntry(String register, String controller, UUID incidentId, String deployment,
        String classification, String incidentStatus, String nature, Instant firstExposureAt,
        Instant lastExposureAt, Instant detectedAt, Instant controllerAwareAt, Records records, Persons persons,
        String likelyConsequences, List<Measure> measures, List<Notification> authorities,
        List<Notification> dataSubjects, Severity severity, String rulesVersion, Instant asOf,
        Map<String, Long> findings, List<String> dataCategories, List<String> specialCategories,
        String delayReasons, List<DecisionLine> decisions) {

    /** A decision of the register's holder with its reasoning (EDPB Guidelines 9/2022: document the reasoning). */
    public record DecisionLine(String name, boolean value, Instant at, String justification) {
    }

    /*
     * GDPR Art. 33(5): the facts (the detector's findings, by kind, and the records exposed), the effects (the
     * likely consequences and the persons, as the controller states them), the remedial action (the measures),
     * the data categories, when the controller became aware, and the reasons for a delay. Entries written before
     * these fields existed read them back as null.
     */

    /** What was exposed, counted as api.md counts it; {@code affectedTenants} for the provider's entry. */
    public record Records(long exposedRequests, long exposedTokens, long receivedTokens, long responsesReceived,
            Integer affectedTenants) {
    }

    /** Persons concerned: known only from the controller (null while it has not said). */
    public record Persons(List<String> categories, Long approximateNumber, String note) {
    }

    public record Measure(Instant takenAt, String text) {
    }

    /** One duty to inform: to whom, where it stands, when it was done and its evidence, or why it is not due. */
    public record Notification(String rule, String recipient, String recipientName, String status, Instant dueAt,
            Instant doneAt, String evidence, String reason, String reasonCode) {
    }

    public record Severity(String level, String basis) {
    }
}
