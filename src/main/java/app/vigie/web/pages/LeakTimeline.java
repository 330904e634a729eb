package app.vigie.web.pages;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import app.vigie.incident.IncidentQueries;
import app.vigie.notice.When;

/**
 * The incident page's picture of leaking responses over time, drawn on the server as an SVG: the responses that
 * carried another customer's tokens, per period, delivered (dark) over contained or not known yet (light), from the
 * first exposure to the detection (or the last event shown, when later), the detection and each measure marked. The
 * responses that may have carried another customer's tokens (spec 1.3, amendment 3: a possible exposure only) are
 * stacked on top in a colour of their own, and counted apart.
 */
final class LeakTimeline {
    static final int BUCKETS = 48;
    static final int LEFT = 48;
    static final int TOP = 16;
    static final int PLOT_WIDTH = 720;
    static final int PLOT_HEIGHT = 140;
    /** The room past the plot's right edge where a time far after the leaks is marked, beyond a break. */
    static final int BREAK = 40;

    private LeakTimeline() {
    }

    /** A time marked on the picture: {@code kind} first_exposure, detection or measure; its x and its words. */
    record Mark(Instant at, String kind, String text) {
    }

    /**
     * The picture of the leaking responses (one {@code Leak} each), each at the first time it read another customer's
     * tokens.
     */
    static IncidentPage.Picture of(List<IncidentQueries.Leak> leaks, List<Mark> marks, ZoneId zone, Locale locale,
            CockpitMessages ck) {
        if (leaks.isEmpty()) {
            return null;
        }
        Instant firstLeak = leaks.stream().map(IncidentQueries.Leak::firstSeenAt).min(Instant::compareTo).orElseThrow();
        // a time marked before the first leak (the first exposure, a read of the same customer's tokens) opens it
        Instant start = marks.stream().map(Mark::at).filter(t -> t != null && t.isBefore(firstLeak))
                .min(Instant::compareTo).orElse(firstLeak);
        Instant last = leaks.stream().map(IncidentQueries.Leak::firstSeenAt).max(Instant::compareTo).orElseThrow();
        // the period drawn runs to the detection and the measures, unless they come so long after the last leak
        // (more than the leaks' own span, and more than a day) that the leaks would shrink to one bar: those are
        // then marked past a break at the right
        Instant end = end(start, last, marks);
        boolean broken = marks.stream().anyMatch(m -> m.at() != null && m.at().isAfter(end));
        long span = Math.max(Duration.between(start, end).toMillis() + 1, BUCKETS);
        double perBucket = (double) span / BUCKETS;
        int[] dark = new int[BUCKETS];
        int[] light = new int[BUCKETS];
        int[] maybe = new int[BUCKETS];
        for (IncidentQueries.Leak r : leaks) {
            int b = bucket(r.firstSeenAt(), start, perBucket);
            if (r.possible()) {
                maybe[b]++;
            } else if (r.delivered()) {
                dark[b]++;
            } else {
                light[b]++;
            }
        }
        int max = 1;
        for (int b = 0; b < BUCKETS; b++) {
            max = Math.max(max, dark[b] + light[b] + maybe[b]);
        }
        double barWidth = (double) PLOT_WIDTH / BUCKETS;
        List<IncidentPage.Bar> bars = new ArrayList<>();
        for (int b = 0; b < BUCKETS; b++) {
            int n = dark[b] + light[b];
            if (n + maybe[b] == 0) {
                continue;
            }
            int x = LEFT + (int) Math.round(b * barWidth);
            int hDark = (int) Math.round((double) dark[b] * PLOT_HEIGHT / max);
            int hLight = (int) Math.round((double) light[b] * PLOT_HEIGHT / max);
            int hMaybe = (int) Math.round((double) maybe[b] * PLOT_HEIGHT / max);
            Instant from = start.plusMillis(Math.round(b * perBucket));
            Instant to = start.plusMillis(Math.round((b + 1) * perBucket));
            String title = ck.happened_bucket(When.of(from, zone, locale).local(), When.of(to, zone, locale).local(),
                    n) + (maybe[b] == 0 ? "" : " · " + ck.happened_possible_count(maybe[b]));
            bars.add(new IncidentPage.Bar(x, Math.max(1, (int) Math.floor(barWidth) - 1), TOP + PLOT_HEIGHT - hDark,
                    hDark, TOP + PLOT_HEIGHT - hDark - hLight, hLight, TOP + PLOT_HEIGHT - hDark - hLight - hMaybe,
                    hMaybe, title));
        }
        List<IncidentPage.Marker> markers = new ArrayList<>();
        for (Mark m : marks) {
            if (m.at() == null || m.at().isBefore(start)) {
                continue;
            }
            int x = m.at().isAfter(end) ? LEFT + PLOT_WIDTH + BREAK
                    : LEFT + (int) Math.round(Math.min(PLOT_WIDTH, Duration.between(start, m.at()).toMillis()
                            / perBucket * barWidth));
            markers.add(new IncidentPage.Marker(x, m.kind(), m.text() + " · " + When.of(m.at(), zone, locale)
                    .local()));
        }
        int delivereds = 0;
        for (int d : dark) {
            delivereds += d;
        }
        int possible = 0;
        for (int m : maybe) {
            possible += m;
        }
        // short labels under the axis, with their offset; with the seconds when the period is shorter than a day
        DateTimeFormatter label = DateTimeFormatter.ofPattern(Duration.between(start, end)
                .compareTo(Duration.ofDays(1)) < 0 ? "d MMM yyyy HH:mm:ss xxx" : "d MMM yyyy HH:mm xxx", locale)
                .withZone(zone);
        return new IncidentPage.Picture(LEFT + PLOT_WIDTH + (broken ? BREAK + 16 : 16), TOP + PLOT_HEIGHT + 40,
                LEFT, TOP, PLOT_WIDTH, PLOT_HEIGHT, max, bars, markers, When.of(start, zone, locale),
                When.of(end, zone, locale), label.format(start), label.format(end), broken, leaks.size() - possible,
                delivereds, possible);
    }

    /** Whether {@code at} is so long after the leaks that drawing up to it would crush them into one bar. */
    private static boolean far(Instant start, Instant last, Instant at) {
        Duration after = Duration.between(last, at);
        return after.compareTo(Duration.ofDays(1)) > 0 && after.compareTo(Duration.between(start, last)) > 0;
    }

    private static Instant end(Instant start, Instant last, List<Mark> marks) {
        Instant end = last;
        for (Mark m : marks) {
            if (m.at() != null && m.at().isAfter(end) && !far(start, last, m.at())) {
                end = m.at();
            }
        }
        return end;
    }

    private static int bucket(Instant at, Instant start, double perBucket) {
        return (int) Math.min(BUCKETS - 1, Math.max(0, Duration.between(start, at).toMillis() / perBucket));
    }
}
