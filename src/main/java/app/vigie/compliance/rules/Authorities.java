package app.vigie.compliance.rules;

import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Country sets ({@code eea}) and the authorities Vigie names as recipients: by kind and country
 * ({@code supervisory_authority.FR} is the CNIL), and by name ({@code ico}).
 */
public record Authorities(Map<String, Set<String>> sets, Map<String, Map<String, Authority>> byKind,
        Map<String, Authority> named) {

    /**
     * An authority: its name in English ({@code name}) and in each language ({@code names}), its address, and the
     * text that makes it the recipient ({@code source}, where given), and, for a named authority that is a country's
     * data protection authority outside the GDPR (the ICO, the FDPIC), that country ({@code dataProtectionOf}).
     */
    public record Authority(String code, String name, String url, Map<String, String> names, String source,
            String dataProtectionOf) {
        /** Its name in {@code lang}, or the English one. */
        public String name(String lang) {
            return names.getOrDefault(lang, name);
        }
    }

    public Optional<Authority> of(String kind, String country) {
        return Optional.ofNullable(byKind.getOrDefault(kind, Map.of()).get(country));
    }

    public Optional<Authority> named(String code) {
        return Optional.ofNullable(named.get(code));
    }

    /**
     * The recipient code of the data protection authority of {@code country}: a named one that says it is
     * ({@code data_protection_authority_of}), else the GDPR supervisory authority of that country.
     */
    public String dataProtectionAuthority(String country) {
        return named.values().stream().filter(a -> country != null && country.equals(a.dataProtectionOf()))
                .map(Authority::code).findFirst().orElse("supervisory_authority:" + country);
    }

    /** Whether a recipient code is a data protection authority (a GDPR supervisory authority, the ICO, the FDPIC). */
    public boolean isDataProtectionAuthority(String recipient) {
        return recipient.startsWith("supervisory_authority")
                || named(recipient).map(a -> a.dataProtectionOf() != null).orElse(false);
    }
}
