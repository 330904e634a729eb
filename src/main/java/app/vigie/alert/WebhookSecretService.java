package app.vigie.alert;

import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;


import io.agroal.api.AgroalDataSource;

import app.vigie.audit.AuditTrail;
import app.vigie.db.Transactions;
import app.vigie.db.UnitOfWork;
import app.vigie.problem.ProblemException;
import app.vigie.tenant.TenantEntry;

/**
 * The secret a tenant's webhook receiver verifies signatures with: what is known of it (never the secret), and its
 * rotation, audited, the previous one signing beside the new one for an overlap.
 */
@ApplicationScoped
public class WebhookSecretService {
    /** The longest overlap a rotation accepts. */
    public static final Duration MAX_OVERLAP = Duration.ofDays(7);

    @Inject
    AgroalDataSource dataSource;

    @Inject
    Clock clock;

    @Inject
    AlertConfig config;

    /** A new secret, shown once, and until when the one before still signs. */
    public record Secret(String tenant, String secret, Instant previousValidUntil) {
    }

    /** What is known of the secret. */
    public record Info(String tenant, boolean exists, Instant createdAt, String fingerprint,
            Instant previousValidUntil) {
    }

    /** Whether the tenant has a secret, since when, its fingerprint; 404 for an unknown tenant. */
    @UnitOfWork
    public Info info(String tenant) throws SQLException {
        TenantEntry.byId(tenant).orElseThrow(() -> new ProblemException(404, "no tenant '" + tenant + "'"));
        WebhookSecret.Info i = WebhookSecret.info(tenant, clock.instant());
        return new Info(tenant, i.exists(), i.createdAt(), i.fingerprint(), i.previousValidUntil());
    }

    /**
     * A new secret for the tenant, as {@code actor} asks; the one before keeps signing for {@code overlap} (null: the
     * configured default; at most {@link #MAX_OVERLAP}; zero stops it at once).
     */
    @UnitOfWork
    public Secret rotate(String actor, String tenant, Duration overlap) throws SQLException {
        Duration o = overlap == null ? config.webhook().secretOverlap() : overlap;
        if (o.isNegative() || o.compareTo(MAX_OVERLAP) > 0) {
            throw new ProblemException(400, "query parameter 'overlap' must be between PT0S and P7D");
        }
        TenantEntry.byId(tenant).orElseThrow(() -> new ProblemException(404, "no tenant '" + tenant + "'"));
        WebhookSecret.Rotated r = WebhookSecret.rotate(tenant, clock.instant(), o);
        AuditTrail.record(actor, "tenant.webhook-secret", "tenant:" + tenant,
                null, "{\"rotated\":true,\"previous_overlap\":" + AuditTrail.quote(o.toString()) + "}");
        return new Secret(tenant, r.secret(), r.previousValidUntil());
    }
}
