package app.vigie.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.sql.SQLException;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.IdentityProvider;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.TrustedAuthenticationRequest;
import io.quarkus.vertx.http.runtime.security.HttpSecurityUtils;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.Cookie;
import io.vertx.ext.web.RoutingContext;

/**
 * The identity of a signed-in dashboard session: the form login's encrypted cookie names the user; its roles are
 * read from the database on each request, so a deleted account is signed out at once; and its
 * {@value AccountService#SESSION_VERSION_COOKIE} cookie must match the account's session version, so that signing
 * out or a new password or roles ends every session made before, in this browser and any other.
 */
@ApplicationScoped
public class SessionIdentityProvider implements IdentityProvider<TrustedAuthenticationRequest> {

    @Inject
    AccountService accounts;

    @Override
    public Class<TrustedAuthenticationRequest> getRequestType() {
        return TrustedAuthenticationRequest.class;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(TrustedAuthenticationRequest request,
            AuthenticationRequestContext context) {
        RoutingContext http = HttpSecurityUtils
                .getRoutingContextAttribute(request);
        Cookie proof = http == null ? null
                : http.request().getCookie(AccountService.SESSION_VERSION_COOKIE);
        return context.runBlocking(() -> {
            try {
                AccountService.Principal p = accounts.current(request.getPrincipal())
                        .orElseThrow(() -> new AuthenticationFailedException("the account no longer exists"));
                if (proof == null || !MessageDigest.isEqual(proof.getValue().getBytes(
                        StandardCharsets.UTF_8), accounts.sessionProof(p.username(),
                                p.sessionVersion()).getBytes(StandardCharsets.UTF_8))) {
                    throw new AuthenticationFailedException("the session was ended (sign-out, new password or roles)");
                }
                return DatabaseIdentityProvider.identity(p);
            } catch (SQLException e) {
                throw new AuthenticationFailedException("account store unavailable", e);
            }
        });
    }
}
