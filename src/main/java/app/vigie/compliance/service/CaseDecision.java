package app.vigie.compliance.service;

import java.io.Serializable;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

import app.vigie.compliance.plan.Decision;

/**
 * A decision of a case (table {@code case_decision}): whether the breach is major, serious, unlikely to result in a
 * risk..., as the controller (or the provider, tenant {@code ''}) decided it, when, and why.
 */
@Entity
@Table(name = "case_decision")
@IdClass(CaseDecision.Key.class)
public class CaseDecision extends PanacheEntityBase {
    @Id
    @Column(name = "incident_id")
    public UUID incidentId;

    @Id
    public String tenant;

    @Id
    public String decision;

    @Column(nullable = false)
    public boolean value;

    @Column(name = "decided_at", nullable = false)
    public Instant decidedAt;

    @Column(nullable = false)
    public String justification;

    @Column(name = "recorded_by", nullable = false)
    public String recordedBy;

    @Column(name = "recorded_at", nullable = false)
    public Instant recordedAt;

    /** The key: an incident, a tenant, a decision's name. */
    public static class Key implements Serializable {
        public UUID incidentId;
        public String tenant;
        public String decision;

        public Key() {
        }

        Key(UUID incidentId, String tenant, String decision) {
            this.incidentId = incidentId;
            this.tenant = tenant;
            this.decision = decision;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Objects.equals(incidentId, k.incidentId) && Objects.equals(tenant, k.tenant)
                    && Objects.equals(decision, k.decision);
        }

        @Override
        public int hashCode() {
            return Objects.hash(incidentId, tenant, decision);
        }
    }

    /** The incident's decisions by tenant, then by name. */
    public static Map<String, Map<String, Decision>> of(UUID incident) {
        return of(List.of(incident)).getOrDefault(incident, Map.of());
    }

    /** {@link #of(UUID)} for each of these incidents (those with none left out), read by one statement. */
    public static Map<UUID, Map<String, Map<String, Decision>>> of(Collection<UUID> incidents) {
        Map<UUID, Map<String, Map<String, Decision>>> out = new HashMap<>();
        CaseDecision.<CaseDecision>list("incidentId in ?1", incidents).forEach(d -> out.computeIfAbsent(
                d.incidentId, i -> new HashMap<>())
                        .computeIfAbsent(d.tenant, t -> new HashMap<>())
                        .put(d.decision, new Decision(d.decision, d.value, d.decidedAt, d.justification)));
        return out;
    }

    /** Records the tenant's decision, replacing any before of that name. */
    public static void record(UUID incident, String tenant, Decision d, String actor, Instant now) {
        CaseDecision e = CaseDecision.<CaseDecision>findByIdOptional(new Key(incident, tenant, d.name()))
                .orElse(null);
        if (e == null) {
            e = new CaseDecision();
            e.incidentId = incident;
            e.tenant = tenant;
            e.decision = d.name();
        }
        e.value = d.value();
        e.decidedAt = d.at();
        e.justification = d.justification();
        e.recordedBy = actor;
        e.recordedAt = now;
        e.persist();
    }
}
