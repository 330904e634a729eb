package app.vigie.incident;

import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.LockModeType;
import jakarta.persistence.Table;

import org.hibernate.annotations.DynamicUpdate;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

/**
 * An incident's lifecycle (table {@code incident}): its status and the reason given for it, which people change.
 * Detection opens incidents and keeps their counters and exposure times with its own SQL (the hot path,
 * {@code detection.store}); this entity maps only what the lifecycle reads and writes, so that it never writes a
 * counter, and an update writes only the columns it changed.
 */
@Entity
@Table(name = "incident")
@DynamicUpdate
public class Incident extends PanacheEntityBase {
    @Id
    public UUID id;

    @Column(nullable = false)
    public String deployment;

    /** An {@link IncidentStatus}. */
    @Column(nullable = false)
    public String status;

    @Column(name = "status_reason")
    public String statusReason;

    @Column(name = "detected_at", nullable = false)
    public Instant detectedAt;

    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;

    /** When it was closed: its evidence is kept for {@code vigie.retention.incident-evidence} after it. */
    @Column(name = "closed_at")
    public Instant closedAt;

    /**
     * Moves the incident to {@code to} with {@code reason}, its row locked until the transaction ends; returns the
     * status before, or empty when there is no such incident. {@link IllegalStateException} when its status cannot
     * become {@code to}. Written at once: what the transaction reads next through JDBC sees it.
     */
    public static Optional<IncidentStatus> changeStatus(UUID id, IncidentStatus to, String reason, Instant now) {
        Incident i = Incident.<Incident>findById(id, LockModeType.PESSIMISTIC_WRITE);
        if (i == null) {
            return Optional.empty();
        }
        IncidentStatus before = IncidentStatus.valueOf(i.status);
        if (!before.next().contains(to)) {
            throw new IllegalStateException("an incident " + before + " cannot become " + to + "; it can become "
                    + before.next());
        }
        i.status = to.name();
        i.statusReason = reason;
        i.updatedAt = now;
        if (to == IncidentStatus.CLOSED) {
            i.closedAt = now;
        }
        flush();
        return Optional.of(before);
    }
}
