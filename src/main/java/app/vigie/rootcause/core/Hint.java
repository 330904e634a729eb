package app.vigie.rootcause.core;

import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Set;

import app.vigie.detection.core.Rule;

/**
 * A known runtime fault behind a pattern of findings (root-causes/root-causes.yaml): the findings that signal it
 * ({@code matches}), those of the same subject it accounts for ({@code explains}), those of any subject of the incident
 * it accounts for once it matches somewhere ({@code explainsInIncident}), what happened, the checks that would have
 * prevented it and public references. Texts are per language ({@code en}, {@code fr}).
 */
public record Hint(String id, Map<String, String> name, Set<Rule> matches, Set<Rule> explains,
        Set<Rule> explainsInIncident, Map<String, String> cause, List<Check> prevention, Reproduction runtime,
        List<Reference> references) {

    /** A check that would have prevented the fault; {@code runtimeFix}: the reference runtime's switch for it, if any. */
    public record Check(String id, String runtimeFix, Map<String, String> text) {
    }

    /**
     * A public engine issue, pull request or advisory. {@code title} is quoted as written (English; shown in English
     * documents only); {@code date} is its first post as stored, null when not known; {@code shows} says, per
     * language, what it shows.
     */
    public record Reference(String ref, String url, String kind, String state, LocalDate date, String engine,
            String title, Map<String, String> shows) {
    }

    /**
     * How the reference runtime reproduces the fault alone (a test runs it): the fault (null: none, a cache mode
     * alone), the scenario, the prefix cache mode (null: the scenario's) and the log version.
     */
    public record Reproduction(String fault, String scenario, String cache, String logVersion) {
    }
}
