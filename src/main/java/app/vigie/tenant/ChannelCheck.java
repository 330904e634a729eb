package app.vigie.tenant;

import java.util.Optional;

/**
 * Why an alert channel typed into the directory can never be delivered, as the feature that delivers it judges
 * (alerting implements it; the directory asks it before it saves, without knowing how alerts are sent).
 */
public interface ChannelCheck {
    /** Why {@code channel} can never be delivered, or empty when it may be. */
    Optional<String> refusal(Tenant.AlertChannel channel);
}
