package app.vigie.security;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * A provider's user bound to no account is named by its subject, its {@code preferred_username} a label only: no
 * account name can equal it, and a control character in either never reaches the audit trail or a mail header.
 */
class OidcIdentityTest {

    @Test
    void anUnboundUsersNameHoldsItsSubjectAndIsNoAccountName() {
        String name = OidcIdentityAugmentor.unboundName("acme-dpo", "5b0c6a3e-2f4b");
        assertThat(name).isEqualTo("acme-dpo (oidc:5b0c6a3e-2f4b)");
        assertThat(name).doesNotMatch("[a-z0-9][a-z0-9._@-]{0,99}");  // AccountService's pattern for a username
        assertThat(OidcIdentityAugmentor.unboundName(null, "s")).isEqualTo("(oidc:s)");
        assertThat(OidcIdentityAugmentor.unboundName("x\r\nBcc: a@b", "s")).isEqualTo("xBcc: a@b (oidc:s)");
        assertThat(OidcIdentityAugmentor.unboundName("y".repeat(500), "s")).hasSize(64 + " (oidc:s)".length());
        // a label cannot pass for another user's subject
        assertThat(OidcIdentityAugmentor.unboundName("dana (oidc:dana-sub)", "s"))
                .isEqualTo("dana oidc:dana-sub (oidc:s)");
    }

    @Test
    void anIssuerOrSubjectIsBoundedAndHasNoControlCharacter() {
        assertThat(OidcIdentity.valid("https://sso.example/realms/vigie")).isTrue();
        assertThat(OidcIdentity.valid("")).isFalse();
        assertThat(OidcIdentity.valid(" ")).isFalse();
        assertThat(OidcIdentity.valid(null)).isFalse();
        assertThat(OidcIdentity.valid("a\u0000")).isFalse();
        assertThat(OidcIdentity.valid("a\u0085")).isFalse();
        assertThat(OidcIdentity.valid("s".repeat(OidcIdentity.MAX))).isTrue();
        assertThat(OidcIdentity.valid("s".repeat(OidcIdentity.MAX + 1))).isFalse();
    }
}
