package app.vigie.compliance.rules;

import java.time.DateTimeException;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.MonthDay;
import java.time.ZoneId;
import java.time.temporal.TemporalAdjusters;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A country's public holidays, read from compliance-rules/holidays.yaml: the days on which a time limit that falls
 * there may move (DORA, Delegated Regulation 2025/301 Art. 5(4)). Nationwide days only, each by a rule
 * ({@link Day}) or, where a State fixes them every year, by the year's list ({@code years}); a year neither covers is
 * not known ({@link #known}).
 */
public record HolidayCalendar(String country, ZoneId zone, String source, String note, List<Day> days,
        Map<Integer, Set<MonthDay>> years) {

    /** Whether this calendar knows the holidays of {@code year}. */
    public boolean known(int year) {
        return !days.isEmpty() || years.containsKey(year);
    }

    public boolean holiday(LocalDate date) {
        Set<MonthDay> listed = years.get(date.getYear());
        if (listed != null && listed.contains(MonthDay.from(date))) {
            return true;
        }
        return days.stream().anyMatch(d -> date.equals(d.on(date.getYear())));
    }

    /** Monday to Friday and not a holiday. */
    public boolean workingDay(LocalDate date) {
        return !weekend(date) && !holiday(date);
    }

    public static boolean weekend(LocalDate date) {
        return date.getDayOfWeek() == DayOfWeek.SATURDAY || date.getDayOfWeek() == DayOfWeek.SUNDAY;
    }

    /**
     * A holiday's rule, in force in the years {@code fromYear} to {@code untilYear} (0: no bound). {@code rule} is
     * one of: {@code MM-DD}; {@code easter+N} or {@code easter-N} (days from Western Easter Sunday);
     * {@code first monday of MM}, {@code last monday of MM} (any weekday); {@code MM-DD if MM-DD is <weekday> else
     * <rule>} (Ireland's St Brigid's Day, the Netherlands' King's Day).
     */
    public record Day(String rule, int fromYear, int untilYear) {
        private static final Pattern FIXED = Pattern.compile("(\\d\\d)-(\\d\\d)");
        private static final Pattern EASTER = Pattern.compile("easter([+-]\\d{1,2})?");
        private static final Pattern NTH = Pattern.compile("(first|last) ([a-z]+) of (\\d\\d)");
        private static final Pattern CHOICE = Pattern.compile("(\\d\\d-\\d\\d) if (\\d\\d-\\d\\d) is ([a-z]+) else (.+)");

        /** Null when the rule does not read; its message otherwise. */
        public static String problem(String rule) {
            try {
                at(rule, 2024);
                return null;
            } catch (DateTimeException e) {
                return "not a day of the year: '" + rule + "'";
            } catch (IllegalArgumentException e) {
                return e.getMessage();
            }
        }

        /** The day in {@code year}, or null when the rule is not in force that year. */
        public LocalDate on(int year) {
            if (fromYear != 0 && year < fromYear || untilYear != 0 && year > untilYear) {
                return null;
            }
            return at(rule, year);
        }

        private static LocalDate at(String rule, int year) {
            Matcher m = FIXED.matcher(rule);
            if (m.matches()) {
                return LocalDate.of(year, Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)));
            }
            m = EASTER.matcher(rule);
            if (m.matches()) {
                return easter(year).plusDays(m.group(1) == null ? 0 : Integer.parseInt(m.group(1)));
            }
            m = NTH.matcher(rule);
            if (m.matches()) {
                LocalDate first = LocalDate.of(year, Integer.parseInt(m.group(3)), 1);
                DayOfWeek day = weekday(m.group(2));
                return first.with(m.group(1).equals("first") ? TemporalAdjusters.firstInMonth(day)
                        : TemporalAdjusters.lastInMonth(day));
            }
            m = CHOICE.matcher(rule);
            if (m.matches()) {
                LocalDate tested = at(m.group(2), year);
                return tested.getDayOfWeek() == weekday(m.group(3)) ? at(m.group(1), year) : at(m.group(4), year);
            }
            throw new IllegalArgumentException("not a holiday rule: '" + rule + "' (MM-DD, easter+N, first monday "
                    + "of MM, last monday of MM, or MM-DD if MM-DD is friday else <rule>)");
        }

        private static DayOfWeek weekday(String name) {
            try {
                return DayOfWeek.valueOf(name.toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("not a day of the week: '" + name + "'");
            }
        }
    }

    /** Western (Gregorian) Easter Sunday: the anonymous Gregorian algorithm (Meeus/Jones/Butcher). */
    public static LocalDate easter(int year) {
        int a = year % 19;
        int b = year / 100;
        int c = year % 100;
        int d = b / 4;
        int e = b % 4;
        int f = (b + 8) / 25;
        int g = (b - f + 1) / 3;
        int h = (19 * a + b - d - g + 15) % 30;
        int i = c / 4;
        int k = c % 4;
        int l = (32 + 2 * e + 2 * i - h - k) % 7;
        int m = (a + 11 * h + 22 * l) / 451;
        int month = (h + l - 7 * m + 114) / 31;
        int day = (h + l - 7 * m + 114) % 31 + 1;
        return LocalDate.of(year, month, day);
    }
}
