package app.vigie.security;

import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import io.agroal.api.AgroalDataSource;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.elytron.security.common.BcryptUtil;
import io.quarkus.runtime.StartupEvent;

import app.vigie.audit.AuditTrail;
import app.vigie.auditlog.intake.IngestScope;
import app.vigie.auditlog.intake.IngestScopes;
import app.vigie.auditlog.intake.Writable;
import app.vigie.db.Transactions;
import app.vigie.db.UnitOfWork;
import app.vigie.platform.Digests;
import app.vigie.platform.Mode;
import app.vigie.platform.PrivateFiles;
import app.vigie.platform.ServiceKey;
import app.vigie.problem.ProblemException;

/**
 * Accounts: bcrypt-hashed passwords in the database, the built-in {@code admin}, and a short-lived cache of verified
 * credentials so that a busy ingest client does not pay a bcrypt check on every request.
 */
@ApplicationScoped
public class AccountService implements IngestScopes {
    private static final Logger LOG = Logger.getLogger(AccountService.class);
    public static final String ADMIN = "admin";
    private static final long CACHE_MILLIS = 60_000;

    @Inject
    AgroalDataSource dataSource;

    @ConfigProperty(name = "vigie.admin-password")
    Optional<String> adminPassword;

    private final Map<String, Verified> verified = new ConcurrentHashMap<>();

    /** Where embedded mode keeps the admin password it generated (in the data directory). */
    public static final String ADMIN_PASSWORD_FILE = "admin.password";

    /** The shortest password an account may have (the built-in admin's too). */
    public static final int MIN_PASSWORD = 12;

    @Inject
    SigninConfig signin;

    @Inject
    MeterRegistry meters;

    private LoginThrottle accountTries;
    private LoginThrottle addressTries;
    /** A hash of nothing anyone knows, checked for unknown usernames so that they cost what known ones do. */
    private static final String DECOY = BcryptUtil.bcryptHash(generatePassword());
    /** New hashes: bcrypt of the password's SHA-256 (bcrypt reads 72 bytes at most; a digest fits). */
    private static final String PREHASHED = "sha256-bcrypt:";

    @PostConstruct
    void throttles() {
        accountTries = new LoginThrottle(signin.freeTries(), signin.lockBase(), signin.lockMax(), Duration.ofHours(1),
                100_000, System::nanoTime);
        addressTries = new LoginThrottle(signin.addressFreeTries(), signin.lockBase(), signin.lockMax(),
                Duration.ofHours(1), 100_000, System::nanoTime);
        // at zero from the start, so that a rule on their increase sees the first one
        for (String key : new String[] {"account", "address"}) {
            meters.counter("vigie.signin.locks", "key", key);
        }
        for (String reason : new String[] {"locked", "wrong"}) {
            meters.counter("vigie.signin.refused", "reason", reason);
        }
    }

    /** A sign-in refused without checking the password: the account or the address is locked for a while. */
    public static final class Throttled extends Exception {
        private final Duration remaining;

        Throttled(Duration remaining) {
            super("too many failed sign-ins: try again in " + Math.max(1, remaining.toSeconds()) + " s");
            this.remaining = remaining;
        }

        public Duration remaining() {
            return remaining;
        }
    }

    private record Verified(byte[] digest, Set<String> roles, String tenant, int sessionVersion, long until) {
    }

    /** The account's effective roles and tenant when the password is right; empty otherwise. */
    public Optional<Principal> verify(String username, char[] password) throws SQLException {
        try {
            return verify(username, password, null);
        } catch (Throttled e) {
            return Optional.empty();
        }
    }

    /**
     * As {@link #verify(String, char[])}, from a client address: refused at once while the account or the address
     * is locked by too many failures; an unknown username costs the same bcrypt check as a known one.
     */
    public Optional<Principal> verify(String username, char[] password, String address)
            throws SQLException, Throttled {
        // per address, and per account from that address: a stranger cannot lock an account out for everyone
        String from = address == null ? null : addressKey(address);
        String accountKey = from == null ? username : username + " from " + from;
        LoginThrottle.Attempt byAddress = from == null ? null : addressTries.attempt(from);
        LoginThrottle.Attempt byAccount = byAddress != null && !byAddress.allowed() ? null
                : accountTries.attempt(accountKey);
        Optional<Duration> refused = byAddress != null && !byAddress.allowed() ? byAddress.refusedFor()
                : byAccount.refusedFor();
        if (refused.isPresent()) {
            meters.counter("vigie.signin.refused", "reason", "locked").increment();
            throw new Throttled(refused.get());
        }
        byte[] digest = digest(username, password);
        Verified v = verified.get(username);
        if (v != null && v.until() > System.currentTimeMillis() && MessageDigest.isEqual(v.digest(), digest)) {
            accountTries.succeeded(accountKey);
            if (byAddress != null) {
                addressTries.uncount(byAddress);
            }
            return Optional.of(new Principal(username, v.roles(), v.tenant(), v.sessionVersion()));
        }
        Optional<UserAccount> account = account(username);
        boolean right = matches(password, account.map(UserAccount::passwordHash).orElse(DECOY))
                && account.isPresent();
        if (!right) {
            meters.counter("vigie.signin.refused", "reason", "wrong").increment();
            // a lock this failure starts is audited (the account's only when it exists: guessed names must not
            // flood the trail)
            Optional<LoginThrottle.Lock> accountLock = accountTries.failed(byAccount);
            Optional<LoginThrottle.Lock> addressLock = byAddress == null ? Optional.empty()
                    : addressTries.failed(byAddress);
            if (accountLock.isPresent() && account.isPresent()) {
                locked("account:" + username, accountLock.get(), address);
            }
            if (addressLock.isPresent()) {
                locked("address:" + from, addressLock.get(), address);
            }
            return Optional.empty();
        }
        accountTries.succeeded(accountKey);
        if (byAddress != null) {
            addressTries.uncount(byAddress);
        }
        Set<String> roles = Role.effective(account.get().roles());
        verified.put(username, new Verified(digest, roles, account.get().tenant(), account.get().sessionVersion(),
                System.currentTimeMillis() + CACHE_MILLIS));
        return Optional.of(new Principal(username, roles, account.get().tenant(), account.get().sessionVersion()));
    }

    /**
     * The account of a signed-in session (its cookie names the user): its current roles, tenant and session version,
     * read again so that a deleted account or a changed role takes effect at the next request; empty when it no
     * longer exists.
     */
    @UnitOfWork
    public Optional<Principal> current(String username) throws SQLException {
        return Account.named(username)
                .map(a -> new Principal(username, Role.effective(a.roles()), a.tenant(), a.sessionVersion()));
    }

    /** The cookie that binds a dashboard session to the account's session version at sign-in. */
    public static final String SESSION_VERSION_COOKIE = "vigie-sv";

    @Inject
    ServiceKey serviceKey;

    /**
     * What the {@value #SESSION_VERSION_COOKIE} cookie holds for this account at this session version: an
     * HMAC-SHA256 under the session key, so that only a sign-in makes it, and it stops matching once the version
     * moves on.
     */
    public String sessionProof(String username, int version) {
        return serviceKey.keyed("vigie-session-version", username + "\u0000" + version);
    }

    /** Signing out: every dashboard session of the account ends, in this browser and any other. */
    public void endSessions(String username) throws SQLException {
        signedOut(username);
        verified.remove(username);  // once committed: a sign-in meanwhile cannot cache the old session version
    }

    @UnitOfWork
    void signedOut(String username) throws SQLException {
        Account.endSessions(username);
        AuditTrail.record(username, "account.signed-out", "account:" + username, null, null);
    }

    /** The account named so, read in a transaction of its own (or the caller's). */
    @UnitOfWork
    Optional<UserAccount> account(String username) throws SQLException {
        return Account.named(username);
    }

    /** The provider's issuer (VIGIE_OIDC_ISSUER), the default issuer of a binding. */
    @ConfigProperty(name = "quarkus.oidc.auth-server-url")
    Optional<String> oidcIssuer;

    /**
     * What an OpenID Connect identity signs in as: the account bound to it, if any, and the time of its last
     * sign-out, if any (a token issued before opens nothing).
     */
    public record OidcState(Optional<Principal> account, Optional<Instant> signedOutAt) {
    }

    /** The account bound to {@code identity} and its last sign-out, read for each request of its session. */
    @UnitOfWork
    public OidcState oidc(OidcIdentity identity) throws SQLException {
        Optional<Principal> account = Account.boundTo(identity).map(a -> new Principal(a.username(),
                Role.effective(a.roles()), a.tenant(), a.sessionVersion()));
        try (Connection c = Transactions.connection(dataSource)) {
            return new OidcState(account, OidcSignOutStore.signedOutAt(c, identity));
        }
    }

    /**
     * Binds the account {@code username} to the provider's identity (issuer, subject) as {@code actor} asks
     * ({@code PUT /api/accounts/{username}/oidc}): from then on that identity, and no other, signs in as the account
     * through the provider, whatever its {@code preferred_username}. The issuer defaults to VIGIE_OIDC_ISSUER. One
     * identity binds one account (409 if another holds it); the built-in admin is bound to none. Audited
     * ({@code account.oidc-bound}) when it changes anything.
     */
    @UnitOfWork
    public OidcIdentity bind(String actor, String username, String issuer, String subject) throws SQLException {
        String iss = issuer == null || issuer.isBlank() ? oidcIssuer.filter(i -> !i.isBlank()).map(String::strip)
                .orElseThrow(() -> new ProblemException(400, "field 'issuer' is required (VIGIE_OIDC_ISSUER is not "
                        + "set)")) : issuer;
        if (!OidcIdentity.valid(iss)) {
            throw new ProblemException(400, "field 'issuer' must be 1 to " + OidcIdentity.MAX
                    + " characters without control characters");
        }
        if (!OidcIdentity.valid(subject)) {
            throw new ProblemException(400, "field 'subject' is required: the provider's id of the user (the sub "
                    + "of its tokens), 1 to " + OidcIdentity.MAX + " characters without control characters");
        }
        if (ADMIN.equals(username)) {
            throw new ProblemException(409, "the built-in admin account signs in with VIGIE_ADMIN_PASSWORD only");
        }
        OidcIdentity identity = new OidcIdentity(iss, subject);
        Optional<UserAccount> holder = Account.boundTo(identity);
        if (holder.isPresent() && !holder.get().username().equals(username)) {
            throw new ProblemException(409, "this identity is bound to account '" + holder.get().username()
                    + "': unbind it there first");
        }
        UserAccount before = Account.bind(username, identity, Instant.now())
                .orElseThrow(() -> new ProblemException(404, "no account '" + username + "'"));
        if (!identity.equals(before.oidc())) {
            AuditTrail.record(actor, "account.oidc-bound", "account:" + username,
                    before.oidc() == null ? null : before.oidc().json(), identity.json());
        }
        return identity;
    }

    /**
     * Unbinds the account from its provider identity ({@code DELETE /api/accounts/{username}/oidc}): that identity
     * signs in as nothing from its next request on. Audited ({@code account.oidc-unbound}) when it was bound.
     */
    @UnitOfWork
    public void unbind(String actor, String username) throws SQLException {
        UserAccount before = Account.bind(username, null, Instant.now())
                .orElseThrow(() -> new ProblemException(404, "no account '" + username + "'"));
        if (before.oidc() != null) {
            AuditTrail.record(actor, "account.oidc-unbound", "account:" + username, before.oidc().json(), null);
        }
    }

    /**
     * Signing out of a session signed in through the provider: every session of this identity made until now ends,
     * in this browser and any other (a token issued before now opens nothing), and so do the form sessions of the
     * account bound to it ({@code account}, null when none). Audited ({@code account.signed-out}).
     */
    public void endOidcSessions(String actor, OidcIdentity identity, String account) throws SQLException {
        oidcSignedOut(actor, identity, account, Instant.now());
        if (account != null) {
            verified.remove(account);  // once committed, as endSessions
        }
    }

    @UnitOfWork
    void oidcSignedOut(String actor, OidcIdentity identity, String account, Instant now) throws SQLException {
        try (Connection c = Transactions.connection(dataSource)) {
            OidcSignOutStore.signedOut(c, identity, now);
        }
        if (account != null) {
            Account.endSessions(account);
        }
        AuditTrail.record(actor, "account.signed-out", account != null ? "account:" + account
                : "oidc:" + identity.subject(), null, identity.json());
    }

    /**
     * Binds the ingest account {@code username} to what it may write, as {@code actor} asks
     * ({@code PUT /api/accounts/{username}/ingest-scope}): lines of these deployments and/or of streams starting
     * with these prefixes, at least one entry in all, each list of 1 to {@value IngestScope#MAX_ENTRIES} entries of 1
     * to {@value IngestScope#MAX_LENGTH} characters without control characters. Only for an account that holds the
     * ingest role; never the built-in admin (it keeps every right). Audited ({@code account.ingest-scope-set}) when it
     * changes anything.
     */
    @UnitOfWork
    public IngestScope scope(String actor, String username, List<String> deployments, List<String> streamPrefixes)
            throws SQLException {
        checkScopeList("deployments", deployments);
        checkScopeList("stream_prefixes", streamPrefixes);
        if ((deployments == null || deployments.isEmpty()) && (streamPrefixes == null || streamPrefixes.isEmpty())) {
            throw new ProblemException(400, "field 'deployments' or 'stream_prefixes' must list at least one entry "
                    + "(DELETE /api/accounts/" + username + "/ingest-scope unbinds the account)");
        }
        if (ADMIN.equals(username)) {
            throw new ProblemException(409, "the built-in admin account keeps every right: it takes no ingest scope");
        }
        IngestScope scope = new IngestScope(deployments == null ? null : List.copyOf(new LinkedHashSet<>(deployments)),
                streamPrefixes == null ? null : List.copyOf(new LinkedHashSet<>(streamPrefixes)));
        UserAccount current = Account.named(username)
                .orElseThrow(() -> new ProblemException(404, "no account '" + username + "'"));
        if (!current.roles().contains(Role.R_INGEST)) {
            throw new ProblemException(400, "an ingest scope is only for accounts that hold the ingest role");
        }
        UserAccount before = Account.scope(username, scope, Instant.now()).orElseThrow();
        if (!scope.equals(before.ingestScope())) {
            AuditTrail.record(actor, "account.ingest-scope-set", "account:" + username,
                    before.ingestScope() == null ? null : before.ingestScope().json(), scope.json());
        }
        return scope;
    }

    /**
     * Unbinds the account ({@code DELETE /api/accounts/{username}/ingest-scope}): it writes every stream again, with
     * a warning. Audited ({@code account.ingest-scope-removed}) when it was bound.
     */
    @UnitOfWork
    public void unscope(String actor, String username) throws SQLException {
        UserAccount before = Account.scope(username, null, Instant.now())
                .orElseThrow(() -> new ProblemException(404, "no account '" + username + "'"));
        if (before.ingestScope() != null) {
            AuditTrail.record(actor, "account.ingest-scope-removed", "account:" + username,
                    before.ingestScope().json(), null);
        }
    }

    private static void checkScopeList(String field, List<String> entries) {
        if (entries == null) {
            return;
        }
        if (entries.size() > IngestScope.MAX_ENTRIES) {
            throw new ProblemException(400, "field '" + field + "' lists at most " + IngestScope.MAX_ENTRIES
                    + " entries");
        }
        for (String e : entries) {
            if (e == null || e.isEmpty() || e.length() > IngestScope.MAX_LENGTH
                    || e.chars().anyMatch(Character::isISOControl)) {
                throw new ProblemException(400, "each entry of field '" + field + "' is 1 to "
                        + IngestScope.MAX_LENGTH + " characters without control characters");
            }
        }
    }

    /** Unbound ingest accounts already warned of in the log (once per account and process). */
    private final Set<String> warnedUnbound = ConcurrentHashMap.newKeySet();

    /**
     * What {@code username} may write ({@code POST /api/audit-log}), read for each request so that a new scope takes
     * effect at once: empty when it may write every stream, as the built-in admin, an account that holds the admin
     * role, and an ingest account not bound yet (as before issue 41 point 5: logged once as a warning, and shown
     * with the account).
     */
    @Override
    public Optional<IngestScope> of(String username, boolean admin) throws SQLException {
        if (admin || ADMIN.equals(username)) {
            return Optional.empty();
        }
        Optional<IngestScope> scope = account(username)
                .map(UserAccount::ingestScope);
        if (scope.isEmpty() && warnedUnbound.add(username)) {
            LOG.warnf("Ingest account '%s' is bound to no deployment or stream prefix: it may write, list and flush "
                    + "every stream. Bind it: PUT /api/accounts/%s/ingest-scope (docs/intake.md, \"Who writes "
                    + "what\")", username, username);
        }
        return scope;
    }

    @Override
    public Writable ofTopic(String topic, String account) throws SQLException {
        Optional<UserAccount> u = account(account);
        if (u.isEmpty() || !(u.get().roles().contains(Role.R_INGEST) || u.get().roles().contains(Role.R_ADMIN))) {
            return Writable.nothing("Kafka topic '" + topic + "' is bound to ingest account '" + account
                    + "' (vigie.kafka.topic-accounts), which " + (u.isEmpty() ? "does not exist"
                            : "holds neither the ingest nor the admin role") + ": its records are not taken");
        }
        return of(account, u.get().roles().contains(Role.R_ADMIN)).orElse(null);
    }

    /** What an account shown in {@code GET /api/accounts} is warned of: an ingest account bound to nothing. */
    public static String warning(UserAccount u) {
        return u.ingestScope() == null && u.roles().contains(Role.R_INGEST) && !u.roles().contains(Role.R_ADMIN)
                ? "this ingest account may write, list and flush every stream: bind it with PUT /api/accounts/"
                        + u.username() + "/ingest-scope"
                : null;
    }

    /** An IPv6 client is counted by its /64 (one host can hold a whole /64), an IPv4 one by its address. */
    static String addressKey(String address) {
        try {
            InetAddress a = InetAddress.getByName(address);
            if (a instanceof Inet6Address) {
                byte[] b = Arrays.copyOf(a.getAddress(), 16);
                Arrays.fill(b, 8, 16, (byte) 0);
                return InetAddress.getByAddress(b).getHostAddress() + "/64";
            }
            return a.getHostAddress();
        } catch (UnknownHostException e) {
            return address;
        }
    }

    /** A lock counted and logged at once, then audited in a transaction of its own. */
    private void locked(String target, LoginThrottle.Lock lock, String address) throws SQLException {
        meters.counter("vigie.signin.locks", "key", target.substring(0, target.indexOf(':'))).increment();
        LOG.warnf("Sign-in locked for %s after %d failures (%s)", target, lock.failures(), lock.duration());
        lockAudit(target, lock, address);
    }

    @UnitOfWork
    void lockAudit(String target, LoginThrottle.Lock lock, String address) throws SQLException {
        AuditTrail.record("vigie", "signin.locked", target, null, "{\"failures\":" + lock.failures()
                + ",\"locked_for\":" + AuditTrail.quote(lock.duration().toString()) + ",\"address\":"
                + AuditTrail.quote(address) + "}");
    }

    /** bcrypt of the password's SHA-256 for new hashes; plain bcrypt for hashes made before. */
    static boolean matches(char[] password, String hash) {
        if (hash.startsWith(PREHASHED)) {
            return BcryptUtil.matches(prehash(password), hash.substring(PREHASHED.length()));
        }
        return BcryptUtil.matches(new String(password), hash);
    }

    static String hash(String password) {
        return PREHASHED + BcryptUtil.bcryptHash(prehash(password.toCharArray()));
    }

    private static String prehash(char[] password) {
        return Base64.getEncoder().encodeToString(Digests.sha256(new String(password).getBytes(
                StandardCharsets.UTF_8)));
    }

    /** An authenticated account, and its session version (see {@link #sessionProof}). */
    public record Principal(String username, Set<String> roles, String tenant, int sessionVersion) {
    }

    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9._@-]{0,99}");

    /** Every account, ordered by name. */
    @UnitOfWork
    public List<UserAccount> everyone() throws SQLException {
        return Account.everyone();
    }

    /**
     * Creates or changes the account {@code username} as {@code actor} asks ({@code PUT /api/accounts/{username}}):
     * a valid name, a password of {@value #MIN_PASSWORD} to 200 characters, known roles, a tenant for a customer and
     * for a customer only; the built-in admin is not changed here. Returns the account as stored (no password hash;
     * its creation time not read; the OpenID Connect binding it keeps).
     */
    public UserAccount put(String actor, String username, String password, List<String> roleNames, String tenant)
            throws SQLException {
        if (!NAME.matcher(username).matches()) {
            throw new ProblemException(400, "a username is 1 to 100 of a-z 0-9 . _ @ -, starting with a letter or digit");
        }
        if (password == null || password.length() < MIN_PASSWORD || password.length() > 200) {
            throw new ProblemException(400, "field 'password' is required: 12 to 200 characters");
        }
        if (roleNames == null || roleNames.isEmpty()) {
            throw new ProblemException(400, "field 'roles' must list at least one role");
        }
        Set<String> roles = new LinkedHashSet<>();
        for (String r : roleNames) {
            try {
                roles.add(Role.of(r).id());
            } catch (IllegalArgumentException e) {
                throw new ProblemException(400, e.getMessage());
            }
        }
        boolean customer = roles.contains(Role.R_CUSTOMER);
        if (customer && (tenant == null || tenant.isBlank())) {
            throw new ProblemException(400, "a customer account needs field 'tenant'");
        }
        if (customer && roles.size() > 1) {
            throw new ProblemException(400, "a customer account holds the customer role only");
        }
        if (!customer && tenant != null) {
            throw new ProblemException(400, "field 'tenant' is only for customer accounts");
        }
        if (ADMIN.equals(username)) {
            throw new ProblemException(409, "the built-in admin account is managed with VIGIE_ADMIN_PASSWORD");
        }
        Optional<UserAccount> before = save(actor, username, password, roles, tenant);
        return new UserAccount(username, null, roles, tenant, null, 0, before.map(UserAccount::oidc).orElse(null),
                before.map(UserAccount::ingestScope).orElse(null));
    }

    /** Creates or replaces the account (its OpenID Connect binding kept); returns it as it was before. */
    public Optional<UserAccount> save(String actor, String username, String password, Set<String> roles,
            String tenant) throws SQLException {
        String hash = hash(password);  // bcrypt's work, outside the transaction
        Optional<UserAccount> saved = saveHashed(actor, username, hash, roles, tenant);
        verified.remove(username);  // once committed
        return saved;
    }

    @UnitOfWork
    Optional<UserAccount> saveHashed(String actor, String username, String hash, Set<String> roles, String tenant)
            throws SQLException {
        Optional<UserAccount> before = Account.save(new UserAccount(username, hash, roles, tenant, null),
                Instant.now());
        AuditTrail.record(actor, before.isPresent() ? "account.update" : "account.create", "account:" + username,
                before.map(AccountService::json).orElse(null),
                json(new UserAccount(username, null, roles, tenant, null)));
        return before;
    }

    /** Creates the built-in admin on first start, and keeps its password equal to VIGIE_ADMIN_PASSWORD when set. */
    void bootstrap(@Observes StartupEvent start) throws SQLException {
        Optional<UserAccount> admin = account(ADMIN);
        if (adminPassword.isPresent() && !adminPassword.get().isBlank()) {
            String wanted = adminPassword.get();
            if (wanted.length() < MIN_PASSWORD) {
                throw new IllegalStateException("VIGIE_ADMIN_PASSWORD must have at least " + MIN_PASSWORD
                        + " characters, as every account's password");
            }
            if (admin.isEmpty() || !matches(wanted.toCharArray(), admin.get().passwordHash())) {
                save("system", ADMIN, wanted, Set.of(Role.R_ADMIN), null);
                LOG.info("Account 'admin' takes its password from VIGIE_ADMIN_PASSWORD");
            }
        } else if (admin.isEmpty()) {
            if (Mode.current() == Mode.PRODUCTION) {
                throw new IllegalStateException("set VIGIE_ADMIN_PASSWORD (at least " + MIN_PASSWORD + " characters): "
                        + "production mode does not make up the first account's password");
            }
            // embedded mode: a generated password in a file only this account reads, never in the log
            String generated = generatePassword();
            Path file = Mode.dataDir().resolve(ADMIN_PASSWORD_FILE);
            try {
                PrivateFiles.directory(file.getParent());
                PrivateFiles.write(file, generated + "\n");
            } catch (IOException e) {
                throw new IllegalStateException("cannot write the generated admin password to " + file, e);
            }
            save("system", ADMIN, generated, Set.of(Role.R_ADMIN), null);
            LOG.warnf("Created account 'admin' with a generated password, in %s (readable by this account only; "
                    + "delete the file once you have it). Set VIGIE_ADMIN_PASSWORD to choose it.", file);
        }
    }

    private static String generatePassword() {
        byte[] random = new byte[18];
        new SecureRandom().nextBytes(random);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(random);
    }

    private static byte[] digest(String username, char[] password) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            md.update(username.getBytes(StandardCharsets.UTF_8));
            md.update((byte) 0);
            md.update(new String(password).getBytes(StandardCharsets.UTF_8));
            return md.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String json(UserAccount u) {
        StringBuilder b = new StringBuilder("{\"username\":").append(AuditTrail.quote(u.username())).append(",\"roles\":[");
        int i = 0;
        for (String r : u.roles()) {
            b.append(i++ == 0 ? "" : ",").append(AuditTrail.quote(r));
        }
        return b.append("],\"tenant\":").append(AuditTrail.quote(u.tenant())).append('}').toString();
    }
}
