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

import app.vigie.auditlog.intake.IngestScope;

/**
 * {@code /api/accounts}: the accounts of the service (admin only). Passwords are never returned. An account may be
 * bound to one user of the OpenID Connect provider ({@code /api/accounts/{username}/oidc}), who then signs in to the
 * dashboard as that account. An ingest account may be bound to what it writes
 * ({@code /api/accounts/{username}/ingest-scope}).
 */
@Path("/api/accounts")
@RolesAllowed(Role.R_ADMIN)
public class AccountResource {

    @Inject
    AccountService accounts;

    /**
     * An account as shown; {@code oidc}: the provider's user bound to it, null when none; {@code ingestScope}: what an
     * ingest account may write, null when not bound; {@code warning}: set for an ingest account bound to nothing.
     */
    public record AccountView(String username, Set<String> roles, String tenant, Instant createdAt,
            OidcIdentity oidc, IngestScope ingestScope, String warning) {
        static AccountView of(UserAccount u, Instant createdAt) {
            return new AccountView(u.username(), u.roles(), u.tenant(), createdAt, u.oidc(), u.ingestScope(),
                    AccountService.warning(u));
        }
    }

    /** The body of {@code PUT /api/accounts/{username}/ingest-scope}. */
    public record IngestScopeInput(List<String> deployments, List<String> streamPrefixes) {
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
        return accounts.everyone().stream().map(u -> AccountView.of(u, u.createdAt())).toList();
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
        return AccountView.of(stored, null);
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

    /**
     * Binds an ingest account to what it may write (issue 41 point 5): lines of these deployments and/or of streams
     * starting with these prefixes; the same binding limits the streams it lists and flushes.
     */
    @PUT
    @Path("{username}/ingest-scope")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public IngestScope scope(@PathParam("username") String username, IngestScopeInput input,
            @Context SecurityContext who) throws SQLException {
        IngestScopeInput in = input == null ? new IngestScopeInput(null, null) : input;
        return accounts.scope(who.getUserPrincipal().getName(), username, in.deployments(), in.streamPrefixes());
    }

    /** Unbinds an ingest account: it writes every stream again (with a warning, as before it was bound). */
    @DELETE
    @Path("{username}/ingest-scope")
    public void unscope(@PathParam("username") String username, @Context SecurityContext who) throws SQLException {
        accounts.unscope(who.getUserPrincipal().getName(), username);
    }

    /** Unbinds the account from the provider's user: that user signs in as nothing from its next request on. */
    @DELETE
    @Path("{username}/oidc")
    public void unbind(@PathParam("username") String username, @Context SecurityContext who) throws SQLException {
        accounts.unbind(who.getUserPrincipal().getName(), username);
    }
}
