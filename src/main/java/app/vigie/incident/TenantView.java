package app.vigie.incident;

import java.util.List;

/** An affected tenant of an incident (api.md). */
public record TenantView(String tenant, List<String> roles, long exposedRequests, long exposedTokens,
        long receivedTokens, long responsesReceived) {
}
