package app.vigie.notice;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Set;

import jakarta.inject.Singleton;

import org.jboss.logging.Logger;
import org.yaml.snakeyaml.Yaml;

/**
 * The words documents use for Vigie's codes (duty kinds, statuses, reasons, severities, regimes...), per language,
 * from templates/notices/words.yaml: a document never shows a code nor a word of another language.
 */
@Singleton
public class Words {
    private static final Logger LOG = Logger.getLogger(Words.class);
    static final String FILE = "templates/notices/words.yaml";
    /** The languages documents are written in. */
    public static final Set<String> LANGUAGES = Set.of("en", "fr");

    private final Map<String, Map<String, Map<String, String>>> words;

    public Words() {
        this(load());
    }

    Words(Map<String, Map<String, Map<String, String>>> words) {
        this.words = words;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Map<String, Map<String, String>>> load() {
        try (InputStream in = Words.class.getClassLoader().getResourceAsStream(FILE)) {
            if (in == null) {
                throw new IllegalStateException(FILE + " is not in the application");
            }
            return (Map<String, Map<String, Map<String, String>>>) (Map<?, ?>) new Yaml().load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The words for {@code code} of {@code group} in {@code lang}; the code itself, logged, when there are none. */
    public String of(String lang, String group, String code) {
        if (code == null) {
            return null;
        }
        String w = words.getOrDefault(lang, Map.of()).getOrDefault(group, Map.of()).get(code);
        if (w == null) {
            LOG.warnf("%s has no words for %s '%s' in '%s': the code is shown", FILE, group, code, lang);
            return code;
        }
        return w;
    }

    /** Whether {@code group} has words for {@code code} in {@code lang}. */
    public boolean has(String lang, String group, String code) {
        return words.getOrDefault(lang, Map.of()).getOrDefault(group, Map.of()).containsKey(code);
    }

    /** Every word of a language, for checks. */
    public Map<String, Map<String, String>> all(String lang) {
        return words.getOrDefault(lang, Map.of());
    }
}
