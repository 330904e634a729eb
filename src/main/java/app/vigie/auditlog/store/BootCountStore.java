package app.vigie.auditlog.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * How many (stream, boot) pairs each deployment has, for {@code vigie.ingest.max-boots-per-deployment}, without
 * counting them at every chunk: counting a deployment's pairs walks them all (up to the bound), and a deployment of a
 * large fleet has tens of thousands (counting at every chunk that opened a boot cut the HTTP intake from 88,000 to
 * 30,000 records/s on bench/ingest-http's pd-example workload).
 * <p>
 * A deployment is counted in the database when this instance has no count of it, when its count is older than
 * {@code refreshNanos}, and when the pairs of a chunk could take it over the bound (then at most once per
 * {@code nearNanos}, so that a runtime opening boots past the bound cannot make every chunk count a million rows);
 * between counts, the count is the last one plus the pairs this instance created since. The bound is exact on one
 * instance, as long as chunks that open boots of the same deployment do not run side by side (two transactions
 * never see each other's uncommitted pairs, counted or not). Several instances may together go past it by what the
 * others created since the last count: up to the room left at that count, per instance, within the 10 s. A chunk
 * whose transaction rolls back makes this instance forget every count ({@link #forget()}): its pairs were added
 * before the commit, and a retry must not be refused for pairs that were never made. Counts older than the refresh
 * are dropped as new ones are made, so that deployment names a runtime makes up cannot grow the map.
 */
public final class BootCountStore {
    private final long max;
    private final long refreshNanos;
    private final long nearNanos;
    private final LongSupplier clock;
    private final Map<String, Known> known = new ConcurrentHashMap<>();

    /** A count: as of {@code countedAt}, plus the pairs created since by this instance. */
    private record Known(long count, long countedAt) {
    }

    public BootCountStore(long max, long refreshNanos, long nearNanos, LongSupplier clock) {
        if (max < 1) {
            throw new IllegalArgumentException("the bound on boots per deployment must be at least 1, not " + max);
        }
        this.max = max;
        this.refreshNanos = refreshNanos;
        this.nearNanos = nearNanos;
        this.clock = clock;
    }

    /** Counts again every 10 s, and near the bound at most once a second. */
    public BootCountStore(long max) {
        this(max, 10_000_000_000L, 1_000_000_000L, System::nanoTime);
    }

    public long max() {
        return max;
    }

    /**
     * The pairs each of these deployments has, counted in the database where needed (see the class): {@code pairs},
     * how many pairs of each deployment a chunk brings (new or not).
     */
    public Map<String, Long> counts(Connection c, Map<String, Integer> pairs) throws SQLException {
        long now = clock.getAsLong();
        if (known.size() > 1024) {
            known.values().removeIf(k -> now - k.countedAt() >= refreshNanos);
        }
        Map<String, Long> counts = new HashMap<>();
        List<String> toCount = new ArrayList<>();
        for (Map.Entry<String, Integer> e : pairs.entrySet()) {
            Known k = known.get(e.getKey());
            long age = k == null ? Long.MAX_VALUE : now - k.countedAt();
            if (k == null || age >= refreshNanos || (k.count() + e.getValue() > max && age >= nearNanos)) {
                toCount.add(e.getKey());
            } else {
                counts.put(e.getKey(), k.count());
            }
        }
        if (!toCount.isEmpty()) {
            databaseCounts.addAndGet(toCount.size());
            try (PreparedStatement ps = c.prepareStatement("""
                    select t.d, (select count(*) from (select 1 from stream_boot y where y.deployment = t.d limit ?) z)
                    from unnest(?::text[]) as t(d)""")) {
                ps.setLong(1, max);
                ps.setArray(2, c.createArrayOf("text", toCount.toArray(String[]::new)));
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        counts.put(rs.getString(1), rs.getLong(2));
                        known.put(rs.getString(1), new Known(rs.getLong(2), now));
                    }
                }
            }
        }
        return counts;
    }

    private final AtomicLong databaseCounts = new AtomicLong();

    /** How many times a deployment's pairs were counted in the database (for tests and figures). */
    public long databaseCounts() {
        return databaseCounts.get();
    }

    /** Forgets every count: the next chunk of each deployment counts in the database again. */
    public void forget() {
        known.clear();
    }

    /** This instance created these pairs (per deployment). */
    public void created(Map<String, Integer> created) {
        created.forEach((d, n) -> known.computeIfPresent(d, (key, k) -> new Known(k.count() + n, k.countedAt())));
    }
}
