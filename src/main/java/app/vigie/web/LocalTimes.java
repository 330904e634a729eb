package app.vigie.web;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;

import app.vigie.problem.ProblemException;

/**
 * Times typed into the dashboard's forms: in the user's zone ({@code 2026-03-29 02:30}) or with an explicit offset
 * ({@code 2026-10-25T02:30+01:00}). A local time that does not exist in the zone (clocks moved forward) or that
 * exists twice (clocks moved back) is refused with a message saying how to write it, never guessed.
 */
public final class LocalTimes {
    private static final DateTimeFormatter FIELD = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm");

    private LocalTimes() {
    }

    /** {@code t} as a form field shows it: local, to the minute. */
    public static String field(Instant t, ZoneId zone) {
        return FIELD.format(t.atZone(zone));
    }

    /** The instant {@code value} names; null when blank; a 400 naming {@code label} when it is not a time. */
    public static Instant parse(String value, ZoneId zone, String label) {
        if (value == null || value.isBlank()) {
            return null;
        }
        String v = value.strip().replace(' ', 'T');
        try {
            return OffsetDateTime.parse(v).toInstant();
        } catch (DateTimeException notOffset) {
            // a local time, in the zone
        }
        LocalDateTime local;
        try {
            local = LocalDateTime.parse(v.length() == 16 ? v + ":00" : v);
        } catch (DateTimeException e) {
            throw new ProblemException(400, label + ": '" + value + "' is not a time; write it as "
                    + "2026-12-02 14:30 (in " + zone.getId() + ") or with its offset, 2026-12-02T14:30+01:00");
        }
        List<ZoneOffset> offsets = zone.getRules().getValidOffsets(local);
        if (offsets.isEmpty()) {
            throw new ProblemException(400, label + ": " + value + " does not exist in " + zone.getId()
                    + " (the clocks moved forward then); check the time");
        }
        if (offsets.size() > 1) {
            throw new ProblemException(400, label + ": " + value + " happens twice in " + zone.getId()
                    + " (the clocks moved back then); add the offset: " + v + offsets.get(0).getId() + " or "
                    + v + offsets.get(1).getId());
        }
        return local.atOffset(offsets.get(0)).toInstant();
    }
}
