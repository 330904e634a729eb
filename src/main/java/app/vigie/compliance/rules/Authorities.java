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
     * text that makes it the recipient ({@code source}, where given).
     */
    public record Authority(String code, String name, String url, Map<String, String> names, String source) {
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
}
