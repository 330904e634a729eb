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

import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

/**
 * A controller's severity assessment of the breach (table {@code case_severity}): ENISA's inputs (JSON) and, when it
 * decided otherwise, the level it chose with its justification.
 */
@Entity
@Table(name = "case_severity")
@IdClass(CaseKey.class)
public class CaseSeverity extends PanacheEntityBase {
    @Id
    @Column(name = "incident_id")
    public UUID incidentId;

    @Id
    public String tenant;

    @JdbcTypeCode(SqlTypes.JSON)
    public String inputs;

    @Column(name = "override_level")
    public String overrideLevel;

    @Column(name = "override_justification")
    public String overrideJustification;

    @Column(name = "recorded_by", nullable = false)
    public String recordedBy;

    @Column(name = "recorded_at", nullable = false)
    public Instant recordedAt;

    /** ENISA inputs as stored (JSON) and the controller's override. */
    public record Row(String inputsJson, String overrideLevel, String overrideJustification, String recordedBy,
            Instant recordedAt) {
    }

    /** The assessment of each tenant of the incident that has one. */
    public static Map<String, Row> of(UUID incident) {
        return of(List.of(incident)).getOrDefault(incident, Map.of());
    }

    /** {@link #of(UUID)} for each of these incidents (those with none left out), read by one statement. */
    public static Map<UUID, Map<String, Row>> of(Collection<UUID> incidents) {
        Map<UUID, Map<String, Row>> out = new HashMap<>();
        CaseSeverity.<CaseSeverity>list("incidentId in ?1", incidents).forEach(s -> out.computeIfAbsent(
                s.incidentId, i -> new HashMap<>()).put(s.tenant,
                        new Row(s.inputs, s.overrideLevel, s.overrideJustification, s.recordedBy, s.recordedAt)));
        return out;
    }

    /** Records the tenant's assessment, replacing any before. */
    public static void record(UUID incident, String tenant, Row r) {
        CaseSeverity e = CaseSeverity.<CaseSeverity>findByIdOptional(new CaseKey(incident, tenant)).orElse(null);
        if (e == null) {
            e = new CaseSeverity();
            e.incidentId = incident;
            e.tenant = tenant;
        }
        e.inputs = r.inputsJson();
        e.overrideLevel = r.overrideLevel();
        e.overrideJustification = r.overrideJustification();
        e.recordedBy = r.recordedBy();
        e.recordedAt = r.recordedAt();
        e.persist();
    }
}
