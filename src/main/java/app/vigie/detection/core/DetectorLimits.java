package app.vigie.detection.core;

/**
 * What one (stream, boot) may make its detector hold, whatever its records say: a hostile or broken runtime's log
 * cannot exhaust the memory of the service that watches it (docs/security.md, "Hostile input"). A boot that would go
 * over a limit is not judged from that record on: {@link Rule#STREAM_UNSUPPORTED} says why, its records are kept, its
 * memory is given back, and every other boot is judged as usual (spec v1.3, amendment 1).
 *
 * @param maxPoolSlots the largest pool a {@code CONFIG} may declare, in slots ({@code pool_pages × page_size}); a pool
 *     costs 4 bytes a slot and 16 a page
 * @param maxTableEntries the most logical pages the page tables of the requests that still own pages may hold
 *     together (13 bytes each)
 * @param maxLiveRequests the most requests that may hold a page table that is not yet freed, at once
 * @param budget asked before the pool's memory is taken
 */
public record DetectorLimits(long maxPoolSlots, long maxTableEntries, int maxLiveRequests, PoolBudget budget) {
    /** 2^27 slots: 512 MiB of pool model; well above any GPU's KV pool of 2026 (a few million tokens). */
    public static final long DEFAULT_MAX_POOL_SLOTS = 1L << 27;
    /** 2^24 logical pages: about 208 MiB of page tables. */
    public static final long DEFAULT_MAX_TABLE_ENTRIES = 1L << 24;
    /** The most tenants one boot may name: a node serves thousands of customers, not millions. */
    public static final int MAX_TENANTS = 1 << 16;
    /** 2^18: a node runs hundreds of requests at once, not hundreds of thousands. */
    public static final int DEFAULT_MAX_LIVE_REQUESTS = 1 << 18;

    /** The defaults, with a budget of what the heap has room for. */
    public static final DetectorLimits DEFAULT = new DetectorLimits(DEFAULT_MAX_POOL_SLOTS, DEFAULT_MAX_TABLE_ENTRIES,
            DEFAULT_MAX_LIVE_REQUESTS, PoolBudget.HEAP);

    public DetectorLimits {
        if (maxPoolSlots < 1 || maxPoolSlots > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("max pool slots must be 1 to 2^31 - 1, got " + maxPoolSlots);
        }
        if (maxTableEntries < 1024) {
            throw new IllegalArgumentException("max table entries must be at least 1024, got " + maxTableEntries);
        }
        if (maxLiveRequests < 16) {
            throw new IllegalArgumentException("max live requests must be at least 16, got " + maxLiveRequests);
        }
        if (budget == null) {
            throw new IllegalArgumentException("a budget is required");
        }
    }

    /** These limits with another budget. */
    public DetectorLimits withBudget(PoolBudget other) {
        return new DetectorLimits(maxPoolSlots, maxTableEntries, maxLiveRequests, other);
    }

    /** What a detector's pool costs, in bytes (see {@link StreamDetector#poolBytes()}). */
    public static long poolBytes(long slots, long pages) {
        return 4 * slots + 16 * pages + 64;
    }

    /**
     * Where the memory of a detector's pool comes from. {@link #allocate} runs the allocation only when it fits, so
     * that concurrent boots cannot both take the last of it.
     */
    public interface PoolBudget {
        /**
         * Runs {@code allocation}, which takes about {@code bytes}, if they fit; returns null when it ran, else why
         * not (a sentence for the finding).
         */
        String allocate(long bytes, Runnable allocation);

        /**
         * Fits when the heap, less what is in use and a margin of a quarter of it, has room. What is in use counts
         * garbage not yet collected: before refusing (a boot not judged), the heap is collected once and looked at
         * again; a {@code CONFIG} comes once per boot, so that cost is rare.
         */
        PoolBudget HEAP = new PoolBudget() {
            @Override
            public synchronized String allocate(long bytes, Runnable allocation) {
                long free = spare();
                if (bytes > free) {
                    System.gc();
                    free = spare();
                }
                if (bytes > free) {
                    return "its model would take " + mib(bytes) + " MiB and the heap has " + mib(Math.max(0, free))
                            + " MiB to spare";
                }
                allocation.run();
                return null;
            }
        };
    }

    private static long spare() {
        Runtime rt = Runtime.getRuntime();
        return rt.maxMemory() - (rt.totalMemory() - rt.freeMemory()) - rt.maxMemory() / 4;
    }

    /**
     * A pool that fits in the budget but not now (other detectors, garbage not yet collected): the record is not
     * taken now, rather than its boot not judged for a moment's memory. The intake answers 503 (HTTP) or waits
     * (Kafka), and the record comes again.
     */
    public static final class NoRoomNow extends RuntimeException {
        public NoRoomNow(String message) {
            super(message, null, false, false);
        }
    }

    static long mib(long bytes) {
        return (bytes + (1 << 20) - 1) >> 20;
    }
}
