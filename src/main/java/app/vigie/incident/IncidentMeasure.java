package app.vigie.incident;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

/** A measure taken in an incident, as the notices and the register state it (V9__register.sql). */
@Entity
@Table(name = "incident_measure")
public class IncidentMeasure extends PanacheEntityBase {
    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(name = "incident_id", nullable = false)
    public UUID incidentId;

    @Column(name = "taken_at", nullable = false)
    public Instant takenAt;

    @Column(nullable = false)
    public String text;

    @Column(name = "recorded_by", nullable = false)
    public String recordedBy;

    @Column(name = "recorded_at", nullable = false)
    public Instant recordedAt;

    /** A measure as the API, the notices and the register read it. */
    public record Measure(long id, Instant takenAt, String text, String recordedBy, Instant recordedAt) {
    }

    /** The measures of {@code incident}, in the order they were taken. */
    public static List<Measure> of(UUID incident) {
        return IncidentMeasure.<IncidentMeasure>list("incidentId = ?1 order by takenAt, id", incident).stream()
                .map(IncidentMeasure::view).toList();
    }

    public Measure view() {
        return new Measure(id, takenAt, text, recordedBy, recordedAt);
    }
}
