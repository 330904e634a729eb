package app.vigie.web.pages;

import java.time.ZoneId;
import java.util.Locale;

import app.vigie.notice.Reader;
import app.vigie.time.Zones;

/** Who reads a page, as far as it shows: the language (fr or en) and the time zone, each checked. */
public record Viewer(String language, ZoneId zone, Locale locale) {

    /** {@code lang} else the browser's language; {@code zone} else Europe/Paris; a 400 naming a bad one. */
    public static Viewer of(String lang, String zone, String accept) {
        String language = language(lang, accept);
        return new Viewer(language, Zones.parse(zone), Locale.forLanguageTag(language));
    }

    /** {@code lang} when given (fr or en), else the browser's first choice between them, else English. */
    public static String language(String lang, String accept) {
        if (lang != null && !lang.isBlank()) {
            return Reader.language(lang, "en");
        }
        if (accept != null) {
            for (String part : accept.split(",")) {
                String tag = part.split(";")[0].strip().toLowerCase(Locale.ROOT);
                if (tag.startsWith("fr")) {
                    return "fr";
                }
                if (tag.startsWith("en")) {
                    return "en";
                }
            }
        }
        return "en";
    }
}
