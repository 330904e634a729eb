package app.vigie.security;

import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Set;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.SecurityContext;

/**
 * {@code /api/accounts}: the accounts of the service (admin only). Passwords are never returned. An account may be
 * bound to one user of the OpenID Connect provider ({@code /api/accounts/{username}/oidc}), who then signs in to the
 * dashboard as that account.
 */
@Path("/api/accounts")
@RolesAllowed(Role.R_ADMIN)
public class AccountResource {

    @Inject
    AccountService accounts;

    /** An account as shown; {@code oidc}: the provider's user bound to it, null when none. */
    public record AccountView(String username, Set<String> roles, String tenant, Instant createdAt,
            OidcIdentity oidc) {
    }

    /** The body of {@code PUT /api/accounts/{username}/oidc}: the issuer defaults to VIGIE_OIDC_ISSUER. */
    public record OidcInput(String issuer, String subject) {
    }

    /** The body of {@code PUT /api/accounts/{username}}. */
    public record AccountInput(String password, List<String> roles, String tenant) {
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public List<AccountView> list() throws SQLException {
        return accounts.everyone().stream()
                .map(u -> new AccountView(u.username(), u.roles(), u.tenant(), u.createdAt(), u.oidc())).toList();
    }

    @PUT
    @Path("{username}")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public AccountView put(@PathParam("username") String username, AccountInput input, @Context SecurityContext who)
            throws SQLException {
        AccountInput in = input == null ? new AccountInput(null, null, null) : input;
        UserAccount stored = accounts.put(who.getUserPrincipal().getName(), username, in.password(), in.roles(),
                in.tenant());
        return new AccountView(username, stored.roles(), stored.tenant(), null, stored.oidc());
    }

    /**
     * Binds the account to the provider's user whose ID tokens carry this issuer and subject ({@code iss},
     * {@code sub}; in Keycloak the subject is the user's ID): that user, and no other, signs in as the account.
     */
    @PUT
    @Path("{username}/oidc")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public OidcIdentity bind(@PathParam("username") String username, OidcInput input, @Context SecurityContext who)
            throws SQLException {
        OidcInput in = input == null ? new OidcInput(null, null) : input;
        return accounts.bind(who.getUserPrincipal().getName(), username, in.issuer(), in.subject());
    }

    /** Unbinds the account from the provider's user: that user signs in as nothing from its next request on. */
    @DELETE
    @Path("{username}/oidc")
    public void unbind(@PathParam("username") String username, @Context SecurityContext who) throws SQLException {
        accounts.unbind(who.getUserPrincipal().getName(), username);
    }
}
