package app.vigie.rootcause.core;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import app.vigie.detection.core.Rule;

/**
 * Matches findings to hints, subject by subject (a finding's subject: a request, or stream@boot). Within one subject a
 * finding is <em>explained</em> when the subject also has a finding of another rule that some hint matches and whose
 * {@code explains} lists it; a hint matches the subject when one of its {@code matches} rules is there and not
 * explained. Then, over the incident: a finding of a rule that a hint matched somewhere lists in
 * {@code explainsInIncident} is that hint's, on every subject (a stale cache entry can hand one customer another's page
 * of the same tokens: a cross-customer share with no subject-level sign). A finding neither matched nor explained is
 * <em>unaccounted for</em>: no known cause in the catalogue. The findings are read twice ({@link #result(Feed)}).
 * Records in, result out: no framework, no database.
 */
public final class HintMatcher {
    /** How many subjects each match keeps as examples (the earliest seen). */
    public static final int EXAMPLES = 5;

    private final List<Hint> hints;
    /** rule -> the rules whose presence on the same subject explains it */
    private final Map<Rule, Set<Rule>> explainers = new EnumMap<>(Rule.class);

    public HintMatcher(HintCatalogue catalogue) {
        this.hints = catalogue.hints();
        for (Hint h : hints) {
            for (Rule explained : h.explains()) {
                explainers.computeIfAbsent(explained, k -> EnumSet.noneOf(Rule.class)).addAll(h.matches());
            }
        }
    }

    /** The hints the findings of one subject match, each with the rules of the subject's findings that support it. */
    public Map<Hint, Set<Rule>> match(Set<Rule> present) {
        return match(present, Map.of());
    }

    /**
     * The same, with the rules the incident's matched hints explain on every subject ({@code incident}: rule to the
     * hint that explains it).
     */
    public Map<Hint, Set<Rule>> match(Set<Rule> present, Map<Rule, Hint> incident) {
        Map<Hint, Set<Rule>> out = new LinkedHashMap<>();
        // a finding a matched hint explains counts under the first such hint only, in the catalogue's order
        Set<Rule> given = EnumSet.noneOf(Rule.class);
        for (Hint h : hints) {
            Set<Rule> support = EnumSet.noneOf(Rule.class);
            for (Rule r : h.matches()) {
                if (present.contains(r) && !explained(r, present) && !incident.containsKey(r)) {
                    support.add(r);
                }
            }
            if (!support.isEmpty()) {
                for (Rule r : h.explains()) {
                    if (present.contains(r) && !incident.containsKey(r) && given.add(r)) {
                        support.add(r);
                    }
                }
                out.put(h, support);
            }
        }
        for (Rule r : present) {
            Hint by = incident.get(r);
            if (by != null) {
                out.computeIfAbsent(by, k -> EnumSet.noneOf(Rule.class)).add(r);
            }
        }
        return out;
    }

    /** Feeds a tally every subject's findings once (it may be asked twice). */
    @FunctionalInterface
    public interface Feed<E extends Exception> {
        void into(Tally tally) throws E;
    }

    /**
     * The result over a set of findings: a first pass finds the hints matched subject by subject, a second counts
     * with the rules they explain over the incident.
     */
    public <E extends Exception> Result result(Feed<E> feed) throws E {
        Tally first = new Tally(Map.of());
        feed.into(first);
        Map<Rule, Hint> incident = new EnumMap<>(Rule.class);
        for (Hint h : first.subjects.keySet()) {
            h.explainsInIncident().forEach(r -> incident.put(r, h));
        }
        if (incident.isEmpty()) {
            return first.result();
        }
        Tally second = new Tally(incident);
        feed.into(second);
        return second.result();
    }

    private boolean explained(Rule r, Set<Rule> present) {
        for (Rule by : explainers.getOrDefault(r, Set.of())) {
            if (by != r && present.contains(by)) {
                return true;
            }
        }
        return false;
    }

    /**
     * A tally over many subjects, without the incident's explanations: feed each subject's findings once, then read
     * {@link Tally#result()}; {@link #result(Feed)} gives the whole matching.
     */
    public Tally tally() {
        return new Tally(Map.of());
    }

    /** One hint matched: over how many subjects, the supporting findings per rule, the earliest subjects. */
    public record Match(Hint hint, long subjects, Map<Rule, Long> findings, Instant firstSeen, List<Example> examples) {
    }

    /** A subject that supports a match and when its earliest supporting finding was seen. */
    public record Example(String subject, Instant seen) {
    }

    /**
     * Every match, in the catalogue's order; and the findings no hint accounts for, per rule (a rule this version
     * does not know, found in older records, is counted there by its name).
     */
    public record Result(List<Match> matches, Map<String, Long> unaccounted) {
        public boolean isEmpty() {
            return matches.isEmpty() && unaccounted.isEmpty();
        }
    }

    public final class Tally {
        private final Map<Hint, long[]> subjects = new LinkedHashMap<>();
        private final Map<Hint, Map<Rule, Long>> findings = new LinkedHashMap<>();
        private final Map<Hint, List<Example>> examples = new LinkedHashMap<>();
        private final Map<String, Long> unaccounted = new TreeMap<>();
        private final Map<Rule, Hint> incident;

        private Tally(Map<Rule, Hint> incident) {
            this.incident = incident;
        }

        /** The findings of one subject: rule name -> when it was seen. Each subject is fed once. */
        public void subject(String subject, Map<String, Instant> seen) {
            Map<Rule, Instant> known = new EnumMap<>(Rule.class);
            seen.forEach((name, at) -> {
                Rule r = rule(name);
                if (r == null) {
                    unaccounted.merge(name, 1L, Long::sum);
                } else {
                    known.put(r, at);
                }
            });
            Map<Hint, Set<Rule>> matched = match(known.keySet(), incident);
            Set<Rule> accounted = EnumSet.noneOf(Rule.class);
            for (Map.Entry<Hint, Set<Rule>> e : matched.entrySet()) {
                Hint h = e.getKey();
                subjects.computeIfAbsent(h, k -> new long[1])[0]++;
                Instant first = null;
                for (Rule r : e.getValue()) {
                    findings.computeIfAbsent(h, k -> new EnumMap<>(Rule.class)).merge(r, 1L, Long::sum);
                    Instant at = known.get(r);
                    first = first == null || at.isBefore(first) ? at : first;
                }
                accounted.addAll(e.getValue());
                List<Example> ex = examples.computeIfAbsent(h, k -> new ArrayList<>());
                ex.add(new Example(subject, first));
                if (ex.size() > EXAMPLES) {
                    ex.sort(EARLIEST);
                    ex.remove(ex.size() - 1);
                }
            }
            for (Rule r : known.keySet()) {
                // explained by another finding of the subject: a known cause's consequence, even when that cause's
                // own hint lists it only as explained by another (no match's support names it)
                if (!accounted.contains(r) && !explained(r, known.keySet())) {
                    unaccounted.merge(r.name(), 1L, Long::sum);
                }
            }
        }

        public Result result() {
            List<Match> out = new ArrayList<>();
            for (Hint h : hints) {
                if (subjects.containsKey(h)) {
                    List<Example> ex = new ArrayList<>(examples.get(h));
                    ex.sort(EARLIEST);
                    out.add(new Match(h, subjects.get(h)[0], Collections.unmodifiableMap(findings.get(h)), ex.get(0).seen(),
                            List.copyOf(ex)));
                }
            }
            return new Result(List.copyOf(out), Collections.unmodifiableMap(new TreeMap<>(unaccounted)));
        }
    }

    private static final Comparator<Example> EARLIEST = Comparator.comparing(Example::seen)
            .thenComparing(Example::subject, Rule::compareIds);

    private static Rule rule(String name) {
        try {
            return Rule.valueOf(name);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
