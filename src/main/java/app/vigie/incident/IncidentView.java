package app.vigie.incident;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * An incident as api.md shows it, plus its status reason and the affected tenants missing from the tenant directory
 * (their controller is unknown: they cannot be alerted until they are mapped).
 */
public record IncidentView(UUID id, String deployment, String status, String classification,
        Instant firstExposureAt, Instant lastExposureAt, Instant detectedAt, long leakedResponses,
        List<String> victimTenants, List<String> recipientTenants, Map<String, Long> findings, String statusReason,
        List<String> unmappedTenants) {
}
