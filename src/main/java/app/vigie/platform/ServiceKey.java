package app.vigie.platform;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The service's own secret ({@code VIGIE_SESSION_KEY}, Quarkus's session encryption key; the launcher makes one in
 * embedded mode), the same on every instance: it encrypts the dashboard's sessions and keys what Vigie derives and
 * never stores (the forms' CSRF tokens, the alerts' acknowledgement links, a session's version proof). Read here
 * only; rotating it ends the sessions and the links already sent.
 */
@ApplicationScoped
public class ServiceKey {
    @ConfigProperty(name = "quarkus.http.auth.session.encryption-key")
    String key;

    /** The key itself, for an HMAC of a format of its own (the CSRF tokens). */
    public String value() {
        return key;
    }

    /** An HMAC-SHA-256 of {@code message} under the key, for {@code purpose} (base64url). */
    public String keyed(String purpose, String message) {
        return Digests.keyed(key, purpose, message);
    }
}
