package app.vigie.platform;

import java.util.Locale;

/**
 * The language of a template instance's locale attribute. Deliberately not in a {@code @TemplateExtension} class:
 * there, a public static {@code language(Object)} becomes a property of every object in every template and shadows
 * each view model's own {@code language} (seen: every page rendered {@code lang=""}).
 */
public final class Languages {
    private Languages() {
    }

    /** The language of a locale attribute (a Locale or its tag); English when none. */
    public static String of(Object locale) {
        if (locale instanceof Locale l) {
            return l.getLanguage();
        }
        return locale == null ? "en" : Locale.forLanguageTag(locale.toString()).getLanguage();
    }
}
