package app.vigie.alert;

import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import app.vigie.platform.Mode;
import app.vigie.tenant.ChannelCheck;
import app.vigie.tenant.Tenant;

/**
 * Where webhooks may go ({@link WebhookTargets} from {@code vigie.alerts.webhook.*} and the mode): checked at each
 * delivery, and when a target is saved into the directory, so that a target no alert could ever reach is refused
 * with its reason then, not found out at the first incident.
 */
@ApplicationScoped
public class WebhookPolicy implements ChannelCheck {
    private final WebhookTargets targets;

    public WebhookPolicy(AlertConfig config) {
        this.targets = new WebhookTargets(config.webhook().allowedNetworks().orElse(List.of()),
                Mode.current() == Mode.PRODUCTION && !config.webhook().allowHttp());
    }

    public WebhookTargets targets() {
        return targets;
    }

    @Override
    public Optional<String> refusal(Tenant.AlertChannel channel) {
        if (channel == null || !"webhook".equals(channel.type()) || channel.target() == null) {
            return Optional.empty();
        }
        try {
            targets.checkSaved(channel.target());
            return Optional.empty();
        } catch (WebhookTargets.Refused e) {
            return Optional.of(e.getMessage());
        }
    }
}
