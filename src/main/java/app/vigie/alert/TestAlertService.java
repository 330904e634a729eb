package app.vigie.alert;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.mailer.Mail;
import io.quarkus.mailer.Mailer;

import app.vigie.audit.AuditTrail;
import app.vigie.db.UnitOfWork;
import app.vigie.problem.ProblemException;
import app.vigie.tenant.Tenant;
import app.vigie.tenant.TenantEntry;
import app.vigie.tenant.TenantValidator;

/**
 * A test alert to each of a tenant's channels, sent now, outside the outbox (no incident, nothing retried): the DPO
 * sees what each receiver answered (status, the start of its body, the time it took), as payment providers' webhook
 * pages show. A webhook's is signed with the tenant's secrets and checked as a real alert is; its phase is
 * {@code TEST} and its body says it is a test. Audited ({@code tenant.test-alert}, with the answers).
 */
@ApplicationScoped
public class TestAlertService {
    public static final String PHASE = "TEST";

    @Inject
    AlertDelivery delivery;

    @Inject
    Mailer mailer;

    @Inject
    KafkaAlerts kafka;

    @Inject
    Clock clock;

    @Inject
    ObjectMapper json;

    /** One channel's result: delivered or not, the receiver's status and words, or why nothing was answered. */
    public record ChannelResult(String type, String target, boolean delivered, Integer status, String answer,
            String error, long millis) {
    }

    /** The test of every channel of a tenant. */
    public record Result(String tenant, Instant sentAt, String idempotencyKey, List<ChannelResult> results) {
    }

    record Prepared(Tenant tenant, List<String> secrets) {
    }

    /** Sends the test alert to every channel of {@code tenant}; 404 for no such tenant, 409 when it has no channel. */
    public Result send(String actor, String tenant) {
        if (tenant == null || tenant.isBlank()) {
            throw new ProblemException(400, "choose the tenant whose channels to test");
        }
        Instant now = clock.instant().truncatedTo(ChronoUnit.SECONDS);
        Prepared p = prepare(tenant, now);
        List<Tenant.AlertChannel> channels = p.tenant().alertChannels() == null ? List.of()
                : p.tenant().alertChannels();
        if (channels.isEmpty()) {
            throw new ProblemException(409, "tenant '" + tenant + "' has no alert channel to test: add one to its "
                    + "directory entry");
        }
        String key = "test-" + UUID.randomUUID();
        byte[] body = body(tenant, now, key);
        List<ChannelResult> results = new ArrayList<>();
        for (Tenant.AlertChannel c : channels) {
            results.add(switch (c.type()) {
                case "webhook" -> {
                    Webhook.Answer a = delivery.webhook().exchange(c.target(), p.secrets(), key, PHASE, body, now,
                            true);
                    yield new ChannelResult(c.type(), c.target(), a.delivered(), a.status(),
                            a.text().isEmpty() ? null : a.text(), a.error(), a.millis());
                }
                case "email" -> email(c.target(), tenant, key);
                case "kafka" -> timed(c, () -> kafka.send(tenant, key, PHASE, body));
                default -> new ChannelResult(c.type(), c.target(), false, null, null,
                        "channel '" + c.type() + "' is not delivered", 0);
            });
        }
        Result result = new Result(tenant, now, key, List.copyOf(results));
        audit(actor, result);
        return result;
    }

    /** The tenant's entry and its webhook secrets, read in one transaction (none is held while sending). */
    @UnitOfWork
    Prepared prepare(String tenant, Instant now) {
        Tenant t = TenantEntry.byId(tenant)
                .orElseThrow(() -> new ProblemException(404, "no tenant '" + tenant + "' in the directory"));
        boolean hooks = t.alertChannels() != null && t.alertChannels().stream()
                .anyMatch(c -> "webhook".equals(c.type()));
        return new Prepared(t, hooks ? WebhookSecret.signingSecrets(tenant, now) : List.of());
    }

    /** The test's audit event, with every receiver's answer. */
    @UnitOfWork
    void audit(String actor, Result result) {
        AuditTrail.record(actor, "tenant.test-alert", "tenant:" + result.tenant(), null, write(result));
    }

    private interface Sending {
        String send();
    }

    private static ChannelResult timed(Tenant.AlertChannel c, Sending sending) {
        long started = System.nanoTime();
        String error = sending.send();
        return new ChannelResult(c.type(), c.target(), error == null, null, null, error,
                (System.nanoTime() - started) / 1_000_000);
    }

    private ChannelResult email(String target, String tenant, String key) {
        return timed(new Tenant.AlertChannel("email", target), () -> {
            if (!TenantValidator.isEmail(target)) {
                return "SMTP: not sent: the target is not an e-mail address";
            }
            try {
                mailer.send(Mail.withText(target, "[Vigie] Alerte de test / Test alert",
                        "Ceci est une alerte de test de Vigie pour " + tenant + " : aucun incident, rien à faire.\n"
                                + "This is a test alert from Vigie for " + tenant + ": no incident, nothing to do.\n\n"
                                + "Idempotency-Key: " + key + "\n")
                        .addHeader("Idempotency-Key", key).addHeader("Vigie-Alert-Phase", PHASE));
                return null;
            } catch (RuntimeException e) {
                return "SMTP: " + e.getClass().getSimpleName() + ": " + e.getMessage();
            }
        });
    }

    private byte[] body(String tenant, Instant now, String key) {
        Map<String, Object> alert = new LinkedHashMap<>();
        alert.put("test", true);
        alert.put("tenant", tenant);
        alert.put("sent_at", now.toString());
        alert.put("idempotency_key", key);
        alert.put("message", "A test alert from Vigie: no incident, nothing to do.");
        try {
            return json.writeValueAsString(Map.of("alert", alert)).getBytes(StandardCharsets.UTF_8);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private String write(Result r) {
        try {
            return json.writeValueAsString(r);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
