package app.vigie.security;

import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

import app.vigie.auditlog.intake.IngestScope;

/**
 * An account of the service (table {@code app_user}): its password's hash, its roles, the tenant a customer account
 * is bound to, its session version, which moves on at each sign-out and each change of password or roles, and the
 * OpenID Connect identity (issuer and subject) bound to it, if any, and what an ingest account may write (its
 * deployments and stream prefixes; both null: not bound).
 */
@Entity
@Table(name = "app_user")
public class Account extends PanacheEntityBase {
    @Id
    public String username;

    @Column(name = "password_hash", nullable = false)
    public String passwordHash;

    @JdbcTypeCode(SqlTypes.ARRAY)
    @Column(nullable = false)
    public String[] roles;

    public String tenant;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;

    @Column(name = "session_version", nullable = false)
    public int sessionVersion;

    @Column(name = "oidc_issuer")
    public String oidcIssuer;

    @Column(name = "oidc_subject")
    public String oidcSubject;

    @JdbcTypeCode(SqlTypes.ARRAY)
    @Column(name = "ingest_deployments")
    public String[] ingestDeployments;

    @JdbcTypeCode(SqlTypes.ARRAY)
    @Column(name = "ingest_stream_prefixes")
    public String[] ingestStreamPrefixes;

    /** The account named {@code username}, as read. */
    public static Optional<UserAccount> named(String username) {
        return Account.<Account>findByIdOptional(username).map(Account::view);
    }

    /** The account bound to this OpenID Connect identity, as read. */
    public static Optional<UserAccount> boundTo(OidcIdentity identity) {
        return Account.<Account>find("oidcIssuer = ?1 and oidcSubject = ?2", identity.issuer(), identity.subject())
                .firstResultOptional().map(Account::view);
    }

    /**
     * Binds the account to {@code identity} (null: unbinds it). Returns the account as it was before; empty when
     * there is no such account.
     */
    public static Optional<UserAccount> bind(String username, OidcIdentity identity, Instant now) {
        Account a = findById(username);
        if (a == null) {
            return Optional.empty();
        }
        UserAccount before = a.view();
        if (Objects.equals(before.oidc(), identity)) {
            return Optional.of(before);
        }
        a.oidcIssuer = identity == null ? null : identity.issuer();
        a.oidcSubject = identity == null ? null : identity.subject();
        a.updatedAt = now;
        a.persist();
        return Optional.of(before);
    }

    /**
     * Binds the account to what it may write (null: unbinds it). Returns the account as it was before; empty when
     * there is no such account.
     */
    public static Optional<UserAccount> scope(String username, IngestScope scope, Instant now) {
        Account a = findById(username);
        if (a == null) {
            return Optional.empty();
        }
        UserAccount before = a.view();
        if (Objects.equals(before.ingestScope(), scope)) {
            return Optional.of(before);
        }
        a.ingestDeployments = scope == null ? null : scope.deployments().toArray(String[]::new);
        a.ingestStreamPrefixes = scope == null ? null : scope.streamPrefixes().toArray(String[]::new);
        a.updatedAt = now;
        a.persist();
        return Optional.of(before);
    }

    /** Every account, by name. */
    public static List<UserAccount> everyone() {
        return Account.<Account>list("order by username").stream().map(Account::view).toList();
    }

    /**
     * Creates (created now) or replaces the account (its creation kept); a replaced one's sessions end (its session
     * version moves on). {@code u}'s creation time is not read. Returns the account as it was before, read in the same
     * statement that decided between creating and replacing (empty: created).
     */
    public static Optional<UserAccount> save(UserAccount u, Instant now) {
        Account a = findById(u.username());
        Optional<UserAccount> before = Optional.ofNullable(a).map(Account::view);
        if (a == null) {
            a = new Account();
            a.username = u.username();
            a.createdAt = now;
            a.sessionVersion = 0;
        } else {
            a.sessionVersion++;
        }
        a.passwordHash = u.passwordHash();
        a.roles = u.roles().toArray(String[]::new);
        a.tenant = u.tenant();
        a.updatedAt = now;
        a.persist();
        return before;
    }

    /** Ends every dashboard session of the account (sign-out). */
    public static void endSessions(String username) {
        update("sessionVersion = sessionVersion + 1 where username = ?1", username);
    }

    UserAccount view() {
        return new UserAccount(username, passwordHash, new LinkedHashSet<>(Arrays.asList(roles)), tenant, createdAt,
                sessionVersion, oidcSubject == null ? null : new OidcIdentity(oidcIssuer, oidcSubject),
                ingestDeployments == null && ingestStreamPrefixes == null ? null
                        : new IngestScope(ingestDeployments == null ? null : Arrays.asList(ingestDeployments),
                                ingestStreamPrefixes == null ? null : Arrays.asList(ingestStreamPrefixes)));
    }
}
