package app.vigie.security;

import java.sql.SQLException;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.IdentityProvider;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.UsernamePasswordAuthenticationRequest;
import io.quarkus.security.runtime.QuarkusPrincipal;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.quarkus.vertx.http.runtime.security.HttpSecurityUtils;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.Cookie;
import io.vertx.core.http.CookieSameSite;
import io.vertx.ext.web.RoutingContext;

/** Checks HTTP Basic credentials against the accounts in the database. */
@ApplicationScoped
public class DatabaseIdentityProvider implements IdentityProvider<UsernamePasswordAuthenticationRequest> {
    public static final String TENANT_ATTRIBUTE = "vigie.tenant";

    @Inject
    AccountService accounts;

    /** The identity of an account: its name, its effective roles, its tenant (customers). */
    static SecurityIdentity identity(AccountService.Principal p) {
        return identity(p, p.username());
    }

    static SecurityIdentity identity(AccountService.Principal p, String name) {
        QuarkusSecurityIdentity.Builder b = QuarkusSecurityIdentity.builder()
                .setPrincipal(new QuarkusPrincipal(name)).addRoles(p.roles());
        if (p.tenant() != null) {
            b.addAttribute(TENANT_ATTRIBUTE, p.tenant());
        }
        return b.build();
    }

    @Override
    public Class<UsernamePasswordAuthenticationRequest> getRequestType() {
        return UsernamePasswordAuthenticationRequest.class;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(UsernamePasswordAuthenticationRequest request,
            AuthenticationRequestContext context) {
        RoutingContext http = HttpSecurityUtils
                .getRoutingContextAttribute(request);
        String address = http == null || http.request().remoteAddress() == null ? null
                : http.request().remoteAddress().hostAddress();
        boolean form = http != null && "/j_security_check".equals(http.normalizedPath());
        return context.runBlocking(() -> {
            try {
                AccountService.Principal p = accounts.verify(request.getUsername(),
                        request.getPassword().getPassword(), address)
                        .orElseThrow(() -> new AuthenticationFailedException("wrong username or password"));
                if (form) {
                    // the session cookie the form sets next is bound to the account's session version, read fresh
                    // (the credentials cache may hold one from before a sign-out on another instance)
                    int version = accounts.current(p.username()).map(AccountService.Principal::sessionVersion)
                            .orElse(p.sessionVersion());
                    http.response().addCookie(Cookie.cookie(AccountService.SESSION_VERSION_COOKIE,
                            accounts.sessionProof(p.username(), version)).setPath("/").setHttpOnly(true)
                            .setSameSite(CookieSameSite.STRICT).setSecure(http.request().isSSL()));
                }
                return identity(p);
            } catch (AccountService.Throttled e) {
                throw new AuthenticationFailedException(e.getMessage());
            } catch (SQLException e) {
                throw new AuthenticationFailedException("account store unavailable", e);
            }
        });
    }
}
