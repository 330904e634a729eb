package app.vigie.runtime.engine;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import app.vigie.runtime.kv.KvPool;

/**
 * A prefix cache over full pages: the key of logical page k of a prompt covers the salt and every token up to the
 * end of page k, so a hit on page k means the same tokens behind the same prefix. Finished requests leave their full
 * prompt pages here; when the pool runs short, the least recently used entries give their pages back. With the
 * {@link Fault#STALE_CACHE_INDEX} fault an evicted entry stays in the index, pointing at a page that is reused.
 */
final class PrefixCache {
    /** A cached page: where, which allocation of it, and whether the cache still holds it. */
    static final class Entry {
        final int page;
        final int generation;
        final int origin;
        boolean held = true;
        int readers;

        Entry(int page, int generation, int origin) {
            this.page = page;
            this.generation = generation;
            this.origin = origin;
        }
    }

    private final Map<Long, Entry> index = new LinkedHashMap<>(64, 0.75f, true);
    private final boolean staleIndex;
    private int evictable;

    PrefixCache(boolean staleIndex) {
        this.staleIndex = staleIndex;
    }

    /** Keys of the first {@code pages} full pages of the tokens, under a salt. */
    static long[] keys(long salt, int[] tokens, int pages, int pageSize) {
        long[] keys = new long[pages];
        long h = salt * 0x9E3779B97F4A7C15L + 0x632BE59BD9B4E019L;
        for (int k = 0; k < pages; k++) {
            for (int i = k * pageSize; i < (k + 1) * pageSize; i++) {
                h = (h ^ tokens[i]) * 0xFF51AFD7ED558CCDL;
                h ^= h >>> 33;
            }
            keys[k] = h;
        }
        return keys;
    }

    Entry get(long key) {
        return index.get(key);
    }

    void put(long key, int page, int generation, int origin) {
        Entry e = new Entry(page, generation, origin);
        Entry old = index.put(key, e);
        if (old != null && old.held && old.page != page) {
            throw new IllegalStateException("key cached twice");
        }
        if (old != null && old.held && old.readers == 0) {
            evictable--;
        }
        evictable++;
    }

    /** How many pages {@link #evict} could give back now: held entries nobody reads, counted as they change. */
    int evictable() {
        return evictable;
    }

    /** A request reads the entry's page (a hit). */
    void acquire(Entry e) {
        if (e.held && e.readers == 0) {
            evictable--;
        }
        e.readers++;
    }

    /** A request that read the entry's page is done with it. */
    void release(Entry e) {
        e.readers--;
        if (e.held && e.readers == 0) {
            evictable++;
        }
    }

    /** Gives back up to {@code wanted} pages nobody reads now, least recently used first; returns them. */
    List<Integer> evict(int wanted, KvPool pool) {
        List<Integer> pages = new ArrayList<>();
        Iterator<Map.Entry<Long, Entry>> it = index.entrySet().iterator();
        while (it.hasNext() && pages.size() < wanted) {
            Entry e = it.next().getValue();
            if (!e.held || e.readers > 0) {
                continue;
            }
            e.held = false;
            evictable--;
            if (!staleIndex) {
                it.remove();
            }
            pool.recycle(e.page);
            pages.add(e.page);
        }
        return pages;
    }
}
