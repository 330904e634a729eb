package app.vigie.runtime.engine;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import app.vigie.runtime.kv.KvPool;

/** What the cache could give back, kept as entries are put, read, released and evicted (a scheduler asks each step). */
class PrefixCacheTest {

    private static int count(PrefixCache c, KvPool pool, boolean stale) {
        int[] pages = pool.allocate(3, 1);
        for (int i = 0; i < 3; i++) {
            pool.release(pages[i]);
            c.put(100 + i, pages[i], pool.generation(pages[i]), 1);
        }
        assertThat(c.evictable()).isEqualTo(3);
        PrefixCache.Entry read = c.get(100);
        c.acquire(read);
        c.acquire(read);
        assertThat(c.evictable()).as("an entry being read cannot be given back").isEqualTo(2);
        assertThat(c.evict(5, pool)).hasSize(2);
        assertThat(c.evictable()).isZero();
        c.release(read);
        assertThat(c.evictable()).as("still read once").isZero();
        c.release(read);
        assertThat(c.evictable()).isEqualTo(1);
        assertThat(c.get(101) != null).as("an evicted entry stays in a stale index").isEqualTo(stale);
        if (stale) {
            // a hit on a stale entry reads a page the cache no longer holds: nothing to give back either way
            PrefixCache.Entry gone = c.get(101);
            c.acquire(gone);
            c.release(gone);
            assertThat(c.evictable()).isEqualTo(1);
        }
        return c.evictable();
    }

    @Test
    void theCountOfPagesItCouldGiveBackFollowsEveryChange() {
        assertThat(count(new PrefixCache(false), new KvPool(4, 8), false)).isEqualTo(1);
        assertThat(count(new PrefixCache(true), new KvPool(4, 8), true)).isEqualTo(1);
    }
}
