package app.vigie.detection.model;

import java.util.List;

/**
 * The random choices of the arrival order of a log, read modulo the log's size by
 * {@link RandomLogs#deliveries}; every list empty and every int 0 is "everything in order, one batch, final flush".
 *
 * @param delays per log index: 0..24 keeps its place, 25..39 moves it later by 3*(d-24) places, 40 to the end
 * @param batchSizes sizes of the successive batches, cyclic (empty: one batch between flushes)
 * @param duplicates each re-delivers record {@code d % n} once more at delivery position {@code (d / n) % (len+1)}
 * @param withheld records {@code w % n} never delivered (a gap), unless re-delivered as late records
 * @param midFlush 0..12: no flush in the middle; 13..24: a flush (midFlush-12) places after the first withheld
 *        record's place (or at (midFlush-12)/13 of the log without one)
 * @param late how many withheld records arrive after the middle flush anyway
 */
public record ArrivalPlan(List<Integer> delays, List<Integer> batchSizes, List<Integer> duplicates,
        List<Integer> withheld, int midFlush, int late) {

    /** Everything in order, one batch, then the final flush. */
    public static ArrivalPlan inOrder() {
        return new ArrivalPlan(List.of(), List.of(), List.of(), List.of(), 0, 0);
    }
}
