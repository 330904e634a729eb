package app.vigie.compliance.service;

import java.io.Serializable;
import java.util.Objects;
import java.util.UUID;

/** The key of a case's fact held once per case: an incident and a tenant ({@code ''}: the provider's own case). */
public class CaseKey implements Serializable {
    public UUID incidentId;
    public String tenant;

    public CaseKey() {
    }

    CaseKey(UUID incidentId, String tenant) {
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
