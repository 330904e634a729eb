package app.vigie.security;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.IdentityProvider;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.TrustedAuthenticationRequest;
import io.smallrye.mutiny.Uni;

/**
 * The identity of a signed-in dashboard session: the form login's encrypted cookie names the user; its roles are
 * read from the database on each request, so a deleted account is signed out at once.
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
        return context.runBlocking(() -> {
            try {
                return DatabaseIdentityProvider.identity(accounts.current(request.getPrincipal())
                        .orElseThrow(() -> new AuthenticationFailedException("the account no longer exists")));
            } catch (java.sql.SQLException e) {
                throw new AuthenticationFailedException("account store unavailable", e);
            }
        });
    }
}
