package app.vigie.compliance.service;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

import app.vigie.compliance.plan.Obligation;

/**
 * A deadline reminder written for an obligation (table {@code escalation}): which step (T-24H, T-6H, T-1H, OVERDUE)
 * of which deadline, when it was due to fire and when it was written, and the obligation's status then. Written
 * once per (obligation, step, deadline): the schedulers of every instance plan the same reminders, and the insert
 * that finds one already there does nothing ({@link EscalationStore#insert}), so that exactly one of them writes
 * (and sends) it.
 */
@Entity
@Table(name = "escalation")
public class Escalation extends PanacheEntityBase {
    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(name = "incident_id", nullable = false)
    public UUID incidentId;

    /** {@code ''}: the provider's own obligation. */
    @Column(nullable = false)
    public String tenant;

    @Column(nullable = false)
    public String rule;

    @Column(nullable = false)
    public String recipient;

    @Column(nullable = false)
    public String step;

    @Column(name = "due_at", nullable = false)
    public Instant dueAt;

    @Column(name = "fire_at", nullable = false)
    public Instant fireAt;

    @Column(name = "fired_at", nullable = false)
    public Instant firedAt;

    /** The obligation's status when it was written: PENDING or LATE. */
    @Column(nullable = false)
    public String status;

    /**
     * Recorded, not sent: the step was reached while no check ran (the service down), and a later step of the same
     * deadline was reached too, which alone was sent.
     */
    @Column(nullable = false)
    public boolean skipped;

    /** An escalation as the API and the timeline show it ({@code tenant} null: the provider's). */
    public record Row(long id, UUID incidentId, String tenant, String rule, String recipient, String step,
            Instant dueAt, Instant fireAt, Instant firedAt, String status, boolean skipped) {
    }

    /** What makes an escalation one: its obligation ({@code tenant} {@code ''}: the provider's), step and deadline. */
    public record Key(UUID incident, String tenant, String rule, String recipient, String step, Instant dueAt) {
        public static Key of(UUID incident, Obligation o, String step, Instant dueAt) {
            return new Key(incident, o.tenant() == null ? "" : o.tenant(), o.rule(), o.recipient(), step,
                    dueAt.truncatedTo(ChronoUnit.MICROS));
        }
    }

    /**
     * The escalations already written for these incidents, read by one statement: what a check need not try again
     * (a key missing here is inserted, and the insert still does nothing if another checker wrote it meanwhile).
     */
    public static Set<Key> written(Collection<UUID> incidents) {
        Set<Key> out = new HashSet<>();
        getEntityManager().createQuery("select incidentId, tenant, rule, recipient, step, dueAt from Escalation "
                + "where incidentId in ?1", Object[].class).setParameter(1, incidents).getResultList()
                .forEach(r -> out.add(new Key((UUID) r[0], (String) r[1], (String) r[2], (String) r[3],
                        (String) r[4], ((Instant) r[5]).truncatedTo(ChronoUnit.MICROS))));
        return out;
    }

    /** The reminders sent for an incident (skipped steps left out), oldest first: its timeline's. */
    public static List<Row> sent(UUID incident) {
        return Escalation.<Escalation>find("incidentId = ?1 and skipped = false order by firedAt, id", incident)
                .stream().map(e -> new Row(e.id, e.incidentId, e.tenant.isEmpty() ? null : e.tenant, e.rule,
                        e.recipient, e.step, e.dueAt, e.fireAt, e.firedAt, e.status, e.skipped)).toList();
    }

    /** Escalations of one incident ({@code incident} non-null) or of all, after the id {@code after}, oldest first. */
    public static List<Row> after(UUID incident, long after, int limit) {
        return (incident == null ? Escalation.<Escalation>find("id > ?1 order by id", after)
                : Escalation.<Escalation>find("incidentId = ?1 and id > ?2 order by id", incident, after))
                .page(0, limit).stream().map(e -> new Row(e.id, e.incidentId, e.tenant.isEmpty() ? null : e.tenant,
                        e.rule, e.recipient, e.step, e.dueAt, e.fireAt, e.firedAt, e.status, e.skipped)).toList();
    }
}
