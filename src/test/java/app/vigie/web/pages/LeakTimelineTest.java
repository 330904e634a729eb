package app.vigie.web.pages;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.junit.jupiter.api.Test;

import app.vigie.incident.ExposureModel;
import app.vigie.incident.ExposureView;

/**
 * The picture of leaking responses: every leaking response in one bar, delivered apart from contained, reads of the
 * same customer's tokens left out; the detection drawn inside the period when it follows soon, past a break when it
 * comes so late that the leaks would shrink to one bar; the periods named with their offset across a DST change.
 */
class LeakTimelineTest {
    private static final ZoneId PARIS = ZoneId.of("Europe/Paris");

    /**
     * The words, outside the container: a bucket's title as the English bundle says it, any other word its key (a
     * plain proxy: the picture only composes the bucket titles).
     */
    static final CockpitMessages WORDS = (CockpitMessages) Proxy.newProxyInstance(
            CockpitMessages.class.getClassLoader(), new Class<?>[] {CockpitMessages.class},
            (proxy, method, args) -> method.getName().equals("happened_bucket")
                    ? args[2] + " from " + args[0] + " to " + args[1]
                    : method.getName().equals("happened_possible_count") ? args[0] + " possible"
                    : args == null ? method.getName() : String.valueOf(args[0]));

    private static ExposureView leak(String reader, Instant at, Boolean delivered) {
        return new ExposureView("CROSS_TENANT", "acme", "v-" + reader, "globex", reader, 8, at, delivered);
    }

    /**
     * Spec 1.3, amendment 3: a response that may have carried another customer's tokens (a possible exposure only) is
     * stacked on top in its own colour and counted apart; one with a certain exposure too is a leak like the others.
     */
    @Test
    void aPossibleLeakIsStackedApartAndCountedApart() {
        Instant t = Instant.parse("2026-03-10T08:00:00Z");
        List<ExposureView> exposures = new ArrayList<>();
        exposures.add(leak("r1", t, true));
        exposures.add(new ExposureView("CROSS_TENANT", "acme", "v-r2", "globex", "r2", 8, t, true, true));
        exposures.add(new ExposureView("CROSS_TENANT", "acme", "w-r1", "globex", "r1", 8, t, true, true));
        IncidentPage.Picture p = LeakTimeline.of(ExposureModel.leaks(exposures), List.of(), PARIS, Locale.ENGLISH,
                WORDS);
        assertThat(p.responses()).isEqualTo(1);
        assertThat(p.delivered()).isEqualTo(1);
        assertThat(p.possible()).isEqualTo(1);
        assertThat(p.bars()).singleElement().satisfies(b -> {
            assertThat(b.darkHeight()).isEqualTo(b.possibleHeight()).isPositive();
            assertThat(b.possibleY() + b.possibleHeight()).isEqualTo(b.lightY());
            assertThat(b.title()).isEqualTo("1 from " + b.title().split(" from ")[1].split(" · ")[0] + " · 1 possible");
        });
    }

    @Test
    void everyLeakingResponseIsInOneBarDeliveredApartFromContained() {
        Instant t = Instant.parse("2026-03-10T08:00:00Z");
        List<ExposureView> exposures = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            exposures.add(leak("r" + i, t.plus(Duration.ofMinutes(i * 7L)), i % 4 == 0 ? null : i % 2 == 0));
            // a second read by the same response: still one response
            exposures.add(leak("r" + i, t.plus(Duration.ofMinutes(i * 7L + 1)), i % 4 == 0 ? null : i % 2 == 0));
        }
        exposures.add(new ExposureView("INTRA_TENANT", "acme", "a1", "acme", "a2", 8, t, true));
        IncidentPage.Picture p = LeakTimeline.of(ExposureModel.leaks(exposures), List.of(new LeakTimeline.Mark(t.plus(Duration
                .ofHours(12)), "detection", "detection")), PARIS, Locale.ENGLISH, WORDS);
        assertThat(p.responses()).isEqualTo(100);
        assertThat(p.delivered()).isEqualTo(25);  // i odd is not delivered; i % 4 == 2 delivered; i % 4 == 0 unknown
        int counted = p.bars().stream().mapToInt(b -> Integer.parseInt(b.title().split(" ")[0])).sum();
        assertThat(counted).isEqualTo(100);
        assertThat(p.bars()).allSatisfy(b -> {
            assertThat(b.darkHeight() + b.lightHeight()).isPositive().isLessThanOrEqualTo(p.plotHeight());
            assertThat(b.x()).isBetween(p.left(), p.right());
        });
        // detected 12 h after the first leak, within a day of the last: inside the period drawn, at its end
        assertThat(p.broken()).isFalse();
        assertThat(p.markers()).singleElement().satisfies(m -> assertThat(m.x()).isEqualTo(p.right()));
    }

    @Test
    void aDetectionMonthsLaterStandsPastABreakAndTheLeaksKeepTheirWidth() {
        Instant t = Instant.parse("2026-08-27T09:00:00Z");
        List<ExposureView> exposures = List.of(leak("a", t, true), leak("b", t.plus(Duration.ofHours(2)), true));
        Instant detected = Instant.parse("2026-12-05T02:33:00Z");
        IncidentPage.Picture p = LeakTimeline.of(ExposureModel.leaks(exposures), List.of(
                new LeakTimeline.Mark(t, "first_exposure", "first exposure"),
                new LeakTimeline.Mark(detected, "detection", "detection")), PARIS, Locale.ENGLISH, WORDS);
        assertThat(p.broken()).isTrue();
        assertThat(p.bars()).hasSize(2);
        assertThat(p.bars().get(0).x()).isEqualTo(p.left());
        assertThat(p.bars().get(1).x()).isGreaterThan(p.right() - 20);  // the last leak at the period's end
        assertThat(p.markers()).extracting(IncidentPage.Marker::kind).containsExactly("first_exposure", "detection");
        assertThat(p.markers().get(1).x()).isGreaterThan(p.right()).isLessThan(p.width());
        assertThat(p.markers().get(1).title()).contains("2026").contains("detection");
    }

    @Test
    void periodsAcrossTheAutumnChangeAreNamedWithTheirOffset() {
        // 02:30 in Paris twice: 00:30 UTC (summer time, +02:00) and 01:30 UTC (winter time, +01:00)
        Instant summer = Instant.parse("2026-10-25T00:30:00Z");
        Instant winter = Instant.parse("2026-10-25T01:30:00Z");
        IncidentPage.Picture p = LeakTimeline.of(ExposureModel.leaks(List.of(leak("a", summer, true), leak("b", winter, false))),
                List.of(), PARIS, Locale.ENGLISH, WORDS);
        assertThat(p.bars()).hasSize(2);
        assertThat(p.bars().get(0).title()).contains("+02:00");
        assertThat(p.bars().get(1).title()).contains("+01:00");
        assertThat(p.bars().get(0).darkHeight()).isPositive();
        assertThat(p.bars().get(1).darkHeight()).isZero();
        assertThat(p.bars().get(1).lightHeight()).isPositive();
    }

    @Test
    void noLeakOfAnotherCustomersTokensNoPicture() {
        Instant t = Instant.parse("2026-03-10T08:00:00Z");
        assertThat(LeakTimeline.of(ExposureModel.leaks(List.of(new ExposureView("INTRA_TENANT", "acme", "a1", "acme",
                "a2", 8, t, true))),
                List.of(), PARIS, Locale.ENGLISH, WORDS)).isNull();
    }
}
