package app.vigie.compliance.rules;

import java.time.Duration;
import java.time.Instant;
import java.time.Period;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;

/**
 * A period of a rule: hours and minutes are elapsed time ({@code PT72H}); days, weeks, months and years are counted
 * on the calendar of a zone, to the same wall-clock time ({@code P15D}, {@code P1M}), so that "one month" from
 * 10 March 10:00 in Paris ends on 10 April at 10:00 in Paris whatever the change of time between them.
 */
public record Delay(String text, Duration exact, Period calendar) {

    public static Delay parse(String text) {
        if (text.startsWith("PT")) {
            Duration d = Duration.parse(text);
            if (d.isNegative() || d.isZero()) {
                throw new DateTimeParseException("must be more than zero", text, 0);
            }
            return new Delay(text, d, null);
        }
        if (text.contains("T")) {
            throw new DateTimeParseException("give hours (PT72H) or calendar days and months (P15D, P1M), not both",
                    text, 0);
        }
        Period p = Period.parse(text);
        if (p.isNegative() || p.isZero()) {
            throw new DateTimeParseException("must be more than zero", text, 0);
        }
        return new Delay(text, null, p);
    }

    public Instant after(Instant origin, ZoneId zone) {
        return exact != null ? origin.plus(exact) : origin.atZone(zone).plus(calendar).toInstant();
    }

    @Override
    public String toString() {
        return text;
    }
}
