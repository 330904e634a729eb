package app.vigie.security;

import java.sql.SQLException;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.jwt.JsonWebToken;

import io.quarkus.oidc.IdTokenCredential;
import io.quarkus.oidc.runtime.LogoutException;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.SecurityIdentityAugmentor;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.quarkus.vertx.http.runtime.security.HttpSecurityUtils;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.Cookie;
import io.vertx.ext.web.RoutingContext;

/**
 * Who a session signed in through the OpenID Connect provider is, on each of its requests. The provider's user is
 * its issuer and subject (the ID token's {@code iss}, {@code sub}), never its {@code preferred_username}, which the
 * user may change:
 * <ul>
 * <li>bound to an account ({@code PUT /api/accounts/{username}/oidc}), it is that account: its name, roles and
 * tenant, read on each request, as with a password; the provider's role claim is not read;</li>
 * <li>bound to none, it keeps the staff roles (admin, dpo, analyst, auditor) of the provider's role claim, never
 * {@code customer} (a tenant comes from a bound account only), under a name holding its subject, which no account can
 * have.</li>
 * </ul>
 * An ID token issued up to the identity's last sign-out opens nothing (except the way to the provider's logout, which
 * ends the provider's session too), and its cookie is dropped.
 */
@ApplicationScoped
public class OidcIdentityAugmentor implements SecurityIdentityAugmentor {
    /** The identity's {@link OidcIdentity}, for sign-out. */
    public static final String IDENTITY_ATTRIBUTE = "vigie.oidc.identity";
    /** The name of the account bound to it, when there is one. */
    public static final String ACCOUNT_ATTRIBUTE = "vigie.oidc.account";

    /** The OIDC extension's session cookie (quarkus.oidc.authentication.cookie-*), split in chunks when long. */
    static final String SESSION_COOKIE = "q_session";

    /** The roles the provider's claim may give a user bound to no account. */
    static final Set<String> STAFF = Set.of(Role.R_ADMIN, Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR);

    @Inject
    AccountService accounts;

    @ConfigProperty(name = "quarkus.oidc.logout.path")
    Optional<String> logoutPath;

    @Override
    public Uni<SecurityIdentity> augment(SecurityIdentity identity, AuthenticationRequestContext context) {
        return augment(identity, context, Map.of());
    }

    @Override
    public Uni<SecurityIdentity> augment(SecurityIdentity identity, AuthenticationRequestContext context,
            Map<String, Object> attributes) {
        if (identity.isAnonymous() || !(identity.getPrincipal() instanceof JsonWebToken token)
                || identity.getCredential(IdTokenCredential.class) == null) {
            return Uni.createFrom().item(identity);  // a password (form or Basic): DatabaseIdentityProvider's
        }
        RoutingContext fromRequest = HttpSecurityUtils.getRoutingContextAttribute(attributes);
        RoutingContext http = fromRequest != null ? fromRequest
                : HttpSecurityUtils.getRoutingContextAttribute(identity);
        // the provider's logout path ends the session at the provider: a signed-out token may still go there
        boolean loggingOut = http != null && logoutPath.isPresent() && logoutPath.get().equals(http.normalizedPath());
        return context.runBlocking(() -> {
            try {
                return identity(identity, token, loggingOut);
            } catch (LogoutException e) {
                if (http != null) {
                    // the cookie goes too: this browser signs in afresh instead of being refused on every page
                    for (Cookie c : http.request().cookies()) {
                        if (c.getName().startsWith(SESSION_COOKIE)) {
                            http.response().addCookie(Cookie.cookie(c.getName(), "").setPath("/").setMaxAge(0));
                        }
                    }
                }
                throw e;
            } catch (SQLException e) {
                throw new AuthenticationFailedException("account store unavailable", e);
            }
        });
    }

    private SecurityIdentity identity(SecurityIdentity signedIn, JsonWebToken token, boolean loggingOut)
            throws SQLException {
        String issuer = token.getIssuer();
        String subject = token.getSubject();
        if (!OidcIdentity.valid(issuer) || !OidcIdentity.valid(subject)) {
            throw new AuthenticationFailedException("the ID token names no valid issuer and subject");
        }
        OidcIdentity who = new OidcIdentity(issuer, subject);
        AccountService.OidcState state = accounts.oidc(who);
        if (!loggingOut && state.signedOutAt().isPresent()
                && token.getIssuedAtTime() <= state.signedOutAt().get().getEpochSecond()) {
            // what the OIDC extension throws for a session its provider logged out: the browser is sent to sign in
            // again (any other failure would be a bare 401)
            throw new LogoutException();
        }
        QuarkusSecurityIdentity.Builder b = QuarkusSecurityIdentity.builder()
                .addCredentials(signedIn.getCredentials()).addAttributes(signedIn.getAttributes())
                .addAttribute(IDENTITY_ATTRIBUTE, who);
        if (state.account().isPresent()) {
            AccountService.Principal p = state.account().get();
            b.setPrincipal(new Named(token, p.username())).addRoles(p.roles())
                    .addAttribute(ACCOUNT_ATTRIBUTE, p.username());
            if (p.tenant() != null) {
                b.addAttribute(DatabaseIdentityProvider.TENANT_ATTRIBUTE, p.tenant());
            }
        } else {
            Set<String> staff = new LinkedHashSet<>(signedIn.getRoles());
            staff.retainAll(STAFF);
            b.setPrincipal(new Named(token, unboundName(token.getClaim("preferred_username"), subject)))
                    .addRoles(Role.effective(staff));
        }
        return b.build();
    }

    /**
     * The name of a user bound to no account: its {@code preferred_username} as a label, and its subject, which tells
     * it apart from anyone who takes that label later (the label holds no parenthesis, so it cannot pass for
     * another's subject). No account name holds a space or a parenthesis.
     */
    static String unboundName(Object preferredUsername, String subject) {
        String label = preferredUsername instanceof String s ? s.codePoints()
                .filter(c -> !Character.isISOControl(c) && c != '(' && c != ')').limit(64)
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString().strip()
                : "";
        return (label.isEmpty() ? "" : label + " ") + "(oidc:" + subject + ")";
    }

    /** The provider's token under the name Vigie gives its user (the OIDC extension needs the token itself). */
    private record Named(JsonWebToken token, String name) implements JsonWebToken {
        @Override
        public String getName() {
            return name;
        }

        @Override
        public Set<String> getClaimNames() {
            return token.getClaimNames();
        }

        @Override
        public <T> T getClaim(String claimName) {
            return token.getClaim(claimName);
        }
    }
}
