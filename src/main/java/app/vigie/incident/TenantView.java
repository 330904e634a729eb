package app.vigie.incident;

import java.util.List;

/**
 * An affected tenant of an incident (api.md), plus its controller's legal name from the tenant directory
 * ({@code mapped} false and {@code controller} null when the tenant is not in it).
 */
public record TenantView(String tenant, List<String> roles, long exposedRequests, long exposedTokens,
        long receivedTokens, long responsesReceived, boolean mapped, String controller) {

    TenantView withController(String legalName) {
        return new TenantView(tenant, roles, exposedRequests, exposedTokens, receivedTokens, responsesReceived,
                legalName != null, legalName);
    }
}
