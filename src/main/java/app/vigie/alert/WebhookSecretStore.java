package app.vigie.alert;

import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;

import app.vigie.platform.Digests;

/**
 * The secrets a tenant's webhooks are signed with: made on first use, rotated by the DPO with an overlap during which
 * the previous one still signs, never shown again after they are made (only a fingerprint).
 */
public final class WebhookSecretStore {
    private static final SecureRandom RANDOM = new SecureRandom();

    private WebhookSecretStore() {
    }

    /**
     * The secrets a tenant's webhooks are signed with now: its current one (made on first use, and then known to
     * nobody until the DPO rotates it), and the one before it while its overlap lasts.
     */
    public static List<String> signingSecrets(Connection c, String tenant, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "select secret, previous_secret, previous_until from tenant_webhook_secret where tenant = ?")) {
            ps.setString(1, tenant);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    Timestamp until = rs.getTimestamp(3);
                    return rs.getString(2) != null && until != null && until.toInstant().isAfter(now)
                            ? List.of(rs.getString(1), rs.getString(2)) : List.of(rs.getString(1));
                }
            }
        }
        // first use: made unless a rotation made one meanwhile, which is then kept (it is the one the DPO saw)
        try (PreparedStatement ps = c.prepareStatement("""
                insert into tenant_webhook_secret (tenant, secret, created_at) values (?, ?, ?)
                on conflict (tenant) do nothing""")) {
            ps.setString(1, tenant);
            ps.setString(2, newSecret());
            ps.setTimestamp(3, Timestamp.from(now));
            ps.executeUpdate();
        }
        return signingSecrets(c, tenant, now);
    }

    private static String newSecret() {
        byte[] b = new byte[32];
        RANDOM.nextBytes(b);
        return "whsec_" + Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }

    /** What is known of a tenant's webhook secret, without the secret. */
    public record SecretInfo(boolean exists, Instant createdAt, String fingerprint, Instant previousValidUntil) {
    }

    public static SecretInfo secretInfo(Connection c, String tenant, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "select secret, created_at, previous_until from tenant_webhook_secret where tenant = ?")) {
            ps.setString(1, tenant);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return new SecretInfo(false, null, null, null);
                }
                Timestamp until = rs.getTimestamp(3);
                return new SecretInfo(true, rs.getTimestamp(2).toInstant(),
                        Digests.sha256Hex(rs.getString(1)).substring(0, 12),
                        until == null || !until.toInstant().isAfter(now) ? null : until.toInstant());
            }
        }
    }

    /**
     * A new webhook secret for the tenant, returned this once; the one before keeps signing beside it for
     * {@code overlap} (zero: it stops at once, as after a leak).
     */
    public static String rotate(Connection c, String tenant, Instant now, Duration overlap) throws SQLException {
        String secret = newSecret();
        try (PreparedStatement ps = c.prepareStatement("""
                insert into tenant_webhook_secret (tenant, secret, created_at) values (?, ?, ?)
                on conflict (tenant) do update set previous_secret = tenant_webhook_secret.secret,
                  previous_until = ?, secret = excluded.secret, created_at = excluded.created_at""")) {
            ps.setString(1, tenant);
            ps.setString(2, secret);
            ps.setTimestamp(3, Timestamp.from(now));
            ps.setTimestamp(4, Timestamp.from(now.plus(overlap)));
            ps.executeUpdate();
        }
        return secret;
    }
}
