package app.vigie.compliance.plan;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;

import app.vigie.compliance.plan.ObligationPlanner.IncidentFacts;
import app.vigie.compliance.plan.ObligationPlanner.TenantCase;

/**
 * The facts of {@code POST /api/obligations/plan} and of the {@code plan} command (docs/obligations-plan.md), read
 * and checked: every problem names its field. Plain Java over a Jackson tree; nothing is stored.
 *
 * @param now the time that decides PENDING versus LATE
 */
public record PlanRequest(Instant now, IncidentFacts incident, ProviderProfile provider, CaseFacts providerFacts,
        List<TenantCase> tenants, Map<String, List<Completion>> completions, Map<String, String> completionFields) {

    private static final Pattern CODE = Pattern.compile("[A-Z]{2}(-[A-Z0-9]{1,3})?");
    private static final Pattern WORD = Pattern.compile("[a-z][a-z0-9_-]{0,62}");
    private static final Pattern TENANT = Pattern.compile("[A-Za-z0-9._:-]{1,128}");
    private static final Set<String> STATUSES = Set.of("OPEN", "TRIAGED", "CONFIRMED", "CLOSED", "DISMISSED");
    private static final int TEXT_MAX = 4000;

    /** A field that does not hold: its path (such as {@code tenants[0].aware_at}) and what is wrong. */
    public static final class Invalid extends RuntimeException {
        private final String field;

        public Invalid(String field, String problem) {
            super("field '" + field + "': " + problem);
            this.field = field;
        }

        public String field() {
            return field;
        }
    }

    /**
     * Reads a request. {@code defaultProvider}: the configured profile, used when the request has no
     * {@code provider}; {@code planner} says which decisions and rules exist for each party; {@code serverNow}
     * when the request has no {@code now}.
     */
    public static PlanRequest read(JsonNode root, ProviderProfile defaultProvider, ObligationPlanner planner,
            Instant serverNow) {
        if (root == null || !root.isObject()) {
            throw new Invalid("(body)", "expected a JSON object with 'incident' and 'tenants'");
        }
        keys(root, "", Set.of("now", "incident", "provider", "tenants"));
        Instant now = root.hasNonNull("now") ? time(root.get("now"), "now") : serverNow;
        JsonNode inc = root.get("incident");
        if (inc == null || !inc.isObject()) {
            throw new Invalid("incident", "required: {\"detected_at\": \"2026-03-28T23:30:00Z\"}");
        }
        keys(inc, "incident.", Set.of("detected_at", "status", "status_reason"));
        if (!inc.hasNonNull("detected_at")) {
            throw new Invalid("incident.detected_at", "required (RFC 3339 with its offset)");
        }
        Instant detected = time(inc.get("detected_at"), "incident.detected_at");
        String status = inc.hasNonNull("status") ? text(inc.get("status"), "incident.status") : "OPEN";
        if (!STATUSES.contains(status)) {
            throw new Invalid("incident.status", "one of " + String.join(", ", new TreeSet<>(STATUSES))
                    + ", got '" + status + "'");
        }
        String reason = inc.hasNonNull("status_reason") ? text(inc.get("status_reason"), "incident.status_reason")
                : "no reason given";
        IncidentFacts incident = new IncidentFacts(detected, status.equals("DISMISSED"), reason);

        ProviderProfile provider = defaultProvider;
        CaseFacts providerFacts = CaseFacts.NONE;
        Map<String, List<Completion>> completions = new HashMap<>();
        Map<String, String> fields = new HashMap<>();
        JsonNode p = root.get("provider");
        if (p != null && !p.isNull()) {
            if (!p.isObject()) {
                throw new Invalid("provider", "expected an object");
            }
            keys(p, "provider.", Set.of("country", "regimes", "decisions", "completions"));
            String country = p.hasNonNull("country") ? code(p.get("country"), "provider.country")
                    : defaultProvider.country();
            Set<String> regimes = p.has("regimes") ? new LinkedHashSet<>(words(p.get("regimes"), "provider.regimes"))
                    : defaultProvider.regimes();
            for (String r : regimes) {
                if (!planner.regimes().contains(r)) {
                    throw new Invalid("provider.regimes", "'" + r + "' is not a regime of compliance-rules/ ("
                            + String.join(", ", planner.regimes()) + ")");
                }
            }
            provider = new ProviderProfile(country, Set.copyOf(regimes));
            providerFacts = new CaseFacts(null, null, null,
                    decisions(p.get("decisions"), "provider.decisions", planner.decisions(null, provider)), null,
                    null, CaseFacts.Exposure.VICTIM);
            completions(p.get("completions"), "provider.completions", null, completions, fields);
        }

        List<TenantCase> tenants = new ArrayList<>();
        JsonNode ts = root.get("tenants");
        if (ts != null && !ts.isNull()) {
            if (!ts.isArray()) {
                throw new Invalid("tenants", "expected a list of tenants");
            }
            Set<String> seen = new HashSet<>();
            for (int i = 0; i < ts.size(); i++) {
                String at = "tenants[" + i + "]";
                TenantCase t = tenant(ts.get(i), at, provider, planner, completions, fields);
                if (!seen.add(t.profile().tenant())) {
                    throw new Invalid(at + ".id", "tenant '" + t.profile().tenant() + "' is given twice");
                }
                tenants.add(t);
            }
        }
        for (int i = 0; i < tenants.size(); i++) {
            CaseFacts f = tenants.get(i).facts();
            notBefore(f.alertDeliveredAt(), detected, "tenants[" + i + "].alert_delivered_at");
            notBefore(f.recordedAwareAt(), detected, "tenants[" + i + "].aware_at");
            for (Decision d : f.decisions().values()) {
                notBefore(d.at(), detected, "tenants[" + i + "].decisions." + d.name() + ".decided_at");
            }
        }
        for (Decision d : providerFacts.decisions().values()) {
            notBefore(d.at(), detected, "provider.decisions." + d.name() + ".decided_at");
        }
        for (Map.Entry<String, List<Completion>> c : completions.entrySet()) {
            for (Completion x : c.getValue()) {
                notBefore(x.doneAt(), detected, fields.get(c.getKey()) + ".done_at");
            }
        }
        return new PlanRequest(now, incident, provider, providerFacts, List.copyOf(tenants), completions, fields);
    }

    /**
     * The plan these facts give. A completion of no obligation of the plan is refused, as the case API refuses it
     * (a misspelt rule or recipient would otherwise count for nothing, silently).
     */
    public List<Obligation> plan(ObligationPlanner planner) {
        List<Obligation> plan = planner.plan(incident, provider, providerFacts, tenants, completions, now);
        Set<String> keys = new HashSet<>();
        plan.forEach(o -> keys.add(o.key()));
        for (Map.Entry<String, String> c : new TreeMap<>(completionFields).entrySet()) {
            if (!keys.contains(c.getKey())) {
                String[] k = c.getKey().split("\\|", -1);
                throw new Invalid(c.getValue(), "no obligation " + k[1] + " toward " + k[2] + " in "
                        + (k[0].isEmpty() ? "the provider's case" : "tenant " + k[0] + "'s case") + "; there are: "
                        + String.join(", ", plan.stream().filter(o -> Objects.equals(
                                o.tenant() == null ? "" : o.tenant(), k[0]))
                                .map(o -> o.rule() + " toward " + o.recipient()).toList()));
            }
        }
        return plan;
    }

    private static TenantCase tenant(JsonNode t, String at, ProviderProfile provider, ObligationPlanner planner,
            Map<String, List<Completion>> completions, Map<String, String> fields) {
        if (t == null || !t.isObject()) {
            throw new Invalid(at, "expected an object with at least 'id'");
        }
        keys(t, at + ".", Set.of("id", "mapped", "legal_name", "country", "main_establishment", "jurisdictions",
                "sectors", "alert_delay", "processor_is_agent", "exposure", "alert_delivered_at", "aware_at",
                "severity", "decisions", "completions"));
        if (!t.hasNonNull("id")) {
            throw new Invalid(at + ".id", "required: the tenant's name in the page audit log");
        }
        String id = text(t.get("id"), at + ".id");
        if (!TENANT.matcher(id).matches()) {
            throw new Invalid(at + ".id", "letters, digits and . _ : - (at most 128), got '" + id + "'");
        }
        boolean mapped = !t.has("mapped") || bool(t.get("mapped"), at + ".mapped");
        ControllerProfile profile;
        if (!mapped) {
            for (String k : List.of("legal_name", "country", "main_establishment", "jurisdictions", "sectors",
                    "alert_delay", "processor_is_agent")) {
                if (t.has(k)) {
                    throw new Invalid(at + "." + k, "a tenant missing from the directory ('mapped': false) has no "
                            + "directory entry: give only its id and the facts of its case");
                }
            }
            profile = ControllerProfile.unmapped(id);
        } else {
            Duration delay = null;
            if (t.hasNonNull("alert_delay")) {
                try {
                    delay = Duration.parse(text(t.get("alert_delay"), at + ".alert_delay"));
                } catch (DateTimeParseException e) {
                    throw new Invalid(at + ".alert_delay", "an ISO-8601 duration such as PT24H");
                }
                if (delay.isNegative() || delay.isZero()) {
                    throw new Invalid(at + ".alert_delay", "must be more than zero");
                }
            }
            profile = new ControllerProfile(id, true,
                    t.hasNonNull("legal_name") ? text(t.get("legal_name"), at + ".legal_name") : id,
                    t.hasNonNull("country") ? code(t.get("country"), at + ".country") : null,
                    Set.copyOf(codes(t.get("jurisdictions"), at + ".jurisdictions")),
                    Set.copyOf(words(t.get("sectors"), at + ".sectors")), delay,
                    t.has("processor_is_agent") && bool(t.get("processor_is_agent"), at + ".processor_is_agent"),
                    // the lead authority's country (GDPR Art. 4(16), 56(1))
                    t.hasNonNull("main_establishment") ? code(t.get("main_establishment"), at + ".main_establishment")
                            : null);
        }
        CaseFacts.Exposure exposure = CaseFacts.Exposure.VICTIM;
        if (t.hasNonNull("exposure")) {
            String e = text(t.get("exposure"), at + ".exposure");
            try {
                exposure = CaseFacts.Exposure.valueOf(e.toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException x) {
                throw new Invalid(at + ".exposure", "one of victim, recipient, both; got '" + e + "'");
            }
        }
        String severity = null;
        if (t.hasNonNull("severity")) {
            severity = text(t.get("severity"), at + ".severity");
            if (!CaseFacts.LEVELS.contains(severity)) {
                throw new Invalid(at + ".severity", "one of LOW, MEDIUM, HIGH, VERY_HIGH or null; got '" + severity
                        + "'");
            }
        }
        Instant delivered = t.hasNonNull("alert_delivered_at")
                ? time(t.get("alert_delivered_at"), at + ".alert_delivered_at") : null;
        Instant aware = t.hasNonNull("aware_at") ? time(t.get("aware_at"), at + ".aware_at") : null;
        Map<String, Decision> decisions = decisions(t.get("decisions"), at + ".decisions",
                planner.decisions(profile, provider));
        completions(t.get("completions"), at + ".completions", id, completions, fields);
        return new TenantCase(profile, new CaseFacts(delivered, aware, aware == null ? null : "recorded", decisions,
                severity, severity == null ? null : "the assessed level given", exposure));
    }

    private static Map<String, Decision> decisions(JsonNode n, String at, Set<String> allowed) {
        Map<String, Decision> out = new LinkedHashMap<>();
        if (n == null || n.isNull()) {
            return out;
        }
        if (!n.isObject()) {
            throw new Invalid(at, "expected an object: {\"major\": {\"value\": true, \"decided_at\": \"...\"}}");
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String field = at + "." + e.getKey();
            if (!allowed.contains(e.getKey())) {
                throw new Invalid(field, "not a decision of this party's rules; one of "
                        + (allowed.isEmpty() ? "(none)" : String.join(", ", allowed)));
            }
            JsonNode d = e.getValue();
            if (d == null || !d.isObject()) {
                throw new Invalid(field, "expected {\"value\": true, \"decided_at\": \"...\"}");
            }
            keys(d, field + ".", Set.of("value", "decided_at", "justification"));
            if (!d.has("value")) {
                throw new Invalid(field + ".value", "required: true or false");
            }
            if (!d.hasNonNull("decided_at")) {
                throw new Invalid(field + ".decided_at", "required (RFC 3339 with its offset)");
            }
            out.put(e.getKey(), new Decision(e.getKey(), bool(d.get("value"), field + ".value"),
                    time(d.get("decided_at"), field + ".decided_at"),
                    d.hasNonNull("justification") ? text(d.get("justification"), field + ".justification") : null));
        }
        return out;
    }

    private static void completions(JsonNode n, String at, String tenant, Map<String, List<Completion>> out,
            Map<String, String> fields) {
        if (n == null || n.isNull()) {
            return;
        }
        if (!n.isArray()) {
            throw new Invalid(at, "expected a list of {\"rule\", \"recipient\", \"done_at\"}");
        }
        for (int i = 0; i < n.size(); i++) {
            String field = at + "[" + i + "]";
            JsonNode c = n.get(i);
            if (c == null || !c.isObject()) {
                throw new Invalid(field, "expected {\"rule\", \"recipient\", \"done_at\"}");
            }
            keys(c, field + ".", Set.of("rule", "recipient", "done_at", "phase", "late_reasons", "evidence"));
            for (String k : List.of("rule", "recipient", "done_at")) {
                if (!c.hasNonNull(k)) {
                    throw new Invalid(field + "." + k, "required");
                }
            }
            String phase = c.hasNonNull("phase") ? text(c.get("phase"), field + ".phase") : null;
            if (phase != null && !Set.of("INITIAL", "COMPLEMENTARY").contains(phase)) {
                throw new Invalid(field + ".phase", "INITIAL or COMPLEMENTARY, got '" + phase + "'");
            }
            Instant done = time(c.get("done_at"), field + ".done_at");
            String key = Obligation.key(tenant, text(c.get("rule"), field + ".rule"),
                    text(c.get("recipient"), field + ".recipient"));
            fields.putIfAbsent(key, field);
            out.computeIfAbsent(key, k -> new ArrayList<>())
                    .add(new Completion(phase, done, c.hasNonNull("evidence") ? text(c.get("evidence"),
                            field + ".evidence") : null, c.hasNonNull("late_reasons")
                            ? text(c.get("late_reasons"), field + ".late_reasons") : null, "plan", done));
        }
    }

    private static void keys(JsonNode n, String prefix, Set<String> allowed) {
        for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (!allowed.contains(k)) {
                throw new Invalid(prefix + k, "unknown; expected one of "
                        + String.join(", ", new TreeSet<>(allowed)));
            }
        }
    }

    private static String text(JsonNode n, String field) {
        if (!n.isTextual()) {
            throw new Invalid(field, "expected a string");
        }
        String s = n.asText();
        if (s.length() > TEXT_MAX) {
            throw new Invalid(field, "at most " + TEXT_MAX + " characters");
        }
        return s;
    }

    private static boolean bool(JsonNode n, String field) {
        if (!n.isBoolean()) {
            throw new Invalid(field, "expected true or false");
        }
        return n.asBoolean();
    }

    private static Instant time(JsonNode n, String field) {
        String s = text(n, field);
        try {
            return OffsetDateTime.parse(s).toInstant();
        } catch (DateTimeParseException e) {
            throw new Invalid(field, "not an RFC 3339 time with its offset, such as 2026-10-25T02:30:00+01:00: '"
                    + s + "'");
        }
    }

    private static final Set<String> COUNTRIES = Set.of(Locale.getISOCountries());

    private static String code(JsonNode n, String field) {
        String s = text(n, field);
        if (!CODE.matcher(s).matches() || !COUNTRIES.contains(s.substring(0, 2))) {
            throw new Invalid(field, "an ISO 3166 code such as FR or GB (US-CA for a state), got '" + s + "'");
        }
        return s;
    }

    /** The facts' times: none before the incident's detection, as the case API refuses them. */
    private static void notBefore(Instant t, Instant detected, String field) {
        if (t != null && t.isBefore(detected)) {
            throw new Invalid(field, "before the incident was detected (" + detected + ")");
        }
    }

    private static List<String> codes(JsonNode n, String field) {
        List<String> out = new ArrayList<>();
        for (JsonNode x : list(n, field)) {
            out.add(code(x, field));
        }
        return out;
    }

    private static List<String> words(JsonNode n, String field) {
        List<String> out = new ArrayList<>();
        for (JsonNode x : list(n, field)) {
            String s = text(x, field);
            if (!WORD.matcher(s).matches()) {
                throw new Invalid(field, "a lower-case code such as financial, got '" + s + "'");
            }
            out.add(s);
        }
        return out;
    }

    private static List<JsonNode> list(JsonNode n, String field) {
        List<JsonNode> out = new ArrayList<>();
        if (n == null || n.isNull()) {
            return out;
        }
        if (!n.isArray()) {
            throw new Invalid(field, "expected a list");
        }
        n.forEach(out::add);
        return out;
    }
}
