package app.vigie.detection.core;

import java.util.Arrays;

/**
 * A list of ints (positions or pages) kept as runs of consecutive values, in the order they were added, with a compact
 * text form for evidence. A value or run that continues (or repeats within) the last run extends it: a leaking ATTACH
 * of thousands of positions from one writer costs one run, not thousands of entries.
 */
final class Positions {
    /** Run i is [starts[i], ends[i]). */
    private int[] starts = new int[4];
    private int[] ends = new int[4];
    private int runs;
    /** Values added, repeats included. */
    private long size;

    void add(int v) {
        addRun(v, v + 1);
    }

    /** Adds the values {@code from} to {@code to - 1}. */
    void addRun(int from, int to) {
        if (to <= from) {
            return;
        }
        size += to - from;
        if (runs > 0 && from >= starts[runs - 1] && from <= ends[runs - 1]) {
            ends[runs - 1] = Math.max(ends[runs - 1], to);
            return;
        }
        if (runs == starts.length) {
            starts = Arrays.copyOf(starts, runs * 2);
            ends = Arrays.copyOf(ends, runs * 2);
        }
        starts[runs] = from;
        ends[runs] = to;
        runs++;
    }

    /** How many values were added, repeats included. */
    long size() {
        return size;
    }

    int runs() {
        return runs;
    }

    int runStart(int i) {
        return starts[i];
    }

    /** The end of run i, exclusive. */
    int runEnd(int i) {
        return ends[i];
    }

    /** The values as ascending ranges, e.g. {@code 0-15, 32, 40-47}; at most {@code max} ranges then a count. */
    String ranges(int max) {
        Integer[] order = new Integer[runs];
        for (int i = 0; i < runs; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Integer.compare(starts[a], starts[b]));
        StringBuilder b = new StringBuilder();
        int shown = 0;
        int total = 0;
        int i = 0;
        while (i < runs) {
            int start = starts[order[i]];
            int end = ends[order[i]];
            int j = i + 1;
            while (j < runs && starts[order[j]] <= end) {
                end = Math.max(end, ends[order[j]]);
                j++;
            }
            total++;
            if (shown < max) {
                b.append(shown == 0 ? "" : ", ").append(start);
                if (end - 1 != start) {
                    b.append('-').append(end - 1);
                }
                shown++;
            }
            i = j;
        }
        if (total > shown) {
            b.append(" and ").append(total - shown).append(" more ranges");
        }
        return b.toString();
    }
}
