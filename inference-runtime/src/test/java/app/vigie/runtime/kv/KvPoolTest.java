package app.vigie.runtime.kv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

import app.vigie.runtime.log.PageRun;

class KvPoolTest {

    @Test
    void theMostRecentlyFreedPageIsHandedOutFirstWithItsContent() {
        KvPool pool = new KvPool(4, 8);
        int[] a = pool.allocate(3, 1);
        assertThat(a).containsExactly(0, 1, 2);
        pool.write(1, 0, 42, 1);
        pool.free(2);
        pool.free(1);
        assertThat(pool.freePages()).isEqualTo(7);
        int[] b = pool.allocate(2, 2);
        assertThat(b).as("last freed first").containsExactly(1, 2);
        assertThat(pool.token(1, 0)).as("content survives free and allocation").isEqualTo(42);
        assertThat(pool.writer(1, 0)).isEqualTo(1);
        assertThat(pool.owner(1)).isEqualTo(2);
        assertThat(pool.generation(1)).isEqualTo(2);
        assertThat(pool.allocate(7, 3)).as("only 5 free").isNull();
        assertThat(pool.freePages()).isEqualTo(5);
        assertThatThrownBy(() -> pool.free(7)).hasMessageContaining("not allocated");
    }

    @Test
    void theTagCheckPassesOnlyPagesTheReaderWroteSinceItGotThem() {
        KvPool pool = new KvPool(4, 2);
        pool.allocate(1, 1);
        for (int s = 0; s < 4; s++) {
            pool.write(0, s, 10 + s, 1);
        }
        assertThat(pool.tagAllows(0, 1, 4)).isTrue();
        pool.free(0);
        pool.allocate(1, 2);
        assertThat(pool.tagAllows(0, 2, 1)).as("reused, not written: stale").isFalse();
        pool.write(0, 0, 99, 2);
        assertThat(pool.tagAllows(0, 2, 1)).isTrue();
        assertThat(pool.tagAllows(0, 2, 2)).as("slot 1 still holds request 1's token").isFalse();
        assertThat(pool.tagAllows(0, 1, 1)).as("not the owner").isFalse();
    }

    @Test
    void pagesAreTaggedWithTheirOwnersTenantWhichStaysWithTheContentUntilTheNextAllocation() {
        KvPool pool = new KvPool(4, 3);
        int[] a = pool.allocate(2, 10, 7);
        assertThat(pool.tenant(a[0])).isEqualTo(7);
        assertThat(pool.tenant(a[1])).isEqualTo(7);
        assertThat(pool.tenant(2)).as("never allocated").isEqualTo(KvPool.NONE);
        pool.release(a[1]); // a prefix cache keeps it
        assertThat(pool.owner(a[1])).isEqualTo(KvPool.NONE);
        assertThat(pool.tenant(a[1])).as("the content is still tenant 7's").isEqualTo(7);
        pool.recycle(a[1]);
        int[] b = pool.allocate(1, 11, 8);
        assertThat(b).containsExactly(a[1]);
        assertThat(pool.tenant(a[1])).isEqualTo(8);
        KvPool untagged = new KvPool(4, 1, false);
        untagged.allocate(1, 1, 3);
        assertThat(untagged.tenant(0)).as("tags off").isEqualTo(KvPool.NONE);
    }

    @Test
    void pagesBecomeRunsOfConsecutiveNumbers() {
        assertThat(KvPool.runs(new int[] {3, 4, 5, 9, 1, 2}, 0, 6))
                .containsExactly(new PageRun(3, 3), new PageRun(9, 1), new PageRun(1, 2));
        assertThat(KvPool.runs(new int[] {3, 4, 5}, 1, 3)).isEqualTo(List.of(new PageRun(4, 2)));
    }

    @Test
    void fingerprintsAreKeyedChainedAndDeterministic() {
        byte[] key = "k".getBytes(StandardCharsets.UTF_8);
        Fingerprints f = new Fingerprints(key, 4);
        int[] tokens = {1, 2, 3, 4};
        byte[] first = f.next(null, tokens, 0, 4);
        assertThat(Fingerprints.hex(first)).hasSize(32).matches("[0-9a-f]+");
        assertThat(f.next(null, tokens, 0, 4)).isEqualTo(first);
        assertThat(f.next(first, tokens, 0, 4)).as("the same tokens after another page").isNotEqualTo(first);
        assertThat(f.next(null, new int[] {1, 2, 3, 5}, 0, 4)).isNotEqualTo(first);
        assertThat(new Fingerprints("other".getBytes(StandardCharsets.UTF_8), 4).next(null, tokens, 0, 4))
                .as("another key").isNotEqualTo(first);
    }
}
