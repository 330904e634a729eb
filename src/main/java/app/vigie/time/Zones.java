package app.vigie.time;

import java.time.DateTimeException;
import java.time.ZoneId;

import app.vigie.problem.ProblemException;

/** The reader's time zone: times are stored in UTC and shown in a zone, Europe/Paris unless the reader chose one. */
public final class Zones {
    public static final String DEFAULT = "Europe/Paris";

    private Zones() {
    }

    /** A time zone such as Europe/Paris (the default when absent); a 400 naming the parameter otherwise. */
    public static ZoneId parse(String zone) {
        try {
            return ZoneId.of(zone == null || zone.isBlank() ? DEFAULT : zone.strip());
        } catch (DateTimeException e) {
            throw new ProblemException(400, "query parameter 'zone' must be a time zone such as Europe/Paris, got '"
                    + zone + "'");
        }
    }
}
