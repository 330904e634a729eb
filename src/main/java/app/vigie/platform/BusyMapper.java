package app.vigie.platform;

import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;

import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import app.vigie.problem.Problem;

/** {@link Permits.Busy} as the problem answer every 503 is, with its {@code Retry-After}. */
public class BusyMapper {
    @ServerExceptionMapper
    public Response busy(Permits.Busy e) {
        return Response.fromResponse(Problem.of(e.status(), e.getMessage()).toResponse())
                .header(HttpHeaders.RETRY_AFTER, Integer.toString(e.retryAfterSeconds())).build();
    }
}
