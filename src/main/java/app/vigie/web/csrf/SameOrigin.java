package app.vigie.web.csrf;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import io.quarkus.vertx.http.runtime.filters.Filters;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.RoutingContext;

/**
 * The sign-in form has no session to bind a token to, so a post to {@code /j_security_check} from another site (a
 * login CSRF: signing the victim into the attacker's account) is refused by the browser's own headers: an
 * {@code Origin} other than this host, or {@code Sec-Fetch-Site: cross-site}, gets 403 before any credential is
 * read. The dashboard's other forms carry tokens ({@link CsrfFilter}).
 *
 * <p>The API is for programs with Basic credentials, but a browser that holds them (someone who once opened an API
 * address in it) adds them to any request a page on another site makes it send: a POST, PUT, PATCH or DELETE under
 * {@code /api/} that a browser marks as cross-site ({@code Sec-Fetch-Site: cross-site} or {@code same-site}, an
 * {@code Origin} other than this host, or the opaque origin {@code null}) is refused with 403. Programs send none of
 * these headers. (A no-body POST also needs a header a foreign page cannot add: {@code ApiRequestGuard}.)
 */
@ApplicationScoped
public class SameOrigin {

    void register(@Observes Filters filters) {
        filters.register(this::check, 200);
    }

    void check(RoutingContext rc) {
        HttpMethod m = rc.request().method();
        if (m == HttpMethod.POST && "/j_security_check".equals(rc.normalizedPath()) && crossSite(rc)) {
            rc.response().setStatusCode(403).putHeader("Content-Type", "text/plain; charset=UTF-8")
                    .end("Sign-in refused: the form was posted from another site.");
            return;
        }
        if ((m == HttpMethod.POST || m == HttpMethod.PUT || m == HttpMethod.PATCH || m == HttpMethod.DELETE)
                && rc.normalizedPath().startsWith("/api/")
                && (crossSite(rc) || "same-site".equals(rc.request().getHeader("Sec-Fetch-Site"))
                        || "null".equals(rc.request().getHeader("Origin")))) {
            rc.response().setStatusCode(403).putHeader("Content-Type", "application/problem+json")
                    .end("{\"type\":\"about:blank\",\"title\":\"Forbidden\",\"status\":403,\"detail\":\"refused: "
                            + "the request was sent by a page of another site\"}");
            return;
        }
        rc.next();
    }

    static boolean crossSite(RoutingContext rc) {
        if ("cross-site".equals(rc.request().getHeader("Sec-Fetch-Site"))) {
            return true;
        }
        String origin = rc.request().getHeader("Origin");
        if (origin == null || origin.isEmpty()) {
            return false;  // not a browser's post: browsers send Origin or Sec-Fetch-Site
        }
        String host = rc.request().getHeader("Host");
        if ("null".equals(origin) || host == null) {
            return false;  // an opaque origin (privacy settings) proves nothing; Sec-Fetch-Site above decides
        }
        String authority = origin.replaceFirst("^[a-zA-Z][a-zA-Z0-9+.-]*://", "");
        String forwarded = rc.request().getHeader("X-Forwarded-Host");  // behind a reverse proxy
        return !authority.equalsIgnoreCase(host) && (forwarded == null || !authority.equalsIgnoreCase(forwarded));
    }
}
