package app.vigie.security;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * Password guessing (docs/security.md): failures in a row allowed for an account and from an address, then a lock
 * that doubles at each further failure, up to its maximum; while locked, no password is checked.
 */
@ConfigMapping(prefix = "vigie.signin")
public interface SigninConfig {

    @WithDefault("5")
    int freeTries();

    @WithDefault("30")
    int addressFreeTries();

    @WithDefault("PT1S")
    Duration lockBase();

    @WithDefault("PT15M")
    Duration lockMax();
}
