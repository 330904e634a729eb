package app.vigie.alert;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Customer alerts: how they are sent, retried, escalated and where webhooks may go (docs/alerts.md). */
@ConfigMapping(prefix = "vigie.alerts")
public interface AlertConfig {

    /** Whether INITIAL alerts wait for the DPO's release (HELD) instead of going out at once. */
    @WithDefault("false")
    boolean holdInitial();

    /** How often due deliveries are looked for (a thread of the sender's: Quarkus's scheduler stops at a second). */
    @WithDefault("250ms")
    Duration deliverEvery();

    /** The Kafka topic of the kafka channel (production mode), keyed by tenant. */
    @WithDefault("vigie.customer-alerts.v1")
    String topic();

    /** Attempts of one delivery before it is given up (DEAD, the DPO told). */
    @WithDefault("8")
    int maxAttempts();

    /** The first retry's wait, doubled at each attempt... */
    @WithDefault("PT5S")
    Duration retryBase();

    /** ...up to this. */
    @WithDefault("PT1H")
    Duration retryMax();

    /** An alert not acknowledged after this is escalated to the DPO. */
    @WithDefault("PT4H")
    Duration ackEscalateAfter();

    /** How long an acknowledgement link stays valid from the alert's creation. */
    @WithDefault("P90D")
    Duration ackValidFor();

    /** Deliveries sent at the same time, at most (each waits at most {@link #attemptDeadline()}). */
    @WithDefault("16")
    int concurrency();

    /**
     * Deliveries of one tenant on one channel in flight at the same time, at most: a slow receiver holds that many
     * senders, not all (order is kept by the claim itself: a tenant's later alert waits for its earlier one).
     */
    @WithDefault("1")
    int perTenant();

    /** One attempt, whole: connection, TLS, request and answer. */
    @WithDefault("PT10S")
    Duration attemptDeadline();

    /** Where webhooks may go, and how their secrets rotate. */
    Webhook webhook();

    interface Webhook {
        /**
         * Networks (CIDR) whose addresses webhooks may reach although loopback, link-local, private or reserved;
         * none by default.
         */
        Optional<List<String>> allowedNetworks();

        /** Whether plain http is allowed in production mode (https is required otherwise). */
        @WithDefault("false")
        boolean allowHttp();

        /** How long the secret before a rotation keeps signing, by default. */
        @WithDefault("P1D")
        Duration secretOverlap();
    }
}
