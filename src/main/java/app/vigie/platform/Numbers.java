package app.vigie.platform;

import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.util.Locale;

import io.quarkus.qute.TemplateExtension;
import io.quarkus.qute.TemplateExtension.TemplateAttribute;

/**
 * Counts as a reader of the page's or document's language writes them: {@code {n.grouped}} gives 349 790 in French
 * (a no-break space, so that a number never breaks across lines) and 349,790 in English, from the template instance's
 * locale ({@code setLocale}); a template without one gets English.
 */
@TemplateExtension
public final class Numbers {
    private Numbers() {
    }

    static String grouped(Number n, @TemplateAttribute("locale") Object locale) {
        return grouped(n, Languages.of(locale));
    }

    /** {@code n} grouped by thousands in {@code language} (fr or en). */
    public static String grouped(Number n, String language) {
        if (n == null) {
            return "";
        }
        DecimalFormatSymbols symbols = DecimalFormatSymbols.getInstance(Locale.ROOT);
        symbols.setGroupingSeparator("fr".equals(language) ? '\u00a0' : ',');
        DecimalFormat format = new DecimalFormat("#,##0.###", symbols);
        return format.format(n);
    }
}
