package app.vigie.problem;

import java.sql.SQLException;
import java.util.Locale;
import java.util.UUID;

import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;

import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import com.fasterxml.jackson.core.JsonProcessingException;

import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.ForbiddenException;
import io.quarkus.security.UnauthorizedException;
import io.vertx.core.http.HttpServerRequest;

/** Every error of the API as {@code application/problem+json}; bad input never gets a 500. */
public class ProblemMappers {
    private static final Logger LOG = Logger.getLogger(ProblemMappers.class);
    private static final String CHALLENGE = "Basic realm=\"Vigie\", charset=\"UTF-8\"";

    @ServerExceptionMapper
    public Response problem(ProblemException e) {
        Response r = Problem.of(e.status(), e.getMessage()).toResponse();
        return e.retryAfter() > 0
                ? Response.fromResponse(r).header(HttpHeaders.RETRY_AFTER, Integer.toString(e.retryAfter())).build()
                : r;
    }

    @ServerExceptionMapper({UnauthorizedException.class, AuthenticationFailedException.class})
    public Response unauthorized(Exception e, HttpServerRequest request) {
        String path = request.path();
        if (accountStoreDown(e)) {
            // the credentials were not checked: saying 401 would send the client after its password
            LOG.warnf("Database unavailable while checking credentials: %s", e.getCause());
            if (path.startsWith("/api/")) {
                return Response.fromResponse(Problem.of(503, "the database is unavailable, so credentials cannot be "
                        + "checked; retry later").toResponse()).header(HttpHeaders.RETRY_AFTER, "5").build();
            }
            return Response.status(503).type("text/plain; charset=UTF-8").header(HttpHeaders.RETRY_AFTER, "5")
                    .entity("Vigie cannot reach its database for the moment; try again in a few seconds.\n").build();
        }
        if (!path.startsWith("/api/") && !path.equals("/api")) {
            // the dashboard's pages: to the sign-in form (again, saying why, after a failed attempt)
            return Response.status(302).header(HttpHeaders.LOCATION,
                    path.equals("/j_security_check") ? "/login-error" : "/login").build();
        }
        return Response.fromResponse(Problem.of(401,
                "authentication required: send HTTP Basic credentials of a Vigie account").toResponse())
                .header(HttpHeaders.WWW_AUTHENTICATE, CHALLENGE).build();
    }

    private static boolean accountStoreDown(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLException) {
                return true;
            }
        }
        return false;
    }

    @ServerExceptionMapper
    public Response forbidden(ForbiddenException e) {
        return Problem.of(403, "your account does not have a role that may do this").toResponse();
    }

    @ServerExceptionMapper
    public Response json(JsonProcessingException e) {
        return Problem.of(400, "the body is not valid JSON: " + e.getOriginalMessage()).toResponse();
    }

    @ServerExceptionMapper
    public Response web(WebApplicationException e) {
        int status = e.getResponse().getStatus();
        if (status >= 500) {
            return internal(e);
        }
        String detail = switch (status) {
            case 404 -> "no such resource";
            case 405 -> "this method is not allowed here";
            case 406 -> "cannot answer in an accepted media type";
            case 415 -> "unsupported Content-Type; audit records are posted as application/x-ndjson";
            default -> e.getMessage();
        };
        return Problem.of(status, detail).toResponse();
    }

    /** The database is unreachable or saturated: nothing was lost, the client should retry. */
    @ServerExceptionMapper
    public Response database(SQLException e) {
        String state = e.getSQLState();
        String message = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
        if ((state != null && state.startsWith("08")) || message.contains("acquisition timeout")) {
            LOG.warnf("Database unavailable: %s", e.getMessage());
            return Response.fromResponse(Problem.of(503,
                    "the database is unavailable; retry later (records already stored count as duplicates on retry)")
                    .toResponse()).header(HttpHeaders.RETRY_AFTER, "5").build();
        }
        return internal(e);
    }

    /**
     * An unchecked failure with a database failure behind it (an entity's statement, whose exceptions Hibernate ORM
     * makes unchecked; a use case that declares no SQLException) is answered as that SQLException: 503 when the
     * database is out of reach. Anything else is an internal error.
     */
    @ServerExceptionMapper
    public Response unchecked(RuntimeException e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLException sql) {
                return database(sql);
            }
        }
        return internal(e);
    }

    @ServerExceptionMapper
    public Response internal(Throwable e) {
        String ref = UUID.randomUUID().toString();
        LOG.errorf(e, "Internal error, reference %s", ref);
        return Problem.of(500, "internal error; the server log has the details under reference " + ref)
                .toResponse();
    }
}
