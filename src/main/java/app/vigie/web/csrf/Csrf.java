package app.vigie.web.csrf;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;


import io.quarkus.security.identity.SecurityIdentity;
import io.vertx.core.http.Cookie;
import io.vertx.core.http.CookieSameSite;
import io.vertx.ext.web.RoutingContext;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import app.vigie.platform.ServiceKey;

/**
 * The dashboard's CSRF tokens: a signed double-submit bound to the user. The browser holds a random value in an
 * HttpOnly, SameSite=Strict cookie ({@value #COOKIE}); each form carries HMAC(key, cookie | user) in its hidden field
 * {@value #FIELD}. A forged form cannot know the field (it needs the cookie and the key), a stolen field is useless
 * without the cookie, and a field made for one user fails for another. The key is derived from the session key, so
 * every instance sharing VIGIE_SESSION_KEY accepts the same tokens.
 *
 * <p>Templates write {@code {inject:csrf.field}} and {@code {inject:csrf.token}}.
 */
@Named("csrf")
@RequestScoped
public class Csrf {
    public static final String COOKIE = "vigie-csrf";
    public static final String FIELD = "csrf";
    private static final SecureRandom RANDOM = new SecureRandom();

    @Inject
    RoutingContext routing;

    @Inject
    SecurityIdentity identity;

    @Inject
    ServiceKey serviceKey;

    private String cookie;

    public String getField() {
        return FIELD;
    }

    /** The token of this request's forms; sets the cookie when the browser has none yet. */
    public String getToken() {
        if (cookie == null) {
            Cookie given = routing.request().getCookie(COOKIE);
            cookie = given != null && given.getValue().length() == 43 ? given.getValue() : null;
            if (cookie == null) {
                byte[] random = new byte[32];
                RANDOM.nextBytes(random);
                cookie = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
                routing.response().addCookie(Cookie.cookie(COOKIE, cookie).setPath("/").setHttpOnly(true)
                        .setSameSite(CookieSameSite.STRICT).setSecure(routing.request().isSSL()));
            }
        }
        return sign(serviceKey.value(), cookie, user());
    }

    /** Whether {@code field}, from a posted form, is this browser's token for the signed-in user. */
    public boolean valid(String field) {
        Cookie given = routing.request().getCookie(COOKIE);
        if (field == null || given == null || identity.isAnonymous()) {
            return false;
        }
        byte[] expected = sign(serviceKey.value(), given.getValue(), user()).getBytes(StandardCharsets.US_ASCII);
        return MessageDigest.isEqual(expected, field.getBytes(StandardCharsets.US_ASCII));
    }

    /** Forgets the browser's CSRF cookie (at sign-out). */
    public void clear() {
        routing.response().addCookie(Cookie.cookie(COOKIE, "").setPath("/").setMaxAge(0).setHttpOnly(true)
                .setSameSite(CookieSameSite.STRICT));
    }

    private String user() {
        return identity.isAnonymous() ? "" : identity.getPrincipal().getName();
    }

    static String sign(String key, String cookie, String user) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(("vigie-csrf|" + key).getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            byte[] sig = mac.doFinal((cookie + "|" + user).getBytes(StandardCharsets.UTF_8));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(sig);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }
}
