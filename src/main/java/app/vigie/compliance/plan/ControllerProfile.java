package app.vigie.compliance.plan;

import java.time.Duration;
import java.util.Set;

/**
 * What the planner needs of a tenant's controller, from the tenant directory. {@code mapped} is false for a tenant
 * seen in the logs but missing from the directory: only the processor's own duties can then be computed.
 * {@code contractualDelay}: the processor-to-controller delay agreed in the DPA, or null. {@code processorIsAgent}:
 * the provider acts as the controller's agent (HIPAA: a business associate that is the covered entity's agent under
 * the federal common law of agency), so its discovery is the controller's.
 */
public record ControllerProfile(String tenant, boolean mapped, String legalName, String country,
        Set<String> jurisdictions, Set<String> sectors, Duration contractualDelay, boolean processorIsAgent) {

    public static ControllerProfile unmapped(String tenant) {
        return new ControllerProfile(tenant, false, null, null, Set.of(), Set.of(), null, false);
    }
}
