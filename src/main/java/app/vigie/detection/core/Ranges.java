package app.vigie.detection.core;

import java.util.Arrays;

/**
 * A set of logical positions as sorted, disjoint, non-adjacent half-open ranges {@code [start, end)}, kept flat in
 * one {@code int[]} ({@code start0, end0, start1, end1, ...}). Immutable. An exposure's positions are one of these:
 * the union over every stream and every {@code ATTACH} of the reader (spec, "Clarifications"), so that its size is
 * the exposure's {@code tokens}.
 */
public final class Ranges {
    public static final Ranges EMPTY = new Ranges(new int[0]);

    private final int[] bounds;

    private Ranges(int[] bounds) {
        this.bounds = bounds;
    }

    /**
     * Ranges from flat bounds as stored ({@code start0, end0, ...}); they are checked, and normalised when unsorted,
     * overlapping or adjacent.
     */
    public static Ranges of(int... bounds) {
        if (bounds.length % 2 != 0) {
            throw new IllegalArgumentException("ranges need an even number of bounds, got " + bounds.length);
        }
        boolean normal = true;
        for (int i = 0; i < bounds.length; i += 2) {
            if (bounds[i] < 0 || bounds[i] >= bounds[i + 1]) {
                throw new IllegalArgumentException("not a range: [" + bounds[i] + ", " + bounds[i + 1] + ")");
            }
            normal &= i == 0 || bounds[i] > bounds[i - 1];
        }
        if (normal) {
            return bounds.length == 0 ? EMPTY : new Ranges(bounds.clone());
        }
        // unsorted, overlapping or adjacent: sort by start, then merge in one pass
        long[] packed = new long[bounds.length / 2];
        for (int i = 0; i < packed.length; i++) {
            packed[i] = (long) bounds[2 * i] << 32 | bounds[2 * i + 1];
        }
        Arrays.sort(packed);
        int[] out = new int[bounds.length];
        int k = 0;
        for (long p : packed) {
            int s = (int) (p >>> 32);
            int e = (int) p;
            if (k > 0 && s <= out[k - 1]) {
                out[k - 1] = Math.max(out[k - 1], e);
            } else {
                out[k++] = s;
                out[k++] = e;
            }
        }
        return new Ranges(Arrays.copyOf(out, k));
    }

    /** The positions of an ascending list (duplicates allowed). */
    static Ranges ofAscending(Positions ascending) {
        int n = ascending.runs();
        if (n == 0) {
            return EMPTY;
        }
        int[] out = new int[8];
        int k = 0;
        int start = ascending.runStart(0);
        int end = ascending.runEnd(0);
        for (int i = 1; i < n; i++) {
            int s = ascending.runStart(i);
            if (s < start) {
                throw new IllegalArgumentException("positions are not ascending at " + s);
            }
            if (s <= end) {
                end = Math.max(end, ascending.runEnd(i));
                continue;
            }
            if (k + 2 > out.length) {
                out = Arrays.copyOf(out, out.length * 2);
            }
            out[k++] = start;
            out[k++] = end;
            start = s;
            end = ascending.runEnd(i);
        }
        if (k + 2 > out.length) {
            out = Arrays.copyOf(out, k + 2);
        }
        out[k++] = start;
        out[k++] = end;
        return new Ranges(Arrays.copyOf(out, k));
    }

    /** The union of both, in one pass. */
    public Ranges union(Ranges o) {
        if (o.bounds.length == 0 || o == this) {
            return this;
        }
        if (bounds.length == 0) {
            return o;
        }
        int[] a = bounds;
        int[] b = o.bounds;
        int[] out = new int[a.length + b.length];
        int i = 0;
        int j = 0;
        int k = 0;
        while (i < a.length || j < b.length) {
            int s;
            int e;
            if (j >= b.length || i < a.length && a[i] <= b[j]) {
                s = a[i];
                e = a[i + 1];
                i += 2;
            } else {
                s = b[j];
                e = b[j + 1];
                j += 2;
            }
            if (k > 0 && s <= out[k - 1]) {
                out[k - 1] = Math.max(out[k - 1], e);
            } else {
                out[k++] = s;
                out[k++] = e;
            }
        }
        return k == a.length && Arrays.equals(out, 0, k, a, 0, k) ? this : new Ranges(Arrays.copyOf(out, k));
    }

    /** How many positions. */
    public int size() {
        long n = 0;
        for (int i = 0; i < bounds.length; i += 2) {
            n += bounds[i + 1] - bounds[i];
        }
        return (int) n;
    }

    public boolean isEmpty() {
        return bounds.length == 0;
    }

    /** The flat bounds, a copy: {@code start0, end0, ...} (ends exclusive). */
    public int[] bounds() {
        return bounds.clone();
    }

    /** How many ranges. */
    public int count() {
        return bounds.length / 2;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Ranges r && Arrays.equals(bounds, r.bounds);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bounds);
    }

    /** E.g. {@code 0-15, 32, 40-47} (inclusive, as evidence is written). */
    @Override
    public String toString() {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < bounds.length; i += 2) {
            b.append(i == 0 ? "" : ", ").append(bounds[i]);
            if (bounds[i + 1] - 1 != bounds[i]) {
                b.append('-').append(bounds[i + 1] - 1);
            }
        }
        return b.toString();
    }
}
