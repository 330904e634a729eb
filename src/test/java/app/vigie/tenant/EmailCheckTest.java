package app.vigie.tenant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;

import org.junit.jupiter.api.Test;

/** The e-mail check: what it takes and refuses, and an input crafted to make a backtracking pattern run for ever. */
class EmailCheckTest {
    @Test
    void takesAddressesAndRefusesTheRest() {
        assertThat(TenantValidator.isEmail("dpo@acme.example")).isTrue();
        assertThat(TenantValidator.isEmail("first.last+tag@sub.acme.fr")).isTrue();
        for (String bad : new String[] {null, "", "dpo", "dpo@", "@acme.fr", "dpo@acme", "dpo@acme.", "dpo@.fr",
            "a@b@c.fr", "dpo @acme.fr", "dpo@acme.fr\r\nBcc: x@evil.example", "dpo@acme.fr\n", "d\u0000@acme.fr",
            "x".repeat(65) + "@acme.fr"}) {
            assertThat(TenantValidator.isEmail(bad)).as(String.valueOf(bad)).isFalse();
        }
    }

    @Test
    void aCraftedInputIsJudgedInOnePass() {
        // the old pattern [^@\\s]+@[^@\\s]+\\.[^@\\s]+ backtracked over every dot: 2 s at 40,000 characters,
        // quadratic beyond
        String crafted = "a@" + "b.".repeat(100_000) + " ";
        assertTimeoutPreemptively(Duration.ofSeconds(2), () -> assertThat(TenantValidator.isEmail(crafted))
                .isFalse());
        String regexBait = "a@" + "b.".repeat(100) + "\u0000";
        assertThat(TenantValidator.isEmail(regexBait)).isFalse();
    }
}
