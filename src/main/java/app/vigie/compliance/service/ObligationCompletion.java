package app.vigie.compliance.service;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

import app.vigie.compliance.plan.Completion;
import app.vigie.compliance.plan.Obligation;

/**
 * An obligation recorded as done (table {@code obligation_completion}): which party's obligation (tenant {@code ''}:
 * the provider's), to which recipient, in which phase, when, the receipt that proves it, the reasons of a delay.
 * Added, never changed: a phased notification has one per phase.
 */
@Entity
@Table(name = "obligation_completion")
public class ObligationCompletion extends PanacheEntityBase {
    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(name = "incident_id", nullable = false)
    public UUID incidentId;

    @Column(nullable = false)
    public String tenant;

    @Column(nullable = false)
    public String rule;

    @Column(nullable = false)
    public String recipient;

    /** INITIAL or COMPLEMENTARY for a phased notification; null otherwise. */
    public String phase;

    @Column(name = "done_at", nullable = false)
    public Instant doneAt;

    @Column(nullable = false)
    public String evidence;

    @Column(name = "late_reasons")
    public String lateReasons;

    @Column(name = "recorded_by", nullable = false)
    public String recordedBy;

    @Column(name = "recorded_at", nullable = false)
    public Instant recordedAt;

    /** The incident's completions by {@link Obligation#key()}, in the order recorded. */
    public static Map<String, List<Completion>> of(UUID incident) {
        return of(List.of(incident)).getOrDefault(incident, Map.of());
    }

    /** {@link #of(UUID)} for each of these incidents (those with none left out), read by one statement. */
    public static Map<UUID, Map<String, List<Completion>>> of(Collection<UUID> incidents) {
        Map<UUID, Map<String, List<Completion>>> out = new HashMap<>();
        ObligationCompletion.<ObligationCompletion>list("incidentId in ?1 order by id", incidents)
                .forEach(c -> out.computeIfAbsent(c.incidentId, i -> new HashMap<>())
                        .computeIfAbsent(Obligation.key(c.tenant.isEmpty() ? null : c.tenant, c.rule, c.recipient),
                                k -> new ArrayList<>())
                        .add(new Completion(c.phase, c.doneAt, c.evidence, c.lateReasons, c.recordedBy,
                                c.recordedAt)));
        return out;
    }

    /** Records {@code done} for the obligation {@code o} of the incident. */
    public static void add(UUID incident, Obligation o, Completion done) {
        ObligationCompletion c = new ObligationCompletion();
        c.incidentId = incident;
        c.tenant = o.tenant() == null ? "" : o.tenant();
        c.rule = o.rule();
        c.recipient = o.recipient();
        c.phase = done.phase();
        c.doneAt = done.doneAt();
        c.evidence = done.evidence();
        c.lateReasons = done.lateReasons();
        c.recordedBy = done.recordedBy();
        c.recordedAt = done.recordedAt();
        c.persist();
    }
}
