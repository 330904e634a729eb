package app.vigie.detection.core;

import java.util.Arrays;

/** A growable list of ints (positions or pages), with a compact text form for evidence. */
final class Positions {
    private int[] values = new int[16];
    private int size;

    void add(int v) {
        if (size == values.length) {
            values = Arrays.copyOf(values, size * 2);
        }
        values[size++] = v;
    }

    int size() {
        return size;
    }

    int get(int i) {
        return values[i];
    }

    /** Ascending values as ranges, e.g. {@code 0-15, 32, 40-47}; at most {@code max} ranges then a count. */
    String ranges(int max) {
        int[] sorted = Arrays.copyOf(values, size);
        Arrays.sort(sorted);
        StringBuilder b = new StringBuilder();
        int shown = 0;
        int i = 0;
        int total = 0;
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
