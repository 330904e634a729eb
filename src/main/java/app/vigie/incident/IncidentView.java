package app.vigie.incident;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * An incident as api.md shows it, plus its status reason and the affected tenants missing from the tenant directory
 * (their controller is unknown: they cannot be alerted until they are mapped). {@code leakedResponses},
 * {@code victimTenants} and {@code recipientTenants} count certain exposures; the {@code possible} ones (spec 1.3,
 * amendment 3: only a write to a slot while a transfer read it gives them) are counted apart, each beyond the certain
 * count: a response, victim or recipient already counted as certain is not counted again as possible.
 */
public record IncidentView(UUID id, String deployment, String status, String classification,
        Instant firstExposureAt, Instant lastExposureAt, Instant detectedAt, long leakedResponses,
        List<String> victimTenants, List<String> recipientTenants, Map<String, Long> findings, String statusReason,
        List<String> unmappedTenants, long possibleLeakedResponses, List<String> possibleVictimTenants,
        List<String> possibleRecipientTenants) {
}
