package app.vigie.incident;

import java.util.List;

/**
 * An affected tenant of an incident (api.md), plus its controller's legal name from the tenant directory
 * ({@code mapped} false and {@code controller} null when the tenant is not in it). The counts are of certain
 * exposures; {@code possibleExposedTokens} and {@code possibleReceivedTokens} are those of possible ones (spec 1.3,
 * amendment 3), apart; a tenant touched by possible exposures only is listed with its roles in them.
 */
public record TenantView(String tenant, List<String> roles, long exposedRequests, long exposedTokens,
        long receivedTokens, long responsesReceived, boolean mapped, String controller, long possibleExposedTokens,
        long possibleReceivedTokens) {

    TenantView withController(String legalName) {
        return new TenantView(tenant, roles, exposedRequests, exposedTokens, receivedTokens, responsesReceived,
                legalName != null, legalName, possibleExposedTokens, possibleReceivedTokens);
    }
}
