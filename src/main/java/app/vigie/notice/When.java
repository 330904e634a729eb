package app.vigie.notice;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.TextStyle;
import java.util.Locale;

/**
 * A time in a document: stored and given in UTC ({@code utc}), shown in the reader's zone and language
 * ({@code local}, with the offset, so that a reader elsewhere can convert it). {@code known} is false for a time not
 * known yet; {@code local} then says so in the document's language.
 */
public record When(Instant utc, String local, boolean known) {

    public static When of(Instant t, ZoneId zone, Locale lang) {
        if (t == null) {
            return new When(null, lang.getLanguage().equals("fr") ? "ne sait pas pour l'instant" : "not known yet",
                    false);
        }
        String zoneName = zone.getDisplayName(TextStyle.FULL, lang);
        DateTimeFormatter f = lang.getLanguage().equals("fr")
                ? DateTimeFormatter.ofPattern("d MMMM uuuu 'à' HH:mm", lang)
                : DateTimeFormatter.ofPattern("d MMMM uuuu, HH:mm", lang);
        var local = t.atZone(zone);
        String offset = local.getOffset().getTotalSeconds() == 0 ? "UTC" : "UTC" + local.getOffset().getId();
        return new When(t, f.format(local) + " (" + zoneName + ", " + offset + ")", true);
    }

    @Override
    public String toString() {
        return local;
    }
}
