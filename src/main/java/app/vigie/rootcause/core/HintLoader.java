package app.vigie.rootcause.core;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

import app.vigie.compliance.rules.InvalidRules;
import app.vigie.compliance.rules.YamlNode;
import app.vigie.detection.core.Rule;

/**
 * Reads root-causes/root-causes.yaml: checks every key and value (rules that exist, texts in every language, https
 * references, no {@code explains} loop) and stops at the first problem with the file and line, as the compliance rules
 * do.
 */
public final class HintLoader {
    /** The languages every text is given in. */
    public static final List<String> LANGUAGES = List.of("en", "fr");
    private static final Pattern ID = Pattern.compile("[a-z0-9][a-z0-9-]{0,62}");
    private static final Pattern SWITCH = Pattern.compile("[a-z][a-z0-9-]{0,62}");
    private static final Pattern REF = Pattern.compile("[A-Za-z0-9._-]+/[A-Za-z0-9._-]+#[0-9]+|CVE-[0-9]{4}-[0-9]{4,}");
    private static final Set<String> ROOT_KEYS = Set.of("version", "hints");
    private static final Set<String> HINT_KEYS = Set.of("id", "name", "matches", "explains", "explains_in_incident",
            "cause", "prevention", "runtime", "references");
    private static final Set<String> CHECK_KEYS = Set.of("id", "runtime_fix", "text");
    private static final Set<String> RUNTIME_KEYS = Set.of("fault", "scenario", "cache", "log_version");
    private static final Set<String> REFERENCE_KEYS = Set.of("ref", "url", "kind", "state", "date", "engine", "title",
            "shows");
    private static final Set<String> KINDS = Set.of("issue", "pull", "advisory");
    private static final Set<String> STATES = Set.of("open", "closed", "merged", "published");
    /** The states each kind of reference can be in (documents have words for each pair). */
    private static final Map<String, List<String>> STATES_OF = Map.of("issue", List.of("open", "closed"), "pull",
            List.of("open", "closed", "merged"), "advisory", List.of("published"));
    private static final Set<String> CACHES = Set.of("per-tenant", "shared", "off");
    private static final Set<String> LOG_VERSIONS = Set.of("1", "1.1");

    /** Where the application carries its copy, on the class path. */
    public static final String BUNDLED = "root-causes/root-causes.yaml";

    private HintLoader() {
    }

    /** A catalogue and where it was read from. */
    public record Loaded(HintCatalogue catalogue, String origin) {
    }

    /**
     * The catalogue of {@code file}; unset, ./root-causes/root-causes.yaml where it exists, else the copy on the class
     * path. Refused as {@link InvalidRules} when it cannot be read or is invalid.
     */
    public static Loaded resolve(Optional<String> file) {
        if (file.isPresent()) {
            return new Loaded(load(file.get(), read(Path.of(file.get()))), file.get());
        }
        if (Files.isRegularFile(Path.of(BUNDLED))) {
            String origin = Path.of(BUNDLED).toAbsolutePath().toString();
            return new Loaded(load(origin, read(Path.of(BUNDLED))), origin);
        }
        String origin = BUNDLED + " (inside the application)";
        try (InputStream in = HintLoader.class.getClassLoader().getResourceAsStream(BUNDLED)) {
            if (in == null) {
                throw new InvalidRules(BUNDLED, 0, "no root-causes/ directory here and no copy inside the application");
            }
            return new Loaded(load(origin, new String(in.readAllBytes(), StandardCharsets.UTF_8)), origin);
        } catch (IOException e) {
            throw new InvalidRules(BUNDLED, 0, "cannot be read inside the application: " + e.getMessage());
        }
    }

    private static String read(Path p) {
        try {
            return Files.readString(p, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new InvalidRules(p.toString(), 0, "cannot be read: " + e.getMessage());
        }
    }

    public static HintCatalogue load(String file, String text) {
        YamlNode root = YamlNode.parse(file, text);
        Map<String, YamlNode> m = root.map(ROOT_KEYS);
        String version = YamlNode.required(m, "version", root).text();
        try {
            LocalDate.parse(version);
        } catch (DateTimeParseException e) {
            throw m.get("version").problem("expected the file's date, YYYY-MM-DD, got '" + version + "'");
        }
        YamlNode list = YamlNode.required(m, "hints", root);
        List<Hint> hints = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        Map<Rule, Set<Rule>> explainedBy = new EnumMap<>(Rule.class);
        for (YamlNode n : list.list()) {
            Hint h = hint(n);
            if (!ids.add(h.id())) {
                throw n.problem("hint id '" + h.id() + "' given twice");
            }
            for (Rule g : h.matches()) {
                explainedBy.computeIfAbsent(g, k -> EnumSet.noneOf(Rule.class)).addAll(h.explains());
            }
            String loop = loop(explainedBy);
            if (loop != null) {
                throw n.problem("'explains' makes a loop: " + loop + " (a finding would explain itself, and no hint"
                        + " would match)");
            }
            hints.add(h);
        }
        if (hints.isEmpty()) {
            throw list.problem("no hint");
        }
        // explained in the incident: by one hint only, and never a rule that signals a hint explaining so (no chains)
        Map<Rule, String> byIncident = new EnumMap<>(Rule.class);
        for (int i = 0; i < hints.size(); i++) {
            for (Rule r : hints.get(i).explainsInIncident()) {
                String other = byIncident.put(r, hints.get(i).id());
                if (other != null) {
                    throw list.list().get(i).problem(r + " is explained in the incident by two hints (" + other + ", "
                            + hints.get(i).id() + ")");
                }
            }
        }
        for (int i = 0; i < hints.size(); i++) {
            Hint h = hints.get(i);
            if (!h.explainsInIncident().isEmpty()) {
                for (Rule r : h.matches()) {
                    if (byIncident.containsKey(r)) {
                        throw list.list().get(i).problem(r + " signals this hint and is explained in the incident by "
                                + byIncident.get(r) + ": a chain the matching does not follow");
                    }
                }
            }
        }
        return new HintCatalogue(version, List.copyOf(hints));
    }

    private static Hint hint(YamlNode n) {
        Map<String, YamlNode> m = n.map(HINT_KEYS);
        String id = id(YamlNode.required(m, "id", n));
        Set<Rule> matches = rules(YamlNode.required(m, "matches", n));
        if (matches.isEmpty()) {
            throw m.get("matches").problem("at least one finding rule");
        }
        Set<Rule> explains = m.containsKey("explains") ? rules(m.get("explains")) : Set.of();
        for (Rule r : explains) {
            if (matches.contains(r)) {
                throw m.get("explains").problem(r + " is both matched and explained by this hint");
            }
        }
        Set<Rule> inIncident = m.containsKey("explains_in_incident") ? rules(m.get("explains_in_incident")) : Set.of();
        for (Rule r : inIncident) {
            if (matches.contains(r)) {
                throw m.get("explains_in_incident").problem(r + " is both matched and explained by this hint");
            }
        }
        List<Hint.Check> prevention = new ArrayList<>();
        for (YamlNode c : YamlNode.required(m, "prevention", n).list()) {
            Map<String, YamlNode> cm = c.map(CHECK_KEYS);
            prevention.add(new Hint.Check(id(YamlNode.required(cm, "id", c)),
                    cm.containsKey("runtime_fix") ? word(cm.get("runtime_fix")) : null,
                    texts(YamlNode.required(cm, "text", c))));
        }
        if (prevention.isEmpty()) {
            throw m.get("prevention").problem("at least one check that would have prevented it");
        }
        List<Hint.Reference> references = new ArrayList<>();
        for (YamlNode r : YamlNode.required(m, "references", n).list()) {
            references.add(reference(r));
        }
        if (references.isEmpty()) {
            throw m.get("references").problem("at least one public reference");
        }
        return new Hint(id, texts(YamlNode.required(m, "name", n)), matches, explains, inIncident,
                texts(YamlNode.required(m, "cause", n)), List.copyOf(prevention),
                m.containsKey("runtime") ? reproduction(m.get("runtime")) : null, List.copyOf(references));
    }

    private static Hint.Reference reference(YamlNode n) {
        Map<String, YamlNode> m = n.map(REFERENCE_KEYS);
        YamlNode refNode = YamlNode.required(m, "ref", n);
        String ref = refNode.text();
        if (!REF.matcher(ref).matches()) {
            throw refNode.problem("expected owner/repository#number or CVE-YYYY-NNNN, got '" + ref + "'");
        }
        YamlNode urlNode = YamlNode.required(m, "url", n);
        String url = urlNode.text();
        if (!url.matches("https://[A-Za-z0-9.-]+/[^\\s\"<>]*")) {
            throw urlNode.problem("expected an https:// address, got '" + url + "'");
        }
        LocalDate date = null;
        YamlNode dateNode = YamlNode.required(m, "date", n);
        if (!dateNode.text().equals("null") && !dateNode.text().isEmpty()) {
            try {
                date = LocalDate.parse(dateNode.text());
            } catch (DateTimeParseException e) {
                throw dateNode.problem("expected a date YYYY-MM-DD, or null when not known, got '" + dateNode.text()
                        + "'");
            }
        }
        String kind = oneOf(YamlNode.required(m, "kind", n), KINDS);
        String state = oneOf(YamlNode.required(m, "state", n), STATES);
        if (!STATES_OF.get(kind).contains(state)) {
            throw m.get("state").problem("an " + kind + " is " + String.join(" or ", STATES_OF.get(kind)) + ", not "
                    + state);
        }
        return new Hint.Reference(ref, url, kind, state, date, nonBlank(YamlNode.required(m, "engine", n)),
                nonBlank(YamlNode.required(m, "title", n)), texts(YamlNode.required(m, "shows", n)));
    }

    private static Hint.Reproduction reproduction(YamlNode n) {
        Map<String, YamlNode> m = n.map(RUNTIME_KEYS);
        String fault = m.containsKey("fault") ? word(m.get("fault")) : null;
        String cache = m.containsKey("cache") ? oneOf(m.get("cache"), CACHES) : null;
        if (fault == null && cache == null) {
            throw n.problem("a fault or a cache mode that reproduces the hint");
        }
        return new Hint.Reproduction(fault, word(YamlNode.required(m, "scenario", n)), cache,
                m.containsKey("log_version") ? oneOf(m.get("log_version"), LOG_VERSIONS) : "1.1");
    }

    /** Every language given, each text non-blank: a document in French is written from the French text only. */
    private static Map<String, String> texts(YamlNode n) {
        if (n.isScalar()) {
            throw n.problem("expected a text per language (" + String.join(", ", LANGUAGES) + ")");
        }
        Map<String, String> out = n.inEachLanguage(LANGUAGES);
        out.forEach((language, text) -> {
            if (text.isBlank()) {
                throw n.problem("the " + language + " text is empty");
            }
        });
        return out;
    }

    private static Set<Rule> rules(YamlNode n) {
        Set<Rule> out = new LinkedHashSet<>();
        for (YamlNode r : n.list()) {
            try {
                if (!out.add(Rule.valueOf(r.text()))) {
                    throw r.problem(r.text() + " given twice");
                }
            } catch (IllegalArgumentException e) {
                throw r.problem("no finding rule '" + r.text() + "'; expected one of "
                        + String.join(", ", EnumSet.allOf(Rule.class).stream().map(Rule::name).toList()));
            }
        }
        return Set.copyOf(out);
    }

    private static String id(YamlNode n) {
        String id = n.text();
        if (!ID.matcher(id).matches()) {
            throw n.problem("expected an id of lower-case letters, digits and '-', got '" + id + "'");
        }
        return id;
    }

    private static String word(YamlNode n) {
        String w = n.text();
        if (!SWITCH.matcher(w).matches()) {
            throw n.problem("expected a name of lower-case letters, digits and '-', got '" + w + "'");
        }
        return w;
    }

    private static String oneOf(YamlNode n, Set<String> allowed) {
        String v = n.text();
        if (!allowed.contains(v)) {
            throw n.problem("expected one of " + String.join(", ", allowed.stream().sorted().toList()) + ", got '" + v
                    + "'");
        }
        return v;
    }

    private static String nonBlank(YamlNode n) {
        String v = n.text();
        if (v.isBlank()) {
            throw n.problem("must not be empty");
        }
        return v;
    }

    /** A loop in "explains" (rule -> rules it explains), as "A -> B -> A"; null when there is none. */
    private static String loop(Map<Rule, Set<Rule>> explains) {
        for (Rule start : explains.keySet()) {
            List<Rule> path = new ArrayList<>();
            String found = walk(start, start, explains, path, EnumSet.noneOf(Rule.class));
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    private static String walk(Rule start, Rule at, Map<Rule, Set<Rule>> explains, List<Rule> path, Set<Rule> seen) {
        path.add(at);
        for (Rule next : explains.getOrDefault(at, Set.of())) {
            if (next == start) {
                return String.join(" -> ", path.stream().map(Rule::name).toList()) + " -> " + start;
            }
            if (seen.add(next)) {
                String found = walk(start, next, explains, path, seen);
                if (found != null) {
                    return found;
                }
            }
        }
        path.remove(path.size() - 1);
        return null;
    }
}
