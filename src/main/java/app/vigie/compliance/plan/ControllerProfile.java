package app.vigie.compliance.plan;

import java.time.Duration;
import java.util.Set;

/**
 * What the planner needs of a tenant's controller, from the tenant directory. {@code mapped} is false for a tenant
 * seen in the logs but missing from the directory: only the processor's own duties can then be computed.
 * {@code contractualDelay}: the processor-to-controller delay agreed in the DPA, or null. {@code processorIsAgent}:
 * the provider acts as the controller's agent (HIPAA: a business associate that is the covered entity's agent under
 * the federal common law of agency), so its discovery is the controller's. {@code mainEstablishment}: its main
 * establishment in the EEA where the directory records one apart from {@code country} (GDPR Art. 4(16)), or null.
 */
public record ControllerProfile(String tenant, boolean mapped, String legalName, String country,
        Set<String> jurisdictions, Set<String> sectors, Duration contractualDelay, boolean processorIsAgent,
        String mainEstablishment) {

    public static ControllerProfile unmapped(String tenant) {
        return new ControllerProfile(tenant, false, null, null, Set.of(), Set.of(), null, false, null);
    }

    /**
     * The country whose authority of this kind is the controller's: for a data protection authority, its main
     * establishment's where recorded (the lead authority, GDPR Art. 56(1)); else, and for every other kind, its
     * country's.
     */
    public String establishment(String authorityKind) {
        return "supervisory_authority".equals(authorityKind) && mainEstablishment != null ? mainEstablishment
                : country;
    }
}
