package app.vigie.alert;

import java.time.Instant;
import java.util.Collection;
import java.util.List;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import org.hibernate.annotations.DynamicUpdate;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

/**
 * An alert's delivery on one channel (table {@code alert_delivery}) as people read it and send it again. The
 * delivery workers claim, send and reschedule deliveries with their own SQL ({@link DeliveryStore}: {@code for update
 * skip locked} lets the workers of every instance share the queue); this entity maps what the API and the pages
 * show, and the DPO's resend.
 */
@Entity
@Table(name = "alert_delivery")
@DynamicUpdate
public class ChannelDelivery extends PanacheEntityBase {
    @Id
    public Long id;

    @Column(name = "alert_id", nullable = false)
    public Long alertId;

    /** webhook, email or kafka. */
    @Column(nullable = false)
    public String channel;

    @Column(nullable = false)
    public String target;

    /** HELD (waiting for the DPO), PENDING, DELIVERED or DEAD. */
    @Column(nullable = false)
    public String status;

    @Column(nullable = false)
    public int attempts;

    @Column(name = "next_attempt_at", nullable = false)
    public Instant nextAttemptAt;

    @Column(name = "last_error")
    public String lastError;

    @Column(name = "delivered_at")
    public Instant deliveredAt;

    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;

    /** The deliveries of these alerts, in the order they were made. */
    public static List<ChannelDelivery> ofAlerts(Collection<Long> alerts) {
        return alerts.isEmpty() ? List.of()
                : ChannelDelivery.<ChannelDelivery>list("alertId in ?1 order by id", List.copyOf(alerts));
    }

    /** A DEAD or HELD delivery due again now, from attempt zero; false when there is none in those states. */
    public static boolean requeue(long id, Instant now) {
        return ChannelDelivery.update("status = 'PENDING', attempts = 0, nextAttemptAt = ?1, updatedAt = ?1 "
                + "where id = ?2 and status in ('DEAD', 'HELD')", now, id) > 0;
    }
}
