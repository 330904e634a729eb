package app.vigie.compliance.service;

import java.io.Serializable;
import java.util.Objects;
import java.util.UUID;

/**
 * The key of what a case holds once: an incident and a tenant ({@code ''}: the provider's own case). Used by the
 * case's facts here and by the controller's statements ({@code notice.CaseStatement}).
 */
public class CaseKey implements Serializable {
    public UUID incidentId;
    public String tenant;

    public CaseKey() {
    }

    public CaseKey(UUID incidentId, String tenant) {
        this.incidentId = incidentId;
        this.tenant = tenant;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CaseKey k && Objects.equals(incidentId, k.incidentId) && Objects.equals(tenant, k.tenant);
    }

    @Override
    public int hashCode() {
        return Objects.hash(incidentId, tenant);
    }
}
