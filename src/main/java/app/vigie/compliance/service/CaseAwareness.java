package app.vigie.compliance.service;

import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

/**
 * When a controller became aware of the breach (table {@code case_awareness}): when the processor's alert reached
 * it, which starts its clocks, and how that is known (its acknowledgement, a delivery receipt, a DPO's record).
 */
@Entity
@Table(name = "case_awareness")
@IdClass(CaseKey.class)
public class CaseAwareness extends PanacheEntityBase {
    @Id
    @Column(name = "incident_id")
    public UUID incidentId;

    @Id
    public String tenant;

    @Column(name = "aware_at", nullable = false)
    public Instant awareAt;

    @Column(nullable = false)
    public String evidence;

    @Column(name = "recorded_by", nullable = false)
    public String recordedBy;

    @Column(name = "recorded_at", nullable = false)
    public Instant recordedAt;

    /** A controller's awareness as read. */
    public record Awareness(Instant awareAt, String evidence, String recordedBy, Instant recordedAt) {
    }

    /** The awareness of each tenant of the incident that has one. */
    public static Map<String, Awareness> of(UUID incident) {
        return of(List.of(incident)).getOrDefault(incident, Map.of());
    }

    /** {@link #of(UUID)} for each of these incidents (those with none left out), read by one statement. */
    public static Map<UUID, Map<String, Awareness>> of(Collection<UUID> incidents) {
        Map<UUID, Map<String, Awareness>> out = new HashMap<>();
        CaseAwareness.<CaseAwareness>list("incidentId in ?1", incidents).forEach(a -> out.computeIfAbsent(
                a.incidentId, i -> new HashMap<>()).put(a.tenant,
                        new Awareness(a.awareAt, a.evidence, a.recordedBy, a.recordedAt)));
        return out;
    }

    /** Records the tenant's awareness, replacing any before. */
    public static void record(UUID incident, String tenant, Awareness a) {
        CaseAwareness e = CaseAwareness.<CaseAwareness>findByIdOptional(new CaseKey(incident, tenant)).orElse(null);
        if (e == null) {
            e = new CaseAwareness();
            e.incidentId = incident;
            e.tenant = tenant;
        }
        e.awareAt = a.awareAt();
        e.evidence = a.evidence();
        e.recordedBy = a.recordedBy();
        e.recordedAt = a.recordedAt();
        e.persist();
    }
}
