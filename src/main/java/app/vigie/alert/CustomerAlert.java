package app.vigie.alert;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import org.hibernate.annotations.DynamicUpdate;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

/**
 * A customer alert as people read and act on it (table {@code customer_alert}): which incident and tenant, which
 * phase, when it was called for, and its acknowledgement. The alert is written by the outbox in detection's
 * transaction and its body fixed at the first delivery ({@link OutboxStore}, {@link DeliveryStore}); this entity maps
 * what the API, the pages and the acknowledgement read and change, and an update writes only what it changed.
 */
@Entity
@Table(name = "customer_alert")
@DynamicUpdate
public class CustomerAlert extends PanacheEntityBase {
    @Id
    public Long id;

    @Column(name = "incident_id", nullable = false)
    public UUID incidentId;

    @Column(nullable = false)
    public String tenant;

    /** INITIAL, UPDATE or FINAL. */
    @Column(nullable = false)
    public String phase;

    @Column(name = "idempotency_key", nullable = false)
    public String idempotencyKey;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    /** The SHA-256 of the acknowledgement link's token (the token itself is never stored). */
    @Column(name = "ack_token", nullable = false)
    public String ackToken;

    @Column(name = "acknowledged_at")
    public Instant acknowledgedAt;

    @Column(name = "acknowledged_by")
    public String acknowledgedBy;

    /** Not acknowledged in time: when the DPO was told. */
    @Column(name = "escalated_at")
    public Instant escalatedAt;

    /** The alert {@code id}, if there is one. */
    public static Optional<CustomerAlert> byId(long id) {
        return CustomerAlert.<CustomerAlert>findByIdOptional(id);
    }

    /** The alert whose acknowledgement token has this SHA-256. */
    public static Optional<CustomerAlert> byTokenHash(String sha256) {
        return CustomerAlert.<CustomerAlert>find("ackToken", sha256).firstResultOptional();
    }

    /** The alerts of {@code tenant} in an incident it has not acknowledged yet (FINAL ones ask for nothing). */
    public static int unacknowledged(UUID incident, String tenant) {
        return (int) CustomerAlert.count("incidentId = ?1 and tenant = ?2 and acknowledgedAt is null "
                + "and phase <> 'FINAL'", incident, tenant);
    }

    /**
     * Where an alert of a running incident (neither dismissed nor closed) stands, as the overview's summary counts it
     * ({@code DeadlineStore.refresh}, in SQL):
     * {@code UNDELIVERED}, no channel has delivered it (none known, held, pending or given up);
     * {@code UNACKNOWLEDGED}, delivered and not acknowledged (a FINAL alert asks for no acknowledgement).
     */
    public enum State {
        UNDELIVERED("not exists (select 1 from ChannelDelivery d where d.alertId = a.id and d.status = 'DELIVERED')"),
        UNACKNOWLEDGED("exists (select 1 from ChannelDelivery d where d.alertId = a.id and d.status = 'DELIVERED')"
                + " and a.acknowledgedAt is null and a.phase <> 'FINAL'");

        private final String where;

        State(String where) {
            this.where = "a.incidentId in (select i.id from Incident i where i.status not in ('DISMISSED', 'CLOSED'))"
                    + " and " + where;
        }
    }

    /**
     * At most {@code limit} alerts, newest first: of an incident ({@code incident} null: of all), with a delivery in
     * {@code status} ({@code null}: whatever their deliveries), in {@code state} ({@code null}: in any).
     */
    public static List<CustomerAlert> newest(UUID incident, String status, State state, int limit) {
        List<String> where = new ArrayList<>();
        List<Object> values = new ArrayList<>();
        if (incident != null) {
            values.add(incident);
            where.add("a.incidentId = ?" + values.size());
        }
        if (status != null) {
            values.add(status);
            where.add("exists (select 1 from ChannelDelivery d where d.alertId = a.id and d.status = ?"
                    + values.size() + ")");
        }
        if (state != null) {
            where.add(state.where);
        }
        return CustomerAlert.<CustomerAlert>find("from CustomerAlert a "
                + (where.isEmpty() ? "" : "where " + String.join(" and ", where) + " ") + "order by a.id desc",
                values.toArray()).page(0, limit).list();
    }

    /**
     * Acknowledges the alert {@code id} by {@code by} at {@code now} unless it is already: written at once (its row
     * locked until the transaction ends, so that the delivery worker does not escalate it meanwhile); false when it
     * was acknowledged before or does not exist.
     */
    public static boolean acknowledge(long id, String by, Instant now) {
        return CustomerAlert.update("acknowledgedAt = ?1, acknowledgedBy = ?2 where id = ?3 and acknowledgedAt is null",
                now, by, id) > 0;
    }
}
