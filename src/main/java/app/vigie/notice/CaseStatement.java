package app.vigie.notice;

import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;

import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

import app.vigie.compliance.service.CaseKey;

/**
 * What a controller states of its case in an incident (table {@code case_statement}): the data and persons
 * concerned, the consequences, the measures, which only it knows; a JSON document ({@link Statements}), replaced
 * whole at each answer, with who recorded it and when.
 */
@Entity
@Table(name = "case_statement")
@IdClass(CaseKey.class)
public class CaseStatement extends PanacheEntityBase {
    @Id
    @Column(name = "incident_id")
    public UUID incidentId;

    @Id
    public String tenant;

    @JdbcTypeCode(SqlTypes.JSON)
    @Column(nullable = false)
    public String body;

    @Column(name = "recorded_by", nullable = false)
    public String recordedBy;

    @Column(name = "recorded_at", nullable = false)
    public Instant recordedAt;

    /** The tenant's statements in the incident as JSON, if it stated any. */
    public static Optional<String> body(UUID incident, String tenant) {
        return CaseStatement.<CaseStatement>findByIdOptional(new CaseKey(incident, tenant)).map(s -> s.body);
    }

    /** Records the tenant's statements (JSON), replacing any before. */
    public static void record(UUID incident, String tenant, String body, String actor, Instant now) {
        CaseStatement s = CaseStatement.<CaseStatement>findByIdOptional(new CaseKey(incident, tenant)).orElse(null);
        if (s == null) {
            s = new CaseStatement();
            s.incidentId = incident;
            s.tenant = tenant;
        }
        s.body = body;
        s.recordedBy = actor;
        s.recordedAt = now;
        s.persist();
    }
}
