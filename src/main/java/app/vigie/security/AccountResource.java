package app.vigie.security;

import java.sql.SQLException;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

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

import io.agroal.api.AgroalDataSource;

import app.vigie.db.Transactions;
import app.vigie.problem.ProblemException;

/** {@code /api/accounts}: the accounts of the service (admin only). Passwords are never returned. */
@Path("/api/accounts")
@RolesAllowed(Role.R_ADMIN)
public class AccountResource {
    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9._@-]{0,99}");

    @Inject
    AgroalDataSource dataSource;

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
        return Transactions.run(dataSource, c -> Account.everyone()).stream()
                .map(u -> new AccountView(u.username(), u.roles(), u.tenant(), u.createdAt())).toList();
    }

    @PUT
    @Path("{username}")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public AccountView put(@PathParam("username") String username, AccountInput input, @Context SecurityContext who)
            throws SQLException {
        if (!NAME.matcher(username).matches()) {
            throw new ProblemException(400, "a username is 1 to 100 of a-z 0-9 . _ @ -, starting with a letter or digit");
        }
        if (input == null || input.password() == null || input.password().length() < AccountService.MIN_PASSWORD
                || input.password().length() > 200) {
            throw new ProblemException(400, "field 'password' is required: 12 to 200 characters");
        }
        if (input.roles() == null || input.roles().isEmpty()) {
            throw new ProblemException(400, "field 'roles' must list at least one role");
        }
        Set<String> roles = new LinkedHashSet<>();
        for (String r : input.roles()) {
            try {
                roles.add(Role.of(r).id());
            } catch (IllegalArgumentException e) {
                throw new ProblemException(400, e.getMessage());
            }
        }
        boolean customer = roles.contains(Role.R_CUSTOMER);
        if (customer && (input.tenant() == null || input.tenant().isBlank())) {
            throw new ProblemException(400, "a customer account needs field 'tenant'");
        }
        if (customer && roles.size() > 1) {
            throw new ProblemException(400, "a customer account holds the customer role only");
        }
        if (!customer && input.tenant() != null) {
            throw new ProblemException(400, "field 'tenant' is only for customer accounts");
        }
        if (AccountService.ADMIN.equals(username)) {
            throw new ProblemException(409, "the built-in admin account is managed with VIGIE_ADMIN_PASSWORD");
        }
        accounts.save(who.getUserPrincipal().getName(), username, input.password(), roles, input.tenant());
        return new AccountView(username, roles, input.tenant(), null);
    }
}
