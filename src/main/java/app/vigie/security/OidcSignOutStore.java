package app.vigie.security;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Optional;

/** The last sign-out of each OpenID Connect identity (table {@code oidc_sign_out}, migration V29). */
final class OidcSignOutStore {
    private OidcSignOutStore() {
    }

    /** When the identity last signed out; empty when it never did. */
    static Optional<Instant> signedOutAt(Connection c, OidcIdentity identity) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(
                "select signed_out_at from oidc_sign_out where issuer = ? and subject = ?")) {
            s.setString(1, identity.issuer());
            s.setString(2, identity.subject());
            try (ResultSet r = s.executeQuery()) {
                return r.next() ? Optional.of(r.getObject(1, OffsetDateTime.class).toInstant()) : Optional.empty();
            }
        }
    }

    /** Records a sign-out at {@code at} (a later one already recorded stays). */
    static void signedOut(Connection c, OidcIdentity identity, Instant at) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("insert into oidc_sign_out (issuer, subject, signed_out_at) "
                + "values (?, ?, ?) on conflict (issuer, subject) do update set signed_out_at = "
                + "greatest(oidc_sign_out.signed_out_at, excluded.signed_out_at)")) {
            s.setString(1, identity.issuer());
            s.setString(2, identity.subject());
            s.setObject(3, OffsetDateTime.ofInstant(at, ZoneOffset.UTC));
            s.executeUpdate();
        }
    }
}
