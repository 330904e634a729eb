package app.vigie.security;

import java.time.Instant;
import java.util.Set;

/**
 * An account of the service. {@code tenant} binds a customer account to its tenant. {@code sessionVersion} moves on at
 * each sign-out and change of password or roles: a dashboard session of an older version is refused. {@code oidc}: the
 * OpenID Connect identity (issuer, subject) that signs in as this account, if any.
 */
public record UserAccount(String username, String passwordHash, Set<String> roles, String tenant, Instant createdAt,
        int sessionVersion, OidcIdentity oidc) {
    public UserAccount(String username, String passwordHash, Set<String> roles, String tenant, Instant createdAt) {
        this(username, passwordHash, roles, tenant, createdAt, 0, null);
    }
}
