package app.vigie.compliance.plan;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * What is known of one party's case in an incident: when Vigie's alert was delivered to the controller
 * ({@code alertDeliveredAt}: a 2xx from its webhook, its mail server accepting the message, the Kafka broker
 * acknowledging the record), an awareness recorded otherwise ({@code recordedAwareAt}, with its evidence), its
 * decisions by name, the severity that counts ({@code severity}: LOW, MEDIUM, HIGH, VERY_HIGH or null when not
 * assessed; {@code severityBasis} says whose it is) and how the tenant was exposed. {@code processorAwareAt}: when
 * the processor became aware of a breach of this tenant's data, when it is not the incident's detection (null): a
 * tenant touched by possible exposures only, which the provider's DPO decided are a breach (spec 1.3, amendment 3),
 * from that decision.
 */
public record CaseFacts(Instant alertDeliveredAt, Instant recordedAwareAt, String awarenessEvidence,
        Map<String, Decision> decisions, String severity, String severityBasis, Exposure exposure,
        Instant processorAwareAt) {

    /** A case whose processor became aware at the incident's detection. */
    public CaseFacts(Instant alertDeliveredAt, Instant recordedAwareAt, String awarenessEvidence,
            Map<String, Decision> decisions, String severity, String severityBasis, Exposure exposure) {
        this(alertDeliveredAt, recordedAwareAt, awarenessEvidence, decisions, severity, severityBasis, exposure, null);
    }

    /** The severity levels, lowest first (ENISA's, as compliance-rules/severity.yaml names them). */
    public static final List<String> LEVELS = List.of("LOW", "MEDIUM", "HIGH", "VERY_HIGH");

    public static final CaseFacts NONE = new CaseFacts(null, null, null, Map.of(), null, null, Exposure.VICTIM);

    /** How a tenant was exposed in the incident. */
    public enum Exposure {
        /** Its requests' tokens were read by other requests. */
        VICTIM,
        /** Its requests read other requests' tokens. */
        RECIPIENT,
        BOTH;

        public boolean victim() {
            return this != RECIPIENT;
        }

        public boolean recipient() {
            return this != VICTIM;
        }
    }

    public Decision decision(String name) {
        return decisions.get(name);
    }

    /**
     * When the controller became aware (EDPB Guidelines 9/2022 v2.0, section II.A.4: once its processor has informed
     * it): our
     * alert's delivery, or an earlier awareness recorded, whichever is earlier; null while neither is known.
     */
    public Instant controllerAwareAt() {
        if (alertDeliveredAt == null) {
            return recordedAwareAt;
        }
        return recordedAwareAt != null && recordedAwareAt.isBefore(alertDeliveredAt) ? recordedAwareAt
                : alertDeliveredAt;
    }
}
