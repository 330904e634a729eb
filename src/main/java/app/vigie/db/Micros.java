package app.vigie.db;

import java.time.Instant;

/**
 * An instant as microseconds since the epoch, PostgreSQL's own precision: how the stores pass instants in arrays
 * ({@code timestamptz 'epoch' + m * interval '1 microsecond'}), since a {@code java.sql.Timestamp} in an array goes as
 * text in the JVM's zone, without an offset, which a UTC session reads shifted wherever the JVM is not in UTC.
 */
public final class Micros {
    private Micros() {
    }

    public static long of(Instant t) {
        return Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000L), t.getNano() / 1_000);
    }
}
