package app.vigie.security;

import java.time.Instant;
import java.util.Set;

import app.vigie.auditlog.intake.IngestScope;

/**
 * An account of the service. {@code tenant} binds a customer account to its tenant. {@code sessionVersion} moves on at
 * each sign-out and change of password or roles: a dashboard session of an older version is refused. {@code oidc}: the
 * OpenID Connect identity (issuer, subject) that signs in as this account, if any. {@code ingestScope}: what an
 * ingest account may write; null when it is not bound.
 */
public record UserAccount(String username, String passwordHash, Set<String> roles, String tenant, Instant createdAt,
        int sessionVersion, OidcIdentity oidc, IngestScope ingestScope) {
    public UserAccount(String username, String passwordHash, Set<String> roles, String tenant, Instant createdAt) {
        this(username, passwordHash, roles, tenant, createdAt, 0, null, null);
    }

    public UserAccount(String username, String passwordHash, Set<String> roles, String tenant, Instant createdAt,
            int sessionVersion, OidcIdentity oidc) {
        this(username, passwordHash, roles, tenant, createdAt, sessionVersion, oidc, null);
    }
}
