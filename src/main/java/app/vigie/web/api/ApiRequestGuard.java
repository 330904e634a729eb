package app.vigie.web.api;

import java.util.Optional;
import java.util.Set;

import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.jboss.resteasy.reactive.server.spi.ResteasyReactiveContainerRequestContext;

import app.vigie.problem.Problem;

/**
 * Two rules for the API's requests, after authentication and the role check:
 * <ul>
 * <li><b>No cross-site action with a browser's cached credentials</b> (beside the browser's own signals, checked by
 * {@code SameOrigin}). A page on another site can make a browser POST without asking (an HTML form, or a fetch with a
 * CORS-safelisted type: no type, form-urlencoded, multipart, text/plain), and the browser adds the HTTP Basic
 * credentials it holds for Vigie. So a POST under {@code /api/} with such a type must carry the header
 * {@value #HEADER} (any value), which no page on another site can add without a CORS preflight, which Vigie never
 * grants; a JSON or NDJSON body needs no header (its type needs that preflight). Otherwise 403. One exception:
 * {@code POST /api/audit-log/flush}, whose bare form the stable API (docs/api.md) promises; browsers' signals guard
 * it.</li>
 * <li><b>Bodies within bounds.</b> A request with a body to any endpoint other than the audit log (which has its own
 * limit, vigie.ingest.max-body-bytes) is at most {@code vigie.http.max-json-body-bytes} (512 KiB by default; the
 * tenant directory's import, {@code vigie.http.max-import-body-bytes}, 12 MiB) and states its length; otherwise 413,
 * or 411 for a body without Content-Length.</li>
 * </ul>
 */
public class ApiRequestGuard {
    public static final String HEADER = "X-Requested-With";
    private static final Set<String> SIMPLE = Set.of("application/x-www-form-urlencoded", "multipart/form-data",
            "text/plain");

    @ConfigProperty(name = "vigie.http.max-json-body-bytes", defaultValue = "524288")
    long maxBody;

    /** The tenant directory's import (a file of tenants, then its text posted back to confirm it). */
    @ConfigProperty(name = "vigie.http.max-import-body-bytes", defaultValue = "12582912")
    long maxImport;

    @ServerRequestFilter
    public Optional<Response> guard(ResteasyReactiveContainerRequestContext request) {
        String path = request.getUriInfo().getPath();
        path = path.startsWith("/") ? path : "/" + path;
        String method = request.getMethod();
        boolean api = path.startsWith("/api/");
        boolean auditLog = path.equals("/api/audit-log");
        if (api && "POST".equals(method) && request.getHeaderString(HEADER) == null
                && !path.equals("/api/audit-log/flush")) {
            MediaType type = request.getMediaType();
            String base = type == null ? null : (type.getType() + "/" + type.getSubtype()).toLowerCase();
            if (base == null || SIMPLE.contains(base)) {
                return Optional.of(problem(403, "a POST to the API needs a JSON body or the header " + HEADER
                        + " (a page on another site can send neither)"));
            }
        }
        if (!auditLog && ("POST".equals(method) || "PUT".equals(method) || "PATCH".equals(method))) {
            String length = request.getHeaderString(HttpHeaders.CONTENT_LENGTH);
            String chunked = request.getHeaderString("Transfer-Encoding");
            if (length == null && chunked != null) {
                return Optional.of(problem(411, "a body needs its Content-Length here"));
            }
            try {
                boolean tenantImport = path.startsWith("/tenants/import");
                long limit = tenantImport ? maxImport : maxBody;
                if (length != null && Long.parseLong(length.strip()) > limit) {
                    return Optional.of(problem(413, "the body is larger than the limit of " + limit + " bytes ("
                            + (tenantImport ? "vigie.http.max-import-body-bytes" : "vigie.http.max-json-body-bytes")
                            + ")"));
                }
            } catch (NumberFormatException e) {
                return Optional.of(problem(400, "header Content-Length is not a number"));
            }
        }
        return Optional.empty();
    }

    private static Response problem(int status, String detail) {
        return Problem.of(status, detail).toResponse();
    }
}
