package app.vigie.compliance.plan;

import java.util.Set;

/**
 * The processor running Vigie: the country of its establishment (its duties as a processor under a territorial
 * regime bind it toward every controller, and its own authorities are that country's) and the regimes of its own
 * it is subject to ({@code nis2} when it meets NIS2's thresholds as a cloud computing service provider).
 */
public record ProviderProfile(String country, Set<String> regimes) {
}
