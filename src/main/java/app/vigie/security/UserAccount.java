package app.vigie.security;

import java.time.Instant;
import java.util.Set;

/** An account of the service. {@code tenant} binds a customer account to its tenant. */
public record UserAccount(String username, String passwordHash, Set<String> roles, String tenant, Instant createdAt) {
}
