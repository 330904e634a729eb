package app.vigie.alert;

import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import app.vigie.platform.ServiceKey;

/**
 * The acknowledgement links of alerts, for customers without an account here: the link's token is derived from the
 * alert (never stored in clear), put into the body at each send, valid for {@code vigie.alerts.ack-valid-for}.
 */
@ApplicationScoped
public class AckLinks {
    /** Where the link's token goes in a stored body; replaced at each send. */
    static final String ACK_TOKEN_SLOT = "{ack-token}";

    @Inject
    AlertConfig config;

    @Inject
    ServiceKey serviceKey;

    /**
     * The acknowledgement link's token of the alert with this idempotency key: an HMAC under the service's key
     * (VIGIE_SESSION_KEY, the same on every instance), so it is the same at every send and never needs storing.
     * Rotating that key ends the links already sent (the portal still acknowledges).
     */
    public String ackToken(String idempotencyKey) {
        return serviceKey.keyed("vigie-ack-link", idempotencyKey);
    }

    /** A stored body with the link's token of the alert {@code idempotencyKey} put in. */
    String withToken(String body, String idempotencyKey) {
        return body.replace(ACK_TOKEN_SLOT, ackToken(idempotencyKey));
    }

    /** How long an acknowledgement link is valid from the alert's creation. */
    Duration validFor() {
        return config.ackValidFor();
    }
}
