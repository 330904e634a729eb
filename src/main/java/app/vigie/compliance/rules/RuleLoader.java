package app.vigie.compliance.rules;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.MonthDay;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;


import app.vigie.compliance.rules.ObligationRule.Cap;
import app.vigie.compliance.rules.ObligationRule.Kind;
import app.vigie.compliance.rules.ObligationRule.Party;
import app.vigie.compliance.rules.ObligationRule.Sooner;
import app.vigie.compliance.rules.ObligationRule.Trigger;

/**
 * Reads compliance-rules/: {@code authorities.yaml}, {@code severity.yaml} and one file per regime. Checks
 * everything it can (keys, values, references between obligations, unique ids) and stops at the first problem with
 * the file and line.
 */
public final class RuleLoader {
    public static final String AUTHORITIES = "authorities.yaml";
    public static final String SEVERITY = "severity.yaml";
    /** Public holidays by country (optional): where a time limit with a working-day relief may move. */
    public static final String HOLIDAYS = "holidays.yaml";
    /** Recipients that are not an authority of authorities.yaml's {@code named}. */
    public static final Set<String> RECIPIENTS = Set.of("controller", "supervisory_authority", "csirt",
            "financial_authority", "market_surveillance_authority", "covered_entity", "data_subjects", "register",
            "media", "ai_system_provider", "public", "clients", "service_recipients");
    /** Recipients resolved by country through authorities.yaml's {@code authorities}. */
    public static final Set<String> BY_COUNTRY = Set.of("supervisory_authority", "csirt", "financial_authority",
            "market_surveillance_authority");
    private static final Pattern ID = Pattern.compile("[a-z0-9][a-z0-9-]{0,62}");
    private static final Pattern CODE = Pattern.compile("[A-Z]{2}(-[A-Z0-9]{1,3})?");
    private static final Pattern WORD = Pattern.compile("[a-z][a-z0-9_-]{0,62}");
    private static final Set<String> REGIME_KEYS = Set.of("id", "name", "source", "zone", "applies_to",
            "applies_to_source", "implies", "in_force", "obligations");
    private static final Set<String> OBLIGATION_KEYS = Set.of("id", "kind", "holder", "recipient", "trigger",
            "decision", "if_undecided", "unless", "clock", "due", "target", "outer_limit", "contractual", "cap",
            "sooner", "late", "phased", "repeatable", "imputed", "exposure", "recipient_from", "applies_to",
            "in_force", "source", "content", "note", "relief");
    /** How a tenant was exposed: its tokens read by others, or others' tokens received. */
    private static final Set<String> EXPOSURES = Set.of("victim", "recipient");

    private RuleLoader() {
    }

    /** Every {@code *.yaml} of the directory. */
    public static RuleSet load(Path dir) {
        return load(read(dir), dir + "/");
    }

    /** The {@code *.yaml} files of a directory: name to content, by name. */
    public static Map<String, String> read(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new InvalidRules(dir.toString(), 0, "not a directory of rule files");
        }
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : s.filter(p -> p.getFileName().toString().endsWith(".yaml")).toList()) {
                files.put(p.getFileName().toString(), Files.readString(p, StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the rule files of " + dir, e);
        }
        return files;
    }

    /** @param files file name to content; {@code prefix} goes before a file's name in messages */
    public static RuleSet load(Map<String, String> files, String prefix) {
        if (!files.containsKey(AUTHORITIES)) {
            throw new InvalidRules(prefix + AUTHORITIES, 0, "missing: the country sets and authorities");
        }
        if (!files.containsKey(SEVERITY)) {
            throw new InvalidRules(prefix + SEVERITY, 0, "missing: the ENISA severity scales");
        }
        Authorities authorities = authorities(root(prefix + AUTHORITIES, files.get(AUTHORITIES)));
        SeverityScales severity = severity(root(prefix + SEVERITY, files.get(SEVERITY)));
        Map<String, HolidayCalendar> holidays = files.containsKey(HOLIDAYS)
                ? holidays(root(prefix + HOLIDAYS, files.get(HOLIDAYS))) : Map.of();
        List<Regime> regimes = new ArrayList<>();
        Set<String> regimeIds = new HashSet<>();
        Set<String> obligationIds = new HashSet<>();
        for (Map.Entry<String, String> f : files.entrySet()) {
            if (f.getKey().equals(AUTHORITIES) || f.getKey().equals(SEVERITY) || f.getKey().equals(HOLIDAYS)) {
                continue;
            }
            regimes.add(regime(prefix + f.getKey(), root(prefix + f.getKey(), f.getValue()), authorities, regimeIds,
                    obligationIds));
        }
        if (regimes.isEmpty()) {
            throw new InvalidRules(prefix, 0, "no regime file");
        }
        for (Regime g : regimes) {
            for (ObligationRule o : g.obligations()) {
                if (o.relief() != null && holidays.isEmpty()) {
                    throw new InvalidRules(g.file(), 0, "'" + o.id() + "' has a working-day relief: "
                            + HOLIDAYS + " must give the holidays");
                }
            }
        }
        return new RuleSet(List.copyOf(regimes), authorities, severity, Map.copyOf(holidays));
    }

    private static YamlNode root(String file, String text) {
        return YamlNode.parse(file, text);
    }

    /**
     * One regime's file; {@code regimeIds} and {@code obligationIds}: those read so far, to refuse an id used twice.
     */
    private static Regime regime(String file, YamlNode root, Authorities authorities, Set<String> regimeIds,
            Set<String> obligationIds) {
        Map<String, YamlNode> m = root.map(REGIME_KEYS);
        String id = id(YamlNode.required(m, "id", root));
        if (!regimeIds.add(id)) {
            throw m.get("id").problem("regime id '" + id + "' is used by another file");
        }
        String name = YamlNode.required(m, "name", root).text();
        String source = YamlNode.required(m, "source", root).text();
        ZoneId zone = zone(YamlNode.required(m, "zone", root));
        Applicability applies = applicability(YamlNode.required(m, "applies_to", root), authorities);
        String appliesToSource = YamlNode.required(m, "applies_to_source", root).text();
        List<Regime.Implication> implies = m.containsKey("implies") ? implications(m.get("implies")) : List.of();
        InForce inForce = m.containsKey("in_force") ? inForce(m.get("in_force")) : InForce.ALWAYS;
        List<YamlNode> nodes = YamlNode.required(m, "obligations", root).list();
        if (nodes.isEmpty()) {
            throw m.get("obligations").problem("at least one obligation (or one of kind NONE saying why)");
        }
        List<ObligationRule> obligations = new ArrayList<>();
        for (YamlNode n : nodes) {
            ObligationRule o = obligation(n, authorities, inForce);
            if (!obligationIds.add(o.id())) {
                throw n.problem("obligation id '" + o.id() + "' is used by another obligation");
            }
            obligations.add(o);
        }
        checkReferences(obligations, nodes);
        return new Regime(id, name, source, zone, applies, appliesToSource, implies, inForce,
                List.copyOf(obligations), file);
    }

    /** {@code implies}: facts that follow from another ({@code if} true makes {@code then} true; {@code then} false
     *  makes {@code if} false), each with the text that says so. */
    private static List<Regime.Implication> implications(YamlNode n) {
        List<Regime.Implication> out = new ArrayList<>();
        for (YamlNode i : n.list()) {
            Map<String, YamlNode> m = i.map(Set.of("if", "then", "source"));
            String premise = word(YamlNode.required(m, "if", i));
            String conclusion = word(YamlNode.required(m, "then", i));
            if (premise.equals(conclusion)) {
                throw m.get("then").problem("a fact that implies itself says nothing");
            }
            out.add(new Regime.Implication(premise, conclusion, YamlNode.required(m, "source", i).text()));
        }
        return List.copyOf(out);
    }

    private static Applicability applicability(YamlNode n, Authorities authorities) {
        Map<String, YamlNode> m = n.map(Set.of("any", "all", "not", "country_in", "jurisdiction_in", "sector_in",
                "provider"));
        if (m.size() != 1) {
            throw n.problem("give exactly one of any, all, not, country_in, jurisdiction_in, sector_in, provider");
        }
        Map.Entry<String, YamlNode> e = m.entrySet().iterator().next();
        YamlNode v = e.getValue();
        return switch (e.getKey()) {
            case "any", "all" -> {
                List<Applicability> of = new ArrayList<>();
                for (YamlNode c : v.list()) {
                    of.add(applicability(c, authorities));
                }
                if (of.isEmpty()) {
                    throw v.problem("an empty list matches nothing");
                }
                yield e.getKey().equals("any") ? new Applicability.Any(of) : new Applicability.All(of);
            }
            case "not" -> new Applicability.Not(applicability(v, authorities));
            case "country_in" -> new Applicability.CountryIn(codes(v, authorities));
            case "jurisdiction_in" -> new Applicability.JurisdictionIn(codes(v, authorities));
            case "sector_in" -> {
                Set<String> sectors = new LinkedHashSet<>();
                for (String s : v.texts()) {
                    if (!WORD.matcher(s).matches()) {
                        throw v.problem("a sector is a lower-case code such as financial, got '" + s + "'");
                    }
                    sectors.add(s);
                }
                yield new Applicability.SectorIn(sectors);
            }
            default -> {
                if (!v.bool()) {
                    throw v.problem("only 'provider: true' means something");
                }
                yield new Applicability.Provider();
            }
        };
    }

    /** A set's name of authorities.yaml, or a list of ISO 3166 codes (US-CA for a state). */
    private static Set<String> codes(YamlNode v, Authorities authorities) {
        if (v.isScalar() && authorities.sets().containsKey(v.text())) {
            return authorities.sets().get(v.text());
        }
        Set<String> out = new LinkedHashSet<>();
        for (String c : v.texts()) {
            if (!CODE.matcher(c).matches()) {
                throw v.problem("'" + c + "' is neither a country code such as FR (US-CA for a state) nor a set of "
                        + AUTHORITIES + " (" + String.join(", ", authorities.sets().keySet()) + ")");
            }
            out.add(c);
        }
        return out;
    }

    private static ObligationRule obligation(YamlNode n, Authorities authorities, InForce regimeInForce) {
        Map<String, YamlNode> m = n.map(OBLIGATION_KEYS);
        String id = id(YamlNode.required(m, "id", n));
        Kind kind = constant(Kind.class, YamlNode.required(m, "kind", n));
        Party holder = constant(Party.class, YamlNode.required(m, "holder", n));
        YamlNode recipientNode = YamlNode.required(m, "recipient", n);
        String recipient = recipientNode.text();
        if (!RECIPIENTS.contains(recipient) && authorities.named(recipient).isEmpty()) {
            throw recipientNode.problem("unknown recipient '" + recipient + "': one of "
                    + String.join(", ", new TreeSet<>(RECIPIENTS)) + ", or an authority named in "
                    + AUTHORITIES + " (" + String.join(", ", authorities.named().keySet()) + ")");
        }
        Trigger trigger = constant(Trigger.class, YamlNode.required(m, "trigger", n));
        List<String> decisions = new ArrayList<>();
        if (m.containsKey("decision")) {
            for (String d : m.get("decision").texts()) {
                decisions.add(word(m.get("decision"), d));
            }
        }
        if (trigger == Trigger.DECISION ? decisions.isEmpty() : !decisions.isEmpty() && trigger != Trigger.HIGH_RISK) {
            throw n.problem(trigger == Trigger.DECISION ? "trigger 'decision' needs 'decision': the fact the holder "
                    + "decides (such as major), or a list of facts that must all hold" : "'decision' goes with "
                    + "trigger 'decision'");
        }
        boolean assumeHeld = true;
        if (m.containsKey("if_undecided")) {
            if (decisions.isEmpty()) {
                throw m.get("if_undecided").problem("'if_undecided' goes with trigger 'decision'");
            }
            assumeHeld = switch (m.get("if_undecided").text()) {
                case "held" -> true;
                case "not_held" -> false;
                default -> throw m.get("if_undecided").problem("one of held (plan it as if the decision held: the "
                        + "default) or not_held");
            };
        }
        List<String> unless = new ArrayList<>();
        if (m.containsKey("unless")) {
            for (String u : m.get("unless").texts()) {
                unless.add(word(m.get("unless"), u));
            }
        }
        unless = List.copyOf(unless);
        Map<String, String> sources = texts(YamlNode.required(m, "source", n));
        String source = sources.get("en");
        Map<String, String> notes = m.containsKey("note") ? texts(m.get("note")) : Map.of();
        String note = notes.get("en");
        List<String> content = m.containsKey("content") ? m.get("content").texts() : List.of();
        Set<String> exposure = EXPOSURES;
        if (m.containsKey("exposure")) {
            exposure = new LinkedHashSet<>(m.get("exposure").texts());
            if (exposure.isEmpty() || !EXPOSURES.containsAll(exposure)) {
                throw m.get("exposure").problem("a list of victim (its tokens were read by others) and recipient "
                        + "(it received others' tokens)");
            }
            exposure = Set.copyOf(exposure);
        }
        String recipientFrom = "establishment";
        if (m.containsKey("recipient_from")) {
            recipientFrom = m.get("recipient_from").text();
            if (!Set.of("establishment", "occurrence").contains(recipientFrom)) {
                throw m.get("recipient_from").problem("one of establishment (the tenant's country, else where its "
                        + "data subjects are) or occurrence (where the incident occurred: its jurisdictions)");
            }
            if (!BY_COUNTRY.contains(recipient)) {
                throw m.get("recipient_from").problem("only an authority chosen by country ("
                        + String.join(", ", new TreeSet<>(BY_COUNTRY)) + ") has a country to choose");
            }
        }
        Applicability appliesTo = m.containsKey("applies_to") ? applicability(m.get("applies_to"), authorities)
                : null;
        InForce inForce = m.containsKey("in_force") ? inForce(m.get("in_force")) : regimeInForce;
        if (kind == Kind.NONE) {
            if (note == null) {
                throw n.problem("kind NONE needs a 'note' saying why nothing is due");
            }
            return new ObligationRule(id, kind, holder, recipient, trigger, List.copyOf(decisions), assumeHeld,
                    unless, null, null, false, null, null, false, null, List.of(), null, false, false, false,
                    exposure, recipientFrom, appliesTo, inForce, source, sources, content, note, notes, null);
        }
        Clock clock = clock(YamlNode.required(m, "clock", n));
        if (clock.origin() == Clock.Origin.DECISION && clock.ref() == null && trigger != Trigger.DECISION) {
            throw m.get("clock").problem("clock 'decision' needs trigger 'decision' (or name one: "
                    + "clock: {decision: <name>})");
        }
        YamlNode dueNode = YamlNode.required(m, "due", n);
        boolean asRequested = dueNode.text().equals("as_requested");
        Delay due = dueNode.text().equals("undue_delay") || asRequested ? null : delay(dueNode);
        Delay target = m.containsKey("target") ? delay(m.get("target")) : null;
        Delay outerLimit = m.containsKey("outer_limit") ? delay(m.get("outer_limit")) : null;
        if (due == null && !asRequested && target == null) {
            throw dueNode.problem("'undue_delay' needs a 'target': the time Vigie aims at, such as PT24H");
        }
        if (outerLimit != null && due != null) {
            throw m.get("outer_limit").problem("'outer_limit' bounds an open-ended duty: give 'due: undue_delay' "
                    + "with a 'target', and the law's bound here");
        }
        if (due != null && target != null) {
            throw m.get("target").problem("a 'target' goes with 'due: undue_delay'; a fixed period needs none");
        }
        boolean contractual = m.containsKey("contractual") && m.get("contractual").bool();
        Cap cap = null;
        if (m.containsKey("cap")) {
            Map<String, YamlNode> c = m.get("cap").map(Set.of("clock", "due", "lapses"));
            boolean lapses = c.containsKey("lapses") && c.get("lapses").bool();
            if (lapses && clock.origin() != Clock.Origin.DECISION) {
                throw c.get("lapses").problem("'lapses' needs the rule's clock to be its decision");
            }
            cap = new Cap(clock(YamlNode.required(c, "clock", m.get("cap"))),
                    delay(YamlNode.required(c, "due", m.get("cap"))), lapses);
        }
        List<Sooner> sooner = new ArrayList<>();
        if (m.containsKey("sooner")) {
            for (YamlNode s : m.get("sooner").list()) {
                Map<String, YamlNode> sm = s.map(Set.of("decision", "due", "source"));
                sooner.add(new Sooner(word(YamlNode.required(sm, "decision", s)),
                        delay(YamlNode.required(sm, "due", s)), YamlNode.required(sm, "source", s).text()));
            }
        }
        String late = null;
        if (m.containsKey("late")) {
            late = m.get("late").text();
            if (!late.equals("reasons")) {
                throw m.get("late").problem("the only requirement known for a late notification is 'reasons'");
            }
        }
        boolean phased = m.containsKey("phased") && m.get("phased").bool();
        boolean repeatable = m.containsKey("repeatable") && m.get("repeatable").bool();
        boolean imputed = m.containsKey("imputed") && m.get("imputed").bool();
        if (m.containsKey("relief") && due == null) {
            throw dueNode.problem("a 'relief' moves a fixed time limit: this rule has none");
        }
        ObligationRule.Relief relief = m.containsKey("relief") ? relief(m.get("relief")) : null;
        if (imputed && clock.origin() != Clock.Origin.CONTROLLER_AWARENESS && clock.origin() != Clock.Origin.YEAR_END) {
            throw m.get("imputed").problem("'imputed' moves a controller_awareness clock to the processor's "
                    + "discovery: it needs clock controller_awareness (or year_end_of: controller_awareness)");
        }
        return new ObligationRule(id, kind, holder, recipient, trigger, List.copyOf(decisions), assumeHeld, unless,
                clock, due, asRequested, target, outerLimit, contractual, cap, List.copyOf(sooner), late, phased,
                repeatable, imputed, exposure, recipientFrom, appliesTo, inForce, source, sources, List.copyOf(content),
                note, notes, relief);
    }

    /** {@code relief}: a time limit falling on a weekend day or holiday moves to noon of the next working day. */
    private static ObligationRule.Relief relief(YamlNode n) {
        Map<String, YamlNode> m = n.map(Set.of("to", "eligible_sectors", "excluded_sectors", "source"));
        YamlNode to = YamlNode.required(m, "to", n);
        if (!to.text().equals("next_working_day_noon")) {
            throw to.problem("the only relief known is next_working_day_noon");
        }
        Set<String> eligible = new LinkedHashSet<>();
        for (String e : YamlNode.required(m, "eligible_sectors", n).texts()) {
            eligible.add(word(m.get("eligible_sectors"), e));
        }
        Set<String> excluded = new LinkedHashSet<>();
        if (m.containsKey("excluded_sectors")) {
            for (String e : m.get("excluded_sectors").texts()) {
                excluded.add(word(m.get("excluded_sectors"), e));
            }
        }
        return new ObligationRule.Relief(Set.copyOf(eligible), Set.copyOf(excluded),
                YamlNode.required(m, "source", n).text());
    }

    /**
     * {@code in_force: {from: 2026-08-02, until: ..., source: ..., by_country: {DE: {from: ..., source: ...},
     * FR: {unknown: why}}}}.
     */
    private static InForce inForce(YamlNode n) {
        Map<String, YamlNode> m = n.map(Set.of("from", "until", "source", "by_country"));
        LocalDate from = m.containsKey("from") ? date(m.get("from")) : null;
        LocalDate until = m.containsKey("until") ? date(m.get("until")) : null;
        if (from == null && until == null && !m.containsKey("by_country")) {
            throw n.problem("give 'from', 'until' or 'by_country'");
        }
        if (from != null && until != null && !until.isAfter(from)) {
            throw m.get("until").problem("'until' must come after 'from'");
        }
        String source = YamlNode.required(m, "source", n).text();
        Map<String, InForce.Transposition> byCountry = null;
        if (m.containsKey("by_country")) {
            byCountry = new TreeMap<>();
            for (Map.Entry<String, YamlNode> e : m.get("by_country").map(null).entrySet()) {
                if (!CODE.matcher(e.getKey()).matches()) {
                    throw e.getValue().problem("'" + e.getKey() + "' is not a country code such as DE");
                }
                Map<String, YamlNode> t = e.getValue().map(Set.of("from", "source", "unknown"));
                if (!t.containsKey("unknown") && !t.containsKey("from")) {
                    throw e.getValue().problem("give 'from' (with its 'source'), 'unknown' (saying what is not known "
                            + "and why), or both (not before 'from'; from then on, not known)");
                }
                if (t.containsKey("from") && t.containsKey("unknown")) {
                    byCountry.put(e.getKey(), new InForce.Transposition(date(t.get("from")),
                            YamlNode.required(t, "source", e.getValue()).text(), t.get("unknown").text()));
                } else if (t.containsKey("from")) {
                    byCountry.put(e.getKey(), new InForce.Transposition(date(t.get("from")),
                            YamlNode.required(t, "source", e.getValue()).text(), null));
                } else {
                    byCountry.put(e.getKey(), new InForce.Transposition(null,
                            t.containsKey("source") ? t.get("source").text() : null, t.get("unknown").text()));
                }
            }
            byCountry = Collections.unmodifiableMap(byCountry);
        }
        return new InForce(from, until, source, byCountry);
    }

    /** The languages a name or a citation is given in. */
    public static final List<String> LANGUAGES = List.of("en", "fr");

    /**
     * A text in each language: one value (a proper name, the same in every language) or {@code {en: ..., fr: ...}}.
     */
    private static Map<String, String> texts(YamlNode n) {
        return n.inEachLanguage(LANGUAGES);
    }

    private static LocalDate date(YamlNode n) {
        try {
            return LocalDate.parse(n.text());
        } catch (DateTimeParseException e) {
            throw n.problem("not a date such as 2026-08-02: '" + n.text() + "'");
        }
    }

    /** {@code after:} names an obligation of the same regime, and the chain has no loop. */
    private static void checkReferences(List<ObligationRule> obligations, List<YamlNode> nodes) {
        Map<String, ObligationRule> byId = new LinkedHashMap<>();
        obligations.forEach(o -> byId.put(o.id(), o));
        for (int i = 0; i < obligations.size(); i++) {
            ObligationRule o = obligations.get(i);
            Set<String> seen = new HashSet<>();
            Deque<ObligationRule> todo = new ArrayDeque<>(List.of(o));
            while (!todo.isEmpty()) {
                ObligationRule at = todo.pop();
                if (at.clock() == null || at.clock().origin() != Clock.Origin.AFTER) {
                    continue;
                }
                if (!seen.add(at.id())) {
                    throw clockNode(nodes.get(i)).problem("the 'after' clocks go round in a loop through " + at.id());
                }
                for (String ref : at.clock().afterAll()) {
                    ObligationRule next = byId.get(ref);
                    if (next == null) {
                        throw clockNode(nodes.get(i)).problem("'after: " + ref + "' names no obligation of this "
                                + "regime");
                    }
                    todo.push(next);
                }
            }
        }
    }

    private static YamlNode clockNode(YamlNode obligation) {
        return obligation.map(null).get("clock");
    }

    private static Clock clock(YamlNode n) {
        if (n.isMap()) {
            Map<String, YamlNode> m = n.map(Set.of("after", "decision", "year_end_of"));
            if (m.size() != 1) {
                throw n.problem("give one of after: <obligation id>, decision: <name>, year_end_of: "
                        + "controller_awareness");
            }
            if (m.containsKey("after")) {
                List<String> after = new ArrayList<>();
                for (String a : m.get("after").texts()) {
                    if (!ID.matcher(a).matches()) {
                        throw m.get("after").problem("an obligation id is lower case letters, digits and '-', got '"
                                + a + "'");
                    }
                    after.add(a);
                }
                return new Clock(Clock.Origin.AFTER, String.join(",", after));
            }
            if (m.containsKey("decision")) {
                return new Clock(Clock.Origin.DECISION, word(m.get("decision")));
            }
            if (!m.get("year_end_of").text().equals("controller_awareness")) {
                throw m.get("year_end_of").problem("only controller_awareness has a year that ends");
            }
            return new Clock(Clock.Origin.YEAR_END, "controller_awareness");
        }
        Clock.Origin o = constant(Clock.Origin.class, n);
        if (o == Clock.Origin.AFTER || o == Clock.Origin.YEAR_END) {
            throw n.problem("write it as a mapping: clock: {after: <obligation id>} or {year_end_of: "
                    + "controller_awareness}");
        }
        return Clock.of(o);
    }

    private static Delay delay(YamlNode n) {
        try {
            return Delay.parse(n.text());
        } catch (DateTimeParseException e) {
            throw n.problem("not a period such as PT72H, P15D or P1M: '" + n.text() + "' (" + e.getMessage() + ")");
        }
    }

    private static String id(YamlNode n) {
        if (!ID.matcher(n.text()).matches()) {
            throw n.problem("an id is lower case letters, digits and '-', got '" + n.text() + "'");
        }
        return n.text();
    }

    private static String word(YamlNode n) {
        return word(n, n.text());
    }

    private static String word(YamlNode n, String text) {
        if (!WORD.matcher(text).matches()) {
            throw n.problem("expected a lower-case word such as major, got '" + text + "'");
        }
        return text;
    }

    private static <E extends Enum<E>> E constant(Class<E> type, YamlNode n) {
        String v = n.text();
        try {
            return Enum.valueOf(type, v.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            List<String> names = Stream.of(type.getEnumConstants()).map(c -> c.name().toLowerCase(Locale.ROOT))
                    .toList();
            throw n.problem("unknown value '" + v + "': one of " + String.join(", ", names));
        }
    }

    private static Map<String, HolidayCalendar> holidays(YamlNode root) {
        Map<String, YamlNode> m = root.map(Set.of("countries"));
        Map<String, HolidayCalendar> out = new TreeMap<>();
        for (Map.Entry<String, YamlNode> c : YamlNode.required(m, "countries", root).map(null).entrySet()) {
            YamlNode n = c.getValue();
            if (!CODE.matcher(c.getKey()).matches()) {
                throw n.problem("'" + c.getKey() + "' is not a country code such as FR");
            }
            Map<String, YamlNode> f = n.map(Set.of("zone", "source", "note", "days", "years"));
            ZoneId zone = zone(YamlNode.required(f, "zone", n));
            List<HolidayCalendar.Day> days = new ArrayList<>();
            if (f.containsKey("days")) {
                for (YamlNode d : f.get("days").list()) {
                    days.add(holiday(d));
                }
            }
            Map<Integer, Set<MonthDay>> years = new TreeMap<>();
            if (f.containsKey("years")) {
                for (Map.Entry<String, YamlNode> y : f.get("years").map(null).entrySet()) {
                    int year;
                    try {
                        year = Integer.parseInt(y.getKey());
                    } catch (NumberFormatException e) {
                        throw y.getValue().problem("a year such as 2026, got '" + y.getKey() + "'");
                    }
                    Set<MonthDay> listed = new LinkedHashSet<>();
                    for (String d : y.getValue().texts()) {
                        try {
                            listed.add(MonthDay.parse("--" + d));
                        } catch (DateTimeParseException e) {
                            throw y.getValue().problem("a day such as 12-25, got '" + d + "'");
                        }
                    }
                    years.put(year, Set.copyOf(listed));
                }
            }
            if (days.isEmpty() && years.isEmpty()) {
                throw n.problem("give its 'days' (rules) or 'years' (each year's list)");
            }
            out.put(c.getKey(), new HolidayCalendar(c.getKey(), zone, YamlNode.required(f, "source", n).text(),
                    f.containsKey("note") ? f.get("note").text() : null, List.copyOf(days), Map.copyOf(years)));
        }
        return out;
    }

    private static ZoneId zone(YamlNode n) {
        try {
            return ZoneId.of(n.text());
        } catch (DateTimeException e) {
            throw n.problem("not a time zone such as Europe/Paris: '" + n.text() + "'");
        }
    }

    private static HolidayCalendar.Day holiday(YamlNode d) {
        String rule;
        int from = 0;
        int until = 0;
        if (d.isScalar()) {
            rule = d.text();
        } else {
            Map<String, YamlNode> m = d.map(Set.of("rule", "from", "until"));
            rule = YamlNode.required(m, "rule", d).text();
            from = m.containsKey("from") ? year(m.get("from")) : 0;
            until = m.containsKey("until") ? year(m.get("until")) : 0;
        }
        String problem = HolidayCalendar.Day.problem(rule);
        if (problem != null) {
            throw d.problem(problem);
        }
        return new HolidayCalendar.Day(rule, from, until);
    }

    private static int year(YamlNode n) {
        try {
            return Integer.parseInt(n.text());
        } catch (NumberFormatException e) {
            throw n.problem("a year such as 2026, got '" + n.text() + "'");
        }
    }

    private static Authorities authorities(YamlNode root) {
        Map<String, YamlNode> m = root.map(Set.of("sets", "authorities"));
        Map<String, Set<String>> sets = new LinkedHashMap<>();
        for (Map.Entry<String, YamlNode> s : YamlNode.required(m, "sets", root).map(null).entrySet()) {
            Set<String> codes = new LinkedHashSet<>();
            for (String c : s.getValue().texts()) {
                if (!CODE.matcher(c).matches()) {
                    throw s.getValue().problem("'" + c + "' is not a country code such as FR");
                }
                if (!codes.add(c)) {
                    throw s.getValue().problem("'" + c + "' is listed twice");
                }
            }
            sets.put(s.getKey(), Set.copyOf(codes));
        }
        Map<String, Map<String, Authorities.Authority>> byKind = new LinkedHashMap<>();
        Map<String, Authorities.Authority> named = new LinkedHashMap<>();
        YamlNode all = YamlNode.required(m, "authorities", root);
        for (Map.Entry<String, YamlNode> k : all.map(null).entrySet()) {
            boolean isNamed = k.getKey().equals("named");
            if (!isNamed && !BY_COUNTRY.contains(k.getKey())) {
                throw k.getValue().problem("unknown kind of authority; one of named, "
                        + String.join(", ", new TreeSet<>(BY_COUNTRY)));
            }
            Map<String, Authorities.Authority> entries = new LinkedHashMap<>();
            for (Map.Entry<String, YamlNode> a : k.getValue().map(null).entrySet()) {
                if (isNamed ? !ID.matcher(a.getKey()).matches() : !CODE.matcher(a.getKey()).matches()) {
                    throw a.getValue().problem(isNamed ? "a named authority's code is lower case, such as ico"
                            : "'" + a.getKey() + "' is not a country code such as FR");
                }
                Map<String, YamlNode> fields = a.getValue().map(isNamed
                        ? Set.of("name", "url", "source", "data_protection_authority_of")
                        : Set.of("name", "url", "source"));
                String of = fields.containsKey("data_protection_authority_of")
                        ? fields.get("data_protection_authority_of").text() : null;
                if (of != null && !CODE.matcher(of).matches()) {
                    throw fields.get("data_protection_authority_of").problem("'" + of
                            + "' is not a country code such as GB");
                }
                String url = YamlNode.required(fields, "url", a.getValue()).text();
                if (!url.startsWith("https://")) {
                    throw fields.get("url").problem("an authority's address starts with https://");
                }
                Map<String, String> names = texts(YamlNode.required(fields, "name", a.getValue()));
                entries.put(a.getKey(), new Authorities.Authority(a.getKey(), names.get("en"), url, names,
                        fields.containsKey("source") ? fields.get("source").text() : null, of));
            }
            if (isNamed) {
                named.putAll(entries);
            } else {
                byKind.put(k.getKey(), Map.copyOf(entries));
            }
        }
        return new Authorities(Map.copyOf(sets), Map.copyOf(byKind), Map.copyOf(named));
    }

    private static SeverityScales severity(YamlNode root) {
        Map<String, YamlNode> m = root.map(Set.of("source", "dpc", "ei", "cb", "levels"));
        Map<String, Double> dpc = new LinkedHashMap<>();
        double min = 1;
        double max = 4;
        for (Map.Entry<String, YamlNode> e : YamlNode.required(m, "dpc", root).map(null).entrySet()) {
            double v = e.getValue().number();
            switch (e.getKey()) {
                case "min" -> min = v;
                case "max" -> max = v;
                default -> dpc.put(e.getKey(), v);
            }
        }
        Map<String, Double> ei = numbers(YamlNode.required(m, "ei", root));
        Map<String, Map<String, Double>> cb = new LinkedHashMap<>();
        double malicious = 0;
        for (Map.Entry<String, YamlNode> e : YamlNode.required(m, "cb", root).map(
                Set.of("confidentiality", "integrity", "availability", "malicious")).entrySet()) {
            if (e.getKey().equals("malicious")) {
                malicious = e.getValue().number();
            } else {
                cb.put(e.getKey(), numbers(e.getValue()));
            }
        }
        NavigableMap<Double, String> levels = new TreeMap<>();
        for (Map.Entry<String, YamlNode> e : YamlNode.required(m, "levels", root).map(
                Set.of("LOW", "MEDIUM", "HIGH", "VERY_HIGH")).entrySet()) {
            levels.put(e.getValue().number(), e.getKey());
        }
        if (!List.copyOf(levels.values()).equals(List.of("LOW", "MEDIUM", "HIGH", "VERY_HIGH"))) {
            throw m.get("levels").problem("give LOW, MEDIUM, HIGH and VERY_HIGH with increasing lower bounds");
        }
        return new SeverityScales(YamlNode.required(m, "source", root).text(), Map.copyOf(dpc), min, max,
                Map.copyOf(ei), Map.copyOf(cb), malicious, Collections.unmodifiableNavigableMap(levels));
    }

    private static Map<String, Double> numbers(YamlNode n) {
        Map<String, Double> out = new LinkedHashMap<>();
        for (Map.Entry<String, YamlNode> e : n.map(null).entrySet()) {
            double v = e.getValue().number();
            if (v < 0) {
                throw e.getValue().problem("a score is at least 0");
            }
            out.put(e.getKey(), v);
        }
        return Map.copyOf(out);
    }
}
