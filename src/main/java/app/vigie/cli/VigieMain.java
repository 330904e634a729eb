package app.vigie.cli;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.jboss.logging.Logger;

import io.quarkus.runtime.ApplicationLifecycleManager;
import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.annotations.QuarkusMain;

import app.vigie.platform.Mode;
import app.vigie.platform.PrivateFiles;
import app.vigie.embedded.EmbeddedDatabase;

/**
 * Starts Vigie. With no argument: the service, in the mode of {@code VIGIE_MODE} (embedded by default, which
 * starts its own PostgreSQL under {@code VIGIE_DATA_DIR}). {@code replay FILE...}: sends archived audit logs to a
 * running service. {@code plan FILE.json}: the obligations compliance-rules/ give for the facts in the file.
 * {@code validate LOG...}: judges page audit logs as the service would, with no service (docs/integrating-an-engine.md).
 */
@QuarkusMain
public class VigieMain {
    private static final int STOP_WAIT_SECONDS = 60;

    static String rootMessage(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage() != null ? root.getMessage() : root.toString();
    }

    /**
     * The key that encrypts the dashboard's session cookies and makes CSRF tokens and acknowledgement links, unless
     * VIGIE_SESSION_KEY gives it: kept in the data directory in embedded mode (sessions and links survive a restart);
     * production mode requires VIGIE_SESSION_KEY, the same on every instance. Never logged.
     */
    static void sessionKey(Path dataDir) throws IOException {
        String given = System.getenv("VIGIE_SESSION_KEY");
        if (given != null && !given.isBlank()) {
            return;
        }
        PrivateFiles.directory(dataDir);
        String key = PrivateFiles.secret(dataDir.resolve("session.key"));
        System.setProperty("quarkus.http.auth.session.encryption-key", key);
    }

    /**
     * Dashboard sign-in through an OpenID Connect provider when {@code VIGIE_OIDC_ISSUER} names one (its client id
     * from {@code VIGIE_OIDC_CLIENT_ID}, default vigie, its secret from {@code VIGIE_OIDC_CLIENT_SECRET}, the roles
     * from the ID token's {@code VIGIE_OIDC_ROLES_CLAIM}, default vigie_roles): the pages then use the
     * authorization code flow instead of the form; the API keeps HTTP Basic. One variable switches it all, so the
     * three settings involved cannot disagree.
     */
    static void signIn() {
        String issuer = System.getenv("VIGIE_OIDC_ISSUER");
        if (issuer == null || issuer.isBlank()) {
            return;
        }
        System.setProperty("quarkus.oidc.tenant-enabled", "true");
        System.setProperty("quarkus.oidc.auth-server-url", issuer.strip());
        System.setProperty("quarkus.http.auth.permission.pages.auth-mechanism", "code");
        System.setProperty("vigie.dashboard.sign-in", "oidc");
        URI uri = URI.create(issuer.strip());
        System.setProperty("vigie.oidc.form-action", " " + uri.getScheme() + "://" + uri.getAuthority());
    }

    /**
     * Behind a reverse proxy that ends TLS: {@code VIGIE_TRUSTED_PROXIES} (addresses or CIDR, comma-separated) names
     * the proxies whose Forwarded / X-Forwarded-* headers are believed (the client's address, for the sign-in
     * throttle; https, for Secure cookies). Unset, no such header is believed from anyone. In production mode,
     * browsers are told to use https only (HSTS; they ignore it over plain http).
     */
    public static Map<String, String> proxyAndTransport(Map<String, String> env, Mode mode) {
        Map<String, String> props = new LinkedHashMap<>();
        String proxies = env.get("VIGIE_TRUSTED_PROXIES");
        if (proxies != null && !proxies.isBlank()) {
            props.put("quarkus.http.proxy.proxy-address-forwarding", "true");
            props.put("quarkus.http.proxy.allow-forwarded", "true");
            props.put("quarkus.http.proxy.allow-x-forwarded", "true");
            props.put("quarkus.http.proxy.enable-forwarded-host", "true");
            props.put("quarkus.http.proxy.trusted-proxies", proxies.strip());
        }
        if (mode == Mode.PRODUCTION) {
            props.put("quarkus.http.header.\"Strict-Transport-Security\".value", "max-age=31536000");
        }
        return props;
    }

    /**
     * {@code QUARKUS_INIT_AND_EXIT=true}: the migration step of a production deployment (deploy/), which runs the
     * Flyway migrations as the tables' owner and exits before the service starts; it needs no session key, and is
     * given none (only the owner's credentials).
     */
    static boolean initAndExit(Map<String, String> env) {
        return Boolean.parseBoolean(System.getProperty("quarkus.init-and-exit",
                env.getOrDefault("QUARKUS_INIT_AND_EXIT", "false")).strip());
    }

    public static void main(String... args) throws Exception {
        if (args.length > 0 && "replay".equals(args[0])) {
            System.exit(ReplayCommand.run(Arrays.copyOfRange(args, 1, args.length), System.out, System.err));
        }
        if (args.length > 0 && "validate".equals(args[0])) {
            System.exit(ValidateCommand.run(Arrays.copyOfRange(args, 1, args.length), System.in, System.out,
                    System.err));
        }
        if (args.length > 0 && "plan".equals(args[0])) {
            System.exit(PlanCommand.run(Arrays.copyOfRange(args, 1, args.length),
                    System.out, System.err));
        }
        Mode mode;
        try {
            mode = Mode.current();
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        signIn();
        proxyAndTransport(System.getenv(), mode).forEach(System::setProperty);
        if (mode == Mode.PRODUCTION) {
            String key = System.getenv("VIGIE_SESSION_KEY");
            if (initAndExit(System.getenv()) && (key == null || key.isBlank())) {
                // the HTTP configuration asks for a key though no server starts: one for this process, never used
                byte[] unused = new byte[32];
                new SecureRandom().nextBytes(unused);
                System.setProperty("quarkus.http.auth.session.encryption-key",
                        Base64.getEncoder().encodeToString(unused));
            } else if (key == null || key.strip().length() < 32) {
                // sessions, CSRF tokens and acknowledgement links are made with it: a key made up at each boot
                // would end them at every restart and differ between instances
                System.err.println("VIGIE_SESSION_KEY must be set in production mode (32 characters or more, the "
                        + "same on every instance)");
                System.exit(2);
                return;
            }
            Quarkus.run(args);
            return;
        }
        sessionKey(Mode.dataDir());
        EmbeddedDatabase db = EmbeddedDatabase.start(Mode.dataDir());
        System.setProperty("quarkus.datasource.jdbc.url", db.jdbcUrl());
        System.setProperty("quarkus.datasource.username", db.username());
        System.setProperty("quarkus.datasource.password", db.password());
        // the migrations run as the tables' owner; the service itself as a role that is no superuser
        System.setProperty("quarkus.flyway.jdbc-url", db.jdbcUrl());
        System.setProperty("quarkus.flyway.username", db.ownerUsername());
        System.setProperty("quarkus.flyway.password", db.ownerPassword());
        System.setProperty("vigie.mode", "embedded");
        // PostgreSQL stops after the service has stopped, whether it ends by itself or by a signal (SIGTERM).
        CountDownLatch serviceStopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                serviceStopped.await(STOP_WAIT_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            db.close();
        }, "vigie-embedded-postgres-stop"));
        Quarkus.run(null, (code, failure) -> {
            if (failure != null) {
                Logger.getLogger(VigieMain.class).errorf(failure, "Vigie could not start: %s", rootMessage(failure));
            }
            serviceStopped.countDown();
            if (!ApplicationLifecycleManager.isVmShuttingDown()) {
                System.exit(code);
            }
        }, args);
    }
}
