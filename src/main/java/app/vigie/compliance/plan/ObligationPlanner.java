package app.vigie.compliance.plan;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import app.vigie.compliance.plan.Obligation.Condition;
import app.vigie.compliance.plan.Obligation.DueBasis;
import app.vigie.compliance.plan.Obligation.Status;
import app.vigie.compliance.rules.Authorities;
import app.vigie.compliance.rules.Clock;
import app.vigie.compliance.rules.ObligationRule;
import app.vigie.compliance.rules.ObligationRule.Kind;
import app.vigie.compliance.rules.ObligationRule.Party;
import app.vigie.compliance.rules.Regime;
import app.vigie.compliance.rules.RuleLoader;
import app.vigie.compliance.rules.RuleSet;

/**
 * Who must tell whom, by when, in one incident: the rules of compliance-rules/ applied to each affected tenant's
 * directory entry and case facts, and to the provider's own profile. Plain Java: facts in, obligations out, the
 * same answer for the same facts and {@code now}. See docs/obligations.md for every rule applied here.
 */
public final class ObligationPlanner {
    private final RuleSet rules;

    public ObligationPlanner(RuleSet rules) {
        this.rules = rules;
    }

    /** The incident's own facts: when Vigie detected it (the processor's awareness), whether it was dismissed. */
    public record IncidentFacts(Instant detectedAt, boolean dismissed, String dismissReason) {
    }

    /** An affected tenant: its directory entry and what is known of its case. */
    public record TenantCase(ControllerProfile profile, CaseFacts facts) {
    }

    /** A rule that applies to a party, with its regime. */
    private record Applicable(Regime regime, ObligationRule rule) {
    }

    /** A recipient resolved: its code in the obligation's key, its name and address, or why it is unknown. */
    private record Recipient(String code, String name, String url, String problem) {
    }

    /** The obligations of one party's case, computed rule by rule ({@code after:} clocks look up earlier ones). */
    private final class Case {
        final IncidentFacts incident;
        final ControllerProfile profile;
        final CaseFacts facts;
        final ProviderProfile provider;
        final Map<String, List<Completion>> completions;
        final Instant now;
        final Map<String, List<Obligation>> byRule = new HashMap<>();
        final Map<String, Applicable> rulesById = new LinkedHashMap<>();

        Case(IncidentFacts incident, ControllerProfile profile, CaseFacts facts, ProviderProfile provider,
                Map<String, List<Completion>> completions, Instant now) {
            this.incident = incident;
            this.profile = profile;
            this.facts = facts;
            this.provider = provider;
            this.completions = completions;
            this.now = now;
        }

        String tenant() {
            return profile == null ? null : profile.tenant();
        }

        List<Obligation> all(List<Applicable> applicable) {
            applicable.forEach(a -> rulesById.put(a.rule().id(), a));
            List<Obligation> out = new ArrayList<>();
            for (Applicable a : applicable) {
                out.addAll(of(a));
            }
            return out;
        }

        List<Obligation> of(Applicable a) {
            List<Obligation> done = byRule.get(a.rule().id());
            if (done == null) {
                done = new ArrayList<>();
                for (Recipient r : recipients(a.rule(), profile, provider)) {
                    done.add(obligation(a, r));
                }
                byRule.put(a.rule().id(), done);
            }
            return done;
        }

        private Obligation obligation(Applicable a, Recipient to) {
            ObligationRule r = a.rule();
            String key = Obligation.key(tenant(), r.id(), to.code());
            List<Completion> done = completions.getOrDefault(key, List.of()).stream()
                    .sorted(Comparator.comparing(Completion::doneAt)).toList();
            if (r.kind() == Kind.NONE) {
                Instant doneAt = done.isEmpty() ? null : done.get(0).doneAt();
                return new Obligation(tenant(), a.regime().id(), r.id(), r.kind(), r.holder(), to.code(), to.name(),
                        to.url(), r.trigger(), Condition.NOT_MET, r.note(), null, null, null, null, null,
                        doneAt == null ? Status.NOT_REQUIRED : Status.DONE, r.note(), doneAt, false, done, false,
                        false, r.source(), r.content());
            }
            String[] conditionNote = new String[1];
            Condition condition = condition(r, conditionNote);
            Instant start = start(r.clock(), r, to);
            String[] dueNote = new String[1];
            DueBasis[] basis = new DueBasis[1];
            Instant due = due(a, r, start, to, basis, dueNote);

            Instant doneAt = done.isEmpty() ? null : done.get(0).doneAt();
            if (r.kind() == Kind.PROCESSOR_ALERT && facts.controllerAwareAt() != null
                    && (doneAt == null || facts.controllerAwareAt().isBefore(doneAt))) {
                doneAt = facts.controllerAwareAt();  // the alert reaching the controller is its awareness
            }
            Status status;
            String reason = to.problem();
            if (doneAt != null) {
                status = Status.DONE;
            } else if (incident.dismissed()) {
                status = Status.NOT_REQUIRED;
                reason = "the incident was dismissed: " + incident.dismissReason();
            } else if (condition == Condition.NOT_MET) {
                status = Status.NOT_REQUIRED;
                reason = conditionNote[0];
            } else if (due != null && now.isAfter(due)) {
                status = Status.LATE;
            } else {
                status = Status.PENDING;
            }
            if (due == null && status != Status.DONE && status != Status.NOT_REQUIRED) {
                String clock = "its clock has not started: " + notStarted(r.clock());
                reason = reason == null ? clock : reason + "; " + clock;
            }
            return new Obligation(tenant(), a.regime().id(), r.id(), r.kind(), r.holder(), to.code(), to.name(),
                    to.url(), r.trigger(), condition, conditionNote[0], describe(r.clock(), r), start, due, basis[0],
                    dueNote[0], status, reason, doneAt, doneAt != null && due != null && doneAt.isAfter(due), done,
                    "reasons".equals(r.late()), r.phased(), r.source(), r.content());
        }

        private Condition condition(ObligationRule r, String[] note) {
            switch (r.trigger()) {
                case ALWAYS -> {
                    return Condition.MET;
                }
                case RISK -> {
                    Decision d = facts.decision(Decision.UNLIKELY_RISK);
                    if (d != null && d.value()) {
                        note[0] = "recorded as unlikely to result in a risk: " + d.justification();
                        return Condition.NOT_MET;
                    }
                    note[0] = "a risk is presumed: no finding that it is unlikely has been recorded";
                    return Condition.MET;
                }
                case HIGH_RISK -> {
                    if (facts.severity() == null) {
                        note[0] = "the severity has not been assessed: due as if the risk were high";
                        return Condition.UNDECIDED;
                    }
                    boolean high = facts.severity().equals("HIGH") || facts.severity().equals("VERY_HIGH");
                    note[0] = "severity " + facts.severity() + " (" + facts.severityBasis() + ")"
                            + (high ? "" : ": below high");
                    return high ? Condition.MET : Condition.NOT_MET;
                }
                default -> {
                    Decision d = facts.decision(r.decision());
                    if (d == null) {
                        note[0] = "awaiting the decision '" + r.decision() + "': due as if it held";
                        return Condition.UNDECIDED;
                    }
                    note[0] = (d.value() ? "decided '" : "decided not '") + r.decision() + "'"
                            + (d.justification() == null ? "" : ": " + d.justification());
                    return d.value() ? Condition.MET : Condition.NOT_MET;
                }
            }
        }

        /** When a clock started, or null when it has not. */
        private Instant start(Clock c, ObligationRule r, Recipient to) {
            return switch (c.origin()) {
                case PROCESSOR_AWARENESS -> incident.detectedAt();
                case CONTROLLER_AWARENESS -> profile == null ? incident.detectedAt() : facts.controllerAwareAt();
                case DECISION -> {
                    Decision d = facts.decision(r.decision());
                    yield d != null && d.value() ? d.at() : null;
                }
                case AFTER -> {
                    Applicable previous = rulesById.get(c.after());
                    if (previous == null) {
                        yield null;
                    }
                    List<Obligation> before = of(previous);
                    Optional<Obligation> same = before.stream().filter(o -> o.recipient().equals(to.code()))
                            .findFirst();
                    // the latest of them; unknown while any of them has no time
                    Instant latest = null;
                    for (Obligation o : same.isPresent() ? List.of(same.get()) : before) {
                        Instant t = o.doneAt() != null ? o.doneAt() : o.dueAt();
                        if (t == null) {
                            yield null;
                        }
                        latest = latest == null || t.isAfter(latest) ? t : latest;
                    }
                    yield latest;
                }
            };
        }

        private Instant due(Applicable a, ObligationRule r, Instant start, Recipient to, DueBasis[] basis,
                String[] note) {
            Duration contract = profile == null || r.holder() != Party.PROCESSOR || !r.contractual() ? null
                    : profile.contractualDelay();
            Instant due = null;
            if (r.due() == null) {
                if (start == null) {
                    return null;
                }
                if (contract != null) {
                    basis[0] = DueBasis.CONTRACT;
                    note[0] = "without undue delay; the DPA's " + contract;
                    return start.plus(contract);
                }
                basis[0] = DueBasis.TARGET;
                note[0] = "without undue delay; target " + r.target() + ", not a legal limit";
                return r.target().after(start, a.regime().zone());
            }
            if (start != null) {
                due = r.due().after(start, a.regime().zone());
                basis[0] = DueBasis.STATUTORY;
                note[0] = r.due().text();
                for (ObligationRule.Sooner s : r.sooner()) {
                    Decision d = facts.decision(s.decision());
                    Instant sooner = s.due().after(start, a.regime().zone());
                    if (d != null && d.value() && sooner.isBefore(due)) {
                        due = sooner;
                        note[0] = s.due().text() + " (" + s.decision() + ", " + s.source() + ")";
                    }
                }
            }
            if (r.cap() != null) {
                Instant capStart = start(r.cap().clock(), r, to);
                if (capStart != null) {
                    Instant cap = r.cap().due().after(capStart, a.regime().zone());
                    if (due == null || cap.isBefore(due)) {
                        due = cap;
                        basis[0] = DueBasis.STATUTORY;
                        note[0] = (start == null ? "" : r.due().text() + " after " + describe(r.clock(), r)
                                + ", ") + "at most " + r.cap().due().text() + " after "
                                + describe(r.cap().clock(), r);
                    }
                }
            }
            if (due != null && contract != null && start != null && start.plus(contract).isBefore(due)) {
                due = start.plus(contract);
                basis[0] = DueBasis.CONTRACT;
                note[0] = "the DPA's " + contract + " (the law allows " + r.due().text() + ")";
            }
            return due;
        }
    }

    /**
     * Every obligation of the incident, the provider's own first, then each tenant's, in the order of the rule
     * files. {@code completions} by {@link Obligation#key()}.
     */
    public List<Obligation> plan(IncidentFacts incident, ProviderProfile provider, CaseFacts providerFacts,
            List<TenantCase> tenants, Map<String, List<Completion>> completions, Instant now) {
        List<Obligation> out = new ArrayList<>(new Case(incident, null, providerFacts, provider, completions, now)
                .all(providerRules(provider)));
        for (TenantCase t : tenants) {
            out.addAll(new Case(incident, t.profile(), t.facts(), provider, completions, now)
                    .all(tenantRules(t.profile(), provider)));
        }
        return out;
    }

    /** The decisions that matter to a tenant's obligations (null: the provider's own), for validating input. */
    public Set<String> decisions(ControllerProfile profile, ProviderProfile provider) {
        Set<String> names = new TreeSet<>();
        for (Applicable a : profile == null ? providerRules(provider) : tenantRules(profile, provider)) {
            ObligationRule r = a.rule();
            if (r.decision() != null) {
                names.add(r.decision());
            }
            r.sooner().forEach(s -> names.add(s.decision()));
            if (r.trigger() == ObligationRule.Trigger.RISK) {
                names.add(Decision.UNLIKELY_RISK);
            }
        }
        return names;
    }

    private List<Applicable> providerRules(ProviderProfile provider) {
        List<Applicable> out = new ArrayList<>();
        for (Regime g : rules.regimes()) {
            if (provider.regimes().contains(g.id())
                    && g.appliesTo().matches(provider.country(), Set.of(), Set.of(), true)) {
                g.obligations().forEach(r -> out.add(new Applicable(g, r)));
            }
        }
        return out;
    }

    /**
     * A regime binds a tenant's controller when it matches the tenant's entry; its processor-held duties bind the
     * provider toward every controller when it matches the provider's establishment (an EEA processor alerts a US
     * controller under GDPR Art. 33(2)).
     */
    private List<Applicable> tenantRules(ControllerProfile p, ProviderProfile provider) {
        List<Applicable> out = new ArrayList<>();
        for (Regime g : rules.regimes()) {
            boolean tenant = p.mapped() && g.appliesTo().matches(p.country(), p.jurisdictions(), p.sectors(), false);
            boolean processor = provider.country() != null
                    && g.appliesTo().matches(provider.country(), Set.of(), Set.of(), false);
            for (ObligationRule r : g.obligations()) {
                if (tenant || processor && r.holder() == Party.PROCESSOR) {
                    out.add(new Applicable(g, r));
                }
            }
        }
        return out;
    }

    private List<Recipient> recipients(ObligationRule r, ControllerProfile p, ProviderProfile provider) {
        Authorities auth = rules.authorities();
        String kind = r.recipient();
        if (RuleLoader.BY_COUNTRY.contains(kind)) {
            List<String> countries = new ArrayList<>();
            if (p == null || r.holder() == Party.PROCESSOR) {
                countries.add(provider.country());
            } else if (p.country() != null && auth.of(kind, p.country()).isPresent()) {
                countries.add(p.country());
            } else {
                // a controller established elsewhere: every authority where its data subjects are
                new TreeSet<>(p.jurisdictions()).stream().filter(j -> auth.of(kind, j).isPresent())
                        .forEach(countries::add);
            }
            List<Recipient> out = new ArrayList<>();
            for (String c : countries) {
                Optional<Authorities.Authority> a = auth.of(kind, c);
                out.add(a.map(x -> new Recipient(kind + ":" + c, x.name(), x.url(), null))
                        .orElse(new Recipient(kind + ":" + c, null, null, "no " + kind + " of " + c
                                + " in compliance-rules/authorities.yaml: find the competent one")));
            }
            if (out.isEmpty()) {
                out.add(new Recipient(kind, null, null, "no " + kind + " found for the country "
                        + (p.country() == null ? "(unknown)" : p.country()) + " or the jurisdictions "
                        + p.jurisdictions() + " of the tenant: find the competent one"));
            }
            return out;
        }
        return List.of(switch (kind) {
            case "controller", "covered_entity" -> new Recipient(kind,
                    p == null ? null : p.mapped() ? p.legalName() : p.tenant(), null,
                    p != null && !p.mapped() ? "the tenant is not in the directory: its controller is unknown"
                            : null);
            case "data_subjects" -> new Recipient(kind, "the persons concerned", null, null);
            case "register" -> new Recipient(kind, "the controller's record of breaches", null, null);
            default -> auth.named(kind).map(x -> new Recipient(kind, x.name(), x.url(), null))
                    .orElse(new Recipient(kind, null, null, "unknown authority " + kind));
        });
    }

    private static String describe(Clock c, ObligationRule r) {
        return switch (c.origin()) {
            case PROCESSOR_AWARENESS -> "processor_awareness";
            case CONTROLLER_AWARENESS -> "controller_awareness";
            case DECISION -> "decision '" + r.decision() + "'";
            case AFTER -> "after " + c.after();
        };
    }

    private static String notStarted(Clock c) {
        return switch (c.origin()) {
            case PROCESSOR_AWARENESS -> "the incident has no detection time";
            case CONTROLLER_AWARENESS -> "our alert has not reached the controller yet";
            case DECISION -> "the decision has not been recorded";
            case AFTER -> "the obligation " + c.after() + " has no due time yet";
        };
    }
}
