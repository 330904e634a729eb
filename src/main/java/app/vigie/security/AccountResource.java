package app.vigie.security;

import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Set;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.SecurityContext;

/** {@code /api/accounts}: the accounts of the service (admin only). Passwords are never returned. */
@Path("/api/accounts")
@RolesAllowed(Role.R_ADMIN)
public class AccountResource {

    @Inject
    AccountService accounts;

    /** An account as shown. */
    public record AccountView(String username, Set<String> roles, String tenant, Instant createdAt) {
    }

    /** The body of {@code PUT /api/accounts/{username}}. */
    public record AccountInput(String password, List<String> roles, String tenant) {
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public List<AccountView> list() throws SQLException {
        return accounts.everyone().stream()
                .map(u -> new AccountView(u.username(), u.roles(), u.tenant(), u.createdAt())).toList();
    }

    @PUT
    @Path("{username}")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public AccountView put(@PathParam("username") String username, AccountInput input, @Context SecurityContext who)
            throws SQLException {
        AccountInput in = input == null ? new AccountInput(null, null, null) : input;
        Set<String> roles = accounts.put(who.getUserPrincipal().getName(), username, in.password(), in.roles(),
                in.tenant());
        return new AccountView(username, roles, in.tenant(), null);
    }
}
