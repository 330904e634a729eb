package app.vigie.security;

import app.vigie.audit.AuditTrail;

/**
 * A user of an OpenID Connect provider, as its ID tokens name it: the issuer ({@code iss}) and the subject
 * ({@code sub}), unique and never reassigned within the issuer. Never its {@code preferred_username}, which the user
 * may change.
 */
public record OidcIdentity(String issuer, String subject) {
    /** The longest issuer and subject taken (OpenID Connect bounds the subject at 255 ASCII characters). */
    public static final int MAX = 500;

    /** Whether {@code s} may be an issuer or a subject: 1 to {@value #MAX} characters, no control character. */
    public static boolean valid(String s) {
        return s != null && !s.isBlank() && s.length() <= MAX && s.chars().noneMatch(c -> c < 0x20 || c == 0x7f
                || (c >= 0x80 && c < 0xa0));
    }

    String json() {
        return "{\"issuer\":" + AuditTrail.quote(issuer) + ",\"subject\":"
                + AuditTrail.quote(subject) + "}";
    }
}
