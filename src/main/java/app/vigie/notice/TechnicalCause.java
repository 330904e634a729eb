package app.vigie.notice;

import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.FormatStyle;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

import app.vigie.detection.core.Rule;
import app.vigie.rootcause.core.Hint;
import app.vigie.rootcause.core.HintMatcher;

/**
 * The known causes an incident's findings match (root-causes/), in one language, for the incident page and the incident
 * report: each with the findings that support it, what happened, the checks that would have prevented it and public
 * references; and the findings no known cause accounts for. Hints, not proof: the documents say so.
 */
public record TechnicalCause(List<Cause> causes, List<Support> unaccounted, String catalogueVersion) {

    /**
     * One matched hint. {@code examples}: the earliest subjects (requests, or stream@boot) it was seen on;
     * {@code more}: how many others.
     */
    public record Cause(String id, String name, String what, long subjects, List<Support> support,
            List<String> examples, long more, When firstSeen, List<String> prevention, List<Reference> references) {
    }

    /** Findings of one rule: its name for a person, its words, how many. */
    public record Support(String rule, String name, String text, long count) {
    }

    /**
     * A public reference; {@code title} is quoted as written (English), null in documents of another language;
     * {@code status} says what it is and its state, {@code since} the date of its first post (null: not known).
     */
    public record Reference(String ref, String url, String engine, String status, String since, String title,
            String shows) {
    }

    public boolean isEmpty() {
        return causes.isEmpty() && unaccounted.isEmpty();
    }

    /**
     * In {@code language}: {@code ruleName} names a finding rule for a person (the page's short names, or the
     * documents' words).
     */
    public static TechnicalCause of(HintMatcher.Result result, String catalogueVersion, String language, ZoneId zone,
            Locale locale, Function<String, String> ruleName, Words words) {
        DateTimeFormatter day = DateTimeFormatter.ofLocalizedDate(FormatStyle.LONG).withLocale(locale);
        List<Cause> causes = result.matches().stream().map(m -> {
            Hint h = m.hint();
            List<Support> support = m.findings().entrySet().stream()
                    .sorted(Map.Entry.comparingByKey())
                    .map(e -> support(e.getKey().name(), e.getValue(), language, ruleName, words)).toList();
            return new Cause(h.id(), h.name().get(language), h.cause().get(language), m.subjects(), support,
                    m.examples().stream().map(HintMatcher.Example::subject).toList(),
                    m.subjects() - m.examples().size(), When.of(m.firstSeen(), zone, locale),
                    h.prevention().stream().map(c -> c.text().get(language)).toList(),
                    h.references().stream().map(r -> new Reference(r.ref(), r.url(), r.engine(),
                            words.of(language, "reference", r.kind() + "_" + r.state()),
                            r.date() == null ? null : day.format(r.date()),
                            language.equals("en") ? r.title() : null, r.shows().get(language))).toList());
        }).toList();
        List<Support> unaccounted = result.unaccounted().entrySet().stream()
                .sorted(Map.Entry.comparingByKey((a, b) -> Integer.compare(Rule.orderOf(a), Rule.orderOf(b))))
                .map(e -> support(e.getKey(), e.getValue(), language, ruleName, words)).toList();
        return new TechnicalCause(causes, unaccounted, catalogueVersion);
    }

    private static Support support(String rule, long count, String language, Function<String, String> ruleName,
            Words words) {
        return new Support(rule, ruleName.apply(rule), words.of(language, "finding", rule), count);
    }

    /** The documents' words for a finding (written to follow a colon) as a sentence of its own. */
    public static String sentence(String words, Locale locale) {
        return words == null || words.isEmpty() ? words
                : words.substring(0, 1).toUpperCase(locale) + words.substring(1) + ".";
    }
}
