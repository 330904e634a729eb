package app.vigie.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import io.agroal.api.AgroalDataSource;
import io.quarkus.elytron.security.common.BcryptUtil;
import io.quarkus.runtime.StartupEvent;

import app.vigie.audit.AuditTrail;
import app.vigie.db.Transactions;

/**
 * Accounts: bcrypt-hashed passwords in the database, the built-in {@code admin}, and a short-lived cache of verified
 * credentials so that a busy ingest client does not pay a bcrypt check on every request.
 */
@ApplicationScoped
public class AccountService {
    private static final Logger LOG = Logger.getLogger(AccountService.class);
    public static final String ADMIN = "admin";
    private static final long CACHE_MILLIS = 60_000;

    @Inject
    AgroalDataSource dataSource;

    @ConfigProperty(name = "vigie.admin-password")
    Optional<String> adminPassword;

    private final Map<String, Verified> verified = new ConcurrentHashMap<>();

    private record Verified(byte[] digest, Set<String> roles, String tenant, long until) {
    }

    /** The account's effective roles and tenant when the password is right; empty otherwise. */
    public Optional<Principal> verify(String username, char[] password) throws SQLException {
        byte[] digest = digest(username, password);
        Verified v = verified.get(username);
        if (v != null && v.until() > System.currentTimeMillis() && MessageDigest.isEqual(v.digest(), digest)) {
            return Optional.of(new Principal(username, v.roles(), v.tenant()));
        }
        Optional<UserAccount> account = Transactions.run(dataSource, c -> UserStore.find(c, username));
        if (account.isEmpty() || !BcryptUtil.matches(new String(password), account.get().passwordHash())) {
            return Optional.empty();
        }
        Set<String> roles = Role.effective(account.get().roles());
        verified.put(username, new Verified(digest, roles, account.get().tenant(),
                System.currentTimeMillis() + CACHE_MILLIS));
        return Optional.of(new Principal(username, roles, account.get().tenant()));
    }

    /**
     * The account of a signed-in session (its cookie names the user): its current roles and tenant, read again so
     * that a deleted account or a changed role takes effect at the next request; empty when it no longer exists.
     */
    public Optional<Principal> current(String username) throws SQLException {
        return Transactions.run(dataSource, c -> UserStore.find(c, username))
                .map(a -> new Principal(username, Role.effective(a.roles()), a.tenant()));
    }

    /** An authenticated account. */
    public record Principal(String username, Set<String> roles, String tenant) {
    }

    public void save(String actor, String username, String password, Set<String> roles, String tenant)
            throws SQLException {
        Transactions.run(dataSource, c -> {
            Optional<UserAccount> before = UserStore.find(c, username);
            UserStore.save(c, new UserAccount(username, BcryptUtil.bcryptHash(password), roles, tenant,
                    before.map(UserAccount::createdAt).orElse(null)));
            AuditTrail.record(c, actor, before.isPresent() ? "account.update" : "account.create", "account:" + username,
                    before.map(AccountService::json).orElse(null),
                    json(new UserAccount(username, null, roles, tenant, null)));
            return null;
        });
        verified.remove(username);
    }

    /** Creates the built-in admin on first start, and keeps its password equal to VIGIE_ADMIN_PASSWORD when set. */
    void bootstrap(@Observes StartupEvent start) throws SQLException {
        Optional<UserAccount> admin = Transactions.run(dataSource, c -> UserStore.find(c, ADMIN));
        if (adminPassword.isPresent() && !adminPassword.get().isBlank()) {
            String wanted = adminPassword.get();
            if (admin.isEmpty() || !BcryptUtil.matches(wanted, admin.get().passwordHash())) {
                save("system", ADMIN, wanted, Set.of(Role.R_ADMIN), null);
                LOG.info("Account 'admin' takes its password from VIGIE_ADMIN_PASSWORD");
            }
        } else if (admin.isEmpty()) {
            String generated = generatePassword();
            save("system", ADMIN, generated, Set.of(Role.R_ADMIN), null);
            LOG.warnf("Created account 'admin' with the generated password %s (shown this once; it is stored "
                    + "hashed). Set VIGIE_ADMIN_PASSWORD to choose it.", generated);
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
