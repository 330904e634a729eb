package app.vigie.compliance.plan;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The reminders before a deadline: a step fires at {@code due - offset} ({@code PT24H}: "T-24H") and
 * {@code PT0S} is the deadline itself ("OVERDUE"), for an obligation still open. Steps that would fall before its
 * clock started collapse into the last of them, fired at the start (a 4-hour deadline gets T-6H at its start,
 * then T-1H and OVERDUE, not T-24H too).
 */
public final class Escalations {
    private final List<Duration> offsets;

    /** A step reached: its name, the deadline it counts down to, and when it was due to fire. */
    public record Step(String name, Instant dueAt, Instant fireAt) {
    }

    public Escalations(List<Duration> offsets) {
        for (Duration d : offsets) {
            if (d.isNegative()) {
                throw new IllegalArgumentException("an escalation offset is before a deadline, not after: " + d);
            }
        }
        this.offsets = offsets.stream().distinct().sorted(Comparator.reverseOrder()).toList();
    }

    /** The offsets, latest step last: {@code [PT24H, PT6H, PT1H, PT0S]}. */
    @Override
    public String toString() {
        return offsets.toString();
    }

    public static String name(Duration offset) {
        return offset.isZero() ? "OVERDUE" : "T-" + offset.toString().substring(2).toUpperCase(Locale.ROOT);
    }

    /** The steps reached at {@code now} by an obligation (none when it is done, not required or has no due time). */
    public List<Step> reached(Obligation o, Instant now) {
        return steps(o).stream().filter(s -> !now.isBefore(s.fireAt())).toList();
    }

    /**
     * When the next step of an obligation after {@code now} fires (null: none is left, or it is done, not required or
     * has no due time): the reminder check need not look at it before.
     */
    public Instant next(Obligation o, Instant now) {
        return steps(o).stream().map(Step::fireAt).filter(now::isBefore).min(Comparator.naturalOrder()).orElse(null);
    }

    /** Every step of an obligation still open, in the order they fire. */
    private List<Step> steps(Obligation o) {
        List<Step> out = new ArrayList<>();
        if (!o.open() || o.dueAt() == null) {
            return out;
        }
        Instant start = o.clockStartedAt();
        Step beforeStart = null;
        for (Duration offset : offsets) {
            Instant fireAt = o.dueAt().minus(offset);
            if (start != null && fireAt.isBefore(start)) {
                beforeStart = new Step(name(offset), o.dueAt(), start);
                continue;
            }
            if (beforeStart != null) {
                out.add(beforeStart);
                beforeStart = null;
            }
            out.add(new Step(name(offset), o.dueAt(), fireAt));
        }
        if (beforeStart != null) {
            out.add(beforeStart);
        }
        return out;
    }
}
