package app.vigie.detection.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Positions keeps runs; its evidence text and counts must equal those of the plain list of every value added. */
class PositionsTest {

    @Test
    void runsGiveTheTextOfTheirValues() {
        Positions p = new Positions();
        p.addRun(32, 48);
        p.add(48);
        p.add(3);
        p.add(3);
        p.addRun(0, 3);
        p.add(100);
        assertEquals("0-3, 32-48, 100", p.ranges(10));
        assertEquals(16 + 1 + 2 + 3 + 1, p.size());
        assertEquals("0-3 and 2 more ranges", p.ranges(1));
    }

    @Test
    void equalsThePlainListOnRandomAdditions() {
        Random random = new Random(20261204);
        for (int round = 0; round < 2_000; round++) {
            Positions p = new Positions();
            List<Integer> plain = new ArrayList<>();
            int n = random.nextInt(30);
            int cursor = random.nextInt(50);
            for (int i = 0; i < n; i++) {
                // mostly ascending, sometimes back or repeating, as pages and positions come in an ATTACH
                cursor += random.nextInt(6) - (random.nextInt(5) == 0 ? 8 : 1);
                cursor = Math.max(0, cursor);
                int length = random.nextInt(4) == 0 ? 1 + random.nextInt(20) : 1;
                if (length == 1 && random.nextBoolean()) {
                    p.add(cursor);
                } else {
                    p.addRun(cursor, cursor + length);
                }
                for (int v = cursor; v < cursor + length; v++) {
                    plain.add(v);
                }
            }
            int max = 1 + random.nextInt(5);
            assertEquals(plainRanges(plain, max), p.ranges(max), "round " + round + ": " + plain);
            assertEquals(plain.size(), p.size(), "round " + round);
        }
    }

    @Test
    void ascendingRunsBecomeTheRangesOfTheirValues() {
        Random random = new Random(7);
        for (int round = 0; round < 1_000; round++) {
            Positions p = new Positions();
            List<Integer> plain = new ArrayList<>();
            int cursor = random.nextInt(10);
            for (int i = random.nextInt(20); i > 0; i--) {
                int length = 1 + random.nextInt(8);
                p.addRun(cursor, cursor + length);
                for (int v = cursor; v < cursor + length; v++) {
                    plain.add(v);
                }
                cursor += random.nextInt(length + 3);  // never before the last run's start: overlapping, adjacent or apart
            }
            Ranges expected = Ranges.of(plain.stream().flatMapToInt(v -> IntStream.of(v, v + 1))
                    .toArray());
            assertEquals(expected, Ranges.ofAscending(p), "round " + round + ": " + plain);
        }
    }

    /** The text the list of single values gave before runs: sorted, adjacent or equal values merged. */
    private static String plainRanges(List<Integer> values, int max) {
        int[] sorted = values.stream().mapToInt(Integer::intValue).toArray();
        Arrays.sort(sorted);
        StringBuilder b = new StringBuilder();
        int shown = 0;
        int total = 0;
        int i = 0;
        while (i < sorted.length) {
            int j = i;
            while (j + 1 < sorted.length && sorted[j + 1] <= sorted[j] + 1) {
                j++;
            }
            total++;
            if (shown < max) {
                b.append(shown == 0 ? "" : ", ").append(sorted[i]);
                if (sorted[j] != sorted[i]) {
                    b.append('-').append(sorted[j]);
                }
                shown++;
            }
            i = j + 1;
        }
        if (total > shown) {
            b.append(" and ").append(total - shown).append(" more ranges");
        }
        return b.toString();
    }
}
