package app.vigie.alert;

import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.LockModeType;
import jakarta.persistence.Table;

import org.hibernate.query.NativeQuery;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

import app.vigie.platform.Digests;

/**
 * The secrets a tenant's webhooks are signed with (table {@code tenant_webhook_secret}): made on first use, rotated by
 * the DPO with an overlap during which the previous one still signs, never shown again after they are made (only a
 * fingerprint). The first use may come from the delivery workers of several instances at once: it inserts with
 * {@code on conflict do nothing}, so that the first one made is kept and no delivery's transaction fails.
 */
@Entity
@Table(name = "tenant_webhook_secret")
public class WebhookSecret extends PanacheEntityBase {
    private static final SecureRandom RANDOM = new SecureRandom();

    @Id
    public String tenant;

    @Column(nullable = false)
    public String secret;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    @Column(name = "previous_secret")
    public String previousSecret;

    @Column(name = "previous_until")
    public Instant previousUntil;

    /** What is known of a tenant's webhook secret, without the secret. */
    public record Info(boolean exists, Instant createdAt, String fingerprint, Instant previousValidUntil) {
    }

    /**
     * The secrets a tenant's webhooks are signed with now: its current one (made on first use, and then known to
     * nobody until the DPO rotates it), and the one before it while its overlap lasts.
     */
    public static List<String> signingSecrets(String tenant, Instant now) {
        Optional<WebhookSecret> found = WebhookSecret.findByIdOptional(tenant);
        if (found.isEmpty()) {
            // first use: made unless a rotation or another worker made one meanwhile, which is then kept
            getEntityManager().createNativeQuery("insert into tenant_webhook_secret (tenant, secret, created_at) "
                    + "values (?1, ?2, ?3) on conflict (tenant) do nothing")
                    .unwrap(NativeQuery.class).addSynchronizedEntityClass(WebhookSecret.class)
                    .setParameter(1, tenant).setParameter(2, newSecret()).setParameter(3, now).executeUpdate();
            found = WebhookSecret.findByIdOptional(tenant);
        }
        WebhookSecret s = found.orElseThrow();
        return s.previousSecret != null && s.previousUntil != null && s.previousUntil.isAfter(now)
                ? List.of(s.secret, s.previousSecret) : List.of(s.secret);
    }

    /** Whether the tenant has a secret, since when, its fingerprint, and until when the previous one still signs. */
    public static Info info(String tenant, Instant now) {
        return WebhookSecret.<WebhookSecret>findByIdOptional(tenant).map(s -> new Info(true, s.createdAt,
                Digests.sha256Hex(s.secret).substring(0, 12),
                s.previousUntil == null || !s.previousUntil.isAfter(now) ? null : s.previousUntil))
                .orElse(new Info(false, null, null, null));
    }

    /** A new secret, shown once, and until when the one before still signs (null: it does not). */
    public record Rotated(String secret, Instant previousValidUntil) {
    }

    /**
     * A new webhook secret for the tenant, returned this once; the one before, if any, keeps signing beside it for
     * {@code overlap} (zero: it stops at once, as after a leak). The row is locked first, so that two rotations at once
     * follow each other: the second one's previous secret is the first one's new one.
     */
    public static Rotated rotate(String tenant, Instant now, Duration overlap) {
        String secret = newSecret();
        WebhookSecret s = WebhookSecret.<WebhookSecret>findById(tenant, LockModeType.PESSIMISTIC_WRITE);
        boolean had = s != null;
        if (!had) {
            s = new WebhookSecret();
            s.tenant = tenant;
        } else {
            s.previousSecret = s.secret;
            s.previousUntil = now.plus(overlap);
        }
        s.secret = secret;
        s.createdAt = now;
        s.persist();
        return new Rotated(secret, had && !overlap.isZero() ? s.previousUntil : null);
    }

    private static String newSecret() {
        byte[] b = new byte[32];
        RANDOM.nextBytes(b);
        return "whsec_" + Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }
}
