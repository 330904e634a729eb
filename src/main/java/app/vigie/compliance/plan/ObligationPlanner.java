package app.vigie.compliance.plan;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
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
import app.vigie.compliance.plan.Obligation.ReasonCode;
import app.vigie.compliance.plan.Obligation.Status;
import app.vigie.compliance.rules.Authorities;
import app.vigie.compliance.rules.Clock;
import app.vigie.compliance.rules.HolidayCalendar;
import app.vigie.compliance.rules.InForce;
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
    private record Recipient(String code, String name, String url, Note problem) {
    }

    /** A condition with its reason code and words, or a reason alone. */
    private record Note(Condition condition, ReasonCode code, String text) {
        Note(ReasonCode code, String text) {
            this(null, code, text);
        }
    }

    /** The obligations of one party's case, computed rule by rule ({@code after:} clocks look up earlier ones). */
    private final class Case {
        final IncidentFacts incident;
        final ControllerProfile profile;
        final CaseFacts facts;
        final ProviderProfile provider;
        final Map<String, List<Completion>> completions;
        final Instant now;
        /** The earliest instant, at or after {@link #now}, a status or due time below was judged against. */
        final Instant[] changes;
        final Map<String, List<Obligation>> byRule = new HashMap<>();
        final Map<String, Applicable> rulesById = new LinkedHashMap<>();

        Case(IncidentFacts incident, ControllerProfile profile, CaseFacts facts, ProviderProfile provider,
                Map<String, List<Completion>> completions, Instant now, Instant[] changes) {
            this.incident = incident;
            this.profile = profile;
            this.facts = facts;
            this.provider = provider;
            this.completions = completions;
            this.now = now;
            this.changes = changes;
        }

        /**
         * Whether {@link #now} is after {@code t}, noting {@code t} when it is not yet (from just after it, the same
         * facts plan otherwise: see {@link Planned#changesAfter}).
         */
        boolean passed(Instant t) {
            if (now.isAfter(t)) {
                return true;
            }
            if (changes[0] == null || t.isBefore(changes[0])) {
                changes[0] = t;
            }
            return false;
        }

        String tenant() {
            return profile == null ? null : profile.tenant();
        }

        List<Obligation> all(List<Applicable> all) {
            // a version of a rule that a later one replaced (its 'until' passed on the day of detection) is not
            // listed: its successor is; one not in force yet is listed as NOT_IN_FORCE
            List<Applicable> applicable = all.stream().filter(a -> !superseded(a)).toList();
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
            Instant doneAt = done.isEmpty() ? null : done.get(0).doneAt();
            if (r.kind() == Kind.NONE) {
                return new Obligation(tenant(), a.regime().id(), r.id(), r.kind(), r.holder(), to.code(), to.name(),
                        to.url(), r.trigger(), Condition.NOT_MET, r.note(), null, null, null, null, null, null,
                        doneAt == null ? Status.NOT_REQUIRED : Status.DONE,
                        doneAt == null ? ReasonCode.NO_DUTY : null, doneAt == null ? r.note() : null, doneAt, false,
                        done, false, false, false, r.source(), r.content());
            }
            Note condition = condition(r);
            if (r.note() != null) {
                condition = new Note(condition.condition(), condition.code(),
                        condition.text() == null ? r.note() : condition.text() + ". " + r.note());
            }
            Instant start = start(r.clock(), r, to);
            String[] dueNote = new String[1];
            DueBasis[] basis = new DueBasis[1];
            Instant outer = outer(a, r, start);
            Instant due = due(a, r, start, to, basis, dueNote, outer);
            Note inForce = inForce(a);

            if (r.kind() == Kind.PROCESSOR_ALERT && facts.alertDeliveredAt() != null
                    && (doneAt == null || facts.alertDeliveredAt().isBefore(doneAt))) {
                doneAt = facts.alertDeliveredAt();  // delivered: the controller is informed (GDPR Art. 33(2))
            }
            Status status;
            Note why = to.problem();
            Instant lateAfter = Obligation.lateAfter(basis[0], due, outer);
            if (doneAt != null) {
                status = Status.DONE;
            } else if (incident.dismissed()) {
                status = Status.NOT_REQUIRED;
                why = new Note(ReasonCode.DISMISSED, "the incident was dismissed: " + incident.dismissReason());
            } else if (inForce != null && inForce.code() == ReasonCode.NOT_IN_FORCE) {
                status = Status.NOT_REQUIRED;
                why = inForce;
            } else if (!exposed(r)) {
                status = Status.NOT_REQUIRED;
                why = new Note(ReasonCode.NOT_EXPOSED, "the tenant only received other tenants' tokens: none of its "
                        + "requests' data was read by another, so no breach of its own data is recorded; whether "
                        + "the foreign data it received affects its processing is for its controller to assess");
            } else if (condition.condition == Condition.NOT_MET) {
                status = Status.NOT_REQUIRED;
                why = new Note(condition.code, condition.text);
            } else if (lateAfter != null && passed(lateAfter)) {
                status = Status.LATE;
            } else {
                status = Status.PENDING;
            }
            if (status == Status.PENDING || status == Status.LATE) {
                if (why == null && inForce != null) {
                    why = inForce;  // transposition unknown: planned as if in force
                }
                if (why == null && condition.code != null) {
                    why = new Note(condition.code, condition.text);
                }
                if (due == null) {
                    String clock = r.asRequested() && start != null
                            ? "due by the time the recipient sets in its request"
                            : "its clock has not started: " + notStarted(r.clock(), r);
                    why = why == null ? new Note(r.asRequested() && start != null ? null
                            : ReasonCode.CLOCK_NOT_STARTED, clock) : new Note(why.code(), why.text() + "; " + clock);
                }
            }
            if (to.problem() != null && why != null && why.code() != to.problem().code()) {
                why = new Note(why.code(), why.text() + "; " + to.problem().text());  // the recipient stays said
            }
            return new Obligation(tenant(), a.regime().id(), r.id(), r.kind(), r.holder(), to.code(), to.name(),
                    to.url(), r.trigger(), condition.condition, condition.text, describe(r.clock(), r), start, due,
                    basis[0], dueNote[0], outer, status, why == null ? null : why.code(),
                    why == null ? null : why.text(), doneAt,
                    doneAt != null && lateAfter != null && doneAt.isAfter(lateAfter), done, "reasons".equals(r.late()),
                    r.phased(), r.repeatable(), r.source(), r.content());
        }

        private boolean superseded(Applicable a) {
            LocalDate until = a.rule().inForce().until();
            return until != null && !day(a).isBefore(until);
        }

        /** The day of detection in the regime's zone: the day a rule's period of application is judged on. */
        private LocalDate day(Applicable a) {
            return incident.detectedAt().atZone(a.regime().zone()).toLocalDate();
        }

        /** Whether the tenant was exposed the way the rule concerns (the provider's own case always is). */
        private boolean exposed(ObligationRule r) {
            if (profile == null) {
                return true;
            }
            return facts.exposure().victim() && r.exposure().contains("victim")
                    || facts.exposure().recipient() && r.exposure().contains("recipient");
        }

        /**
         * Null when the rule is in force on the day of detection; NOT_IN_FORCE when it is not yet (not required);
         * TRANSPOSITION_UNKNOWN when the Member State's transposition is not known to be in force (planned as due).
         * A rule past its {@code until} is not planned at all ({@link #superseded}).
         */
        private Note inForce(Applicable a) {
            InForce f = a.rule().inForce();
            LocalDate day = day(a);
            if (f.from() != null && day.isBefore(f.from())) {
                return new Note(ReasonCode.NOT_IN_FORCE, "not in force on " + day + ": applies from " + f.from()
                        + " (" + f.source() + ")");
            }
            if (!f.perCountry()) {
                return null;
            }
            String country = profile == null || a.rule().holder() == Party.PROCESSOR ? provider.country()
                    : profile.country();
            InForce.Transposition t = country == null ? null : f.byCountry().get(country);
            if (t == null || t.from() == null) {
                return new Note(ReasonCode.TRANSPOSITION_UNKNOWN, "whether " + (country == null ? "the Member State"
                        : country) + "'s transposition is in force on " + day + " is not known"
                        + (t == null ? " to compliance-rules/" : ": " + t.note())
                        + "; planned as if it were: check it before relying on it");
            }
            if (day.isBefore(t.from())) {
                return new Note(ReasonCode.NOT_IN_FORCE, "not in force in " + country + " on " + day
                        + ": its transposition applies from " + t.from() + (t.note() == null ? "" : " at the earliest")
                        + " (" + t.source() + ")");
            }
            if (t.note() != null) {
                return new Note(ReasonCode.TRANSPOSITION_UNKNOWN, "whether " + country + "'s transposition applies "
                        + "on " + day + " is not known: " + t.note() + "; planned as if it did: check it before "
                        + "relying on it");
            }
            return null;
        }

        private Note condition(ObligationRule r) {
            String exception = null;
            Decision unless = null;
            for (String e : r.exceptions()) {
                Decision d = decision(r, e);
                if (d != null && d.value()) {
                    exception = e;
                    unless = d;
                    break;
                }
            }
            if (unless != null) {
                if (r.trigger() == ObligationRule.Trigger.RISK && highSeverity()) {
                    return new Note(Condition.UNDECIDED, ReasonCode.CONTRADICTION, "recorded '" + exception
                            + "' while the severity is " + facts.severity() + ": the two contradict each other; "
                            + "planned as due until one of them is corrected");
                }
                return new Note(Condition.NOT_MET, ReasonCode.EXCEPTION_RECORDED, "recorded '" + exception + "'"
                        + (unless.justification() == null ? "" : ": " + unless.justification()));
            }
            switch (r.trigger()) {
                case ALWAYS -> {
                    return new Note(Condition.MET, null, null);
                }
                case RISK -> {
                    return new Note(Condition.MET, null, "a risk is presumed: '" + r.exceptions().get(0)
                            + "' is not recorded");
                }
                case HIGH_RISK -> {
                    if (!r.decisions().isEmpty()) {
                        // a duty in place of another, once its holder records why (GDPR Art. 34(3)(c)): only where
                        // the other is due, at a high risk
                        Note decided = decisions(r);
                        if (decided.condition() != Condition.MET) {
                            return decided;
                        }
                    }
                    if (facts.severity() == null) {
                        return new Note(Condition.UNDECIDED, ReasonCode.AWAITING_DECISION,
                                "the severity has not been assessed: due as if the risk were high");
                    }
                    boolean high = highSeverity();
                    return new Note(high ? Condition.MET : Condition.NOT_MET, high ? null : ReasonCode.BELOW_HIGH_RISK,
                            "severity " + facts.severity() + (high ? "" : ": below high"));
                }
                default -> {
                    return decisions(r);
                }
            }
        }

        /** The condition of a rule's {@code decision} facts, all of which must hold. */
        private Note decisions(ObligationRule r) {
            List<String> parts = new ArrayList<>();
            List<String> undecided = new ArrayList<>();
            for (String name : r.decisions()) {
                Decision d = decision(r, name);
                if (d == null) {
                    undecided.add(name);
                } else if (!d.value()) {
                    return new Note(Condition.NOT_MET, ReasonCode.DECIDED_NOT, "decided not '" + name + "'"
                            + (d.justification() == null ? "" : ": " + d.justification()));
                } else {
                    parts.add("decided '" + name + "'" + (d.justification() == null ? ""
                            : ": " + d.justification()));
                }
            }
            if (undecided.isEmpty()) {
                return new Note(Condition.MET, null, String.join("; ", parts));
            }
            String awaiting = "awaiting the decision " + undecided.stream().map(x -> "'" + x + "'")
                    .reduce((x, y) -> x + " and " + y).orElseThrow();
            if (!r.assumeHeld()) {
                return new Note(Condition.NOT_MET, ReasonCode.AWAITING_DECISION, awaiting
                        + ": not due unless it is recorded true");
            }
            return new Note(Condition.UNDECIDED, ReasonCode.AWAITING_DECISION, awaiting
                    + ": due as if it held");
        }

        /**
         * A decision as recorded or, when it is not, as it follows from another under the rule's regime
         * ({@code implies}): 500 or more persons recorded false settles "more than 500 residents of a State".
         */
        private Decision decision(ObligationRule r, String name) {
            Decision d = facts.decision(name);
            Applicable a = rulesById.get(r.id());
            if (d != null || a == null) {
                return d;
            }
            for (Regime.Implication i : a.regime().implies()) {
                Decision premise = i.conclusion().equals(name) ? facts.decision(i.premise()) : null;
                if (premise != null && premise.value()) {
                    return new Decision(name, true, premise.at(), "follows from '" + i.premise() + "' recorded ("
                            + i.source() + ")");
                }
                Decision conclusion = i.premise().equals(name) ? facts.decision(i.conclusion()) : null;
                if (conclusion != null && !conclusion.value()) {
                    return new Decision(name, false, conclusion.at(), "follows from not '" + i.conclusion()
                            + "' recorded (" + i.source() + ")");
                }
            }
            return null;
        }

        private boolean highSeverity() {
            return "HIGH".equals(facts.severity()) || "VERY_HIGH".equals(facts.severity());
        }

        /** When a clock started, or null when it has not. */
        private Instant start(Clock c, ObligationRule r, Recipient to) {
            return switch (c.origin()) {
                case PROCESSOR_AWARENESS -> processorAwareness();
                case CONTROLLER_AWARENESS -> controllerAwareness(r);
                case YEAR_END -> {
                    Instant aware = controllerAwareness(r);
                    ZoneId zone = rulesById.get(r.id()).regime().zone();
                    yield aware == null ? null : LocalDate.of(aware.atZone(zone).getYear() + 1, 1, 1)
                            .atStartOfDay(zone).toInstant();
                }
                case DECISION -> {
                    Decision d = decision(r, c.ref() != null ? c.ref() : r.decision());
                    yield d != null && d.value() ? d.at() : null;
                }
                case AFTER -> {
                    // the latest of them (a report not required does not count); unknown while one has no time
                    Instant latest = null;
                    boolean any = false;
                    for (String ref : c.afterAll()) {
                        Applicable previous = rulesById.get(ref);
                        if (previous == null) {
                            continue;
                        }
                        List<Obligation> before = of(previous);
                        Optional<Obligation> same = before.stream().filter(o -> o.recipient().equals(to.code()))
                                .findFirst();
                        for (Obligation o : same.isPresent() ? List.of(same.get()) : before) {
                            if (o.status() == Status.NOT_REQUIRED && c.afterAll().size() > 1) {
                                continue;
                            }
                            any = true;
                            Instant t = o.doneAt() == null ? o.dueAt() : o.repeatable() ? o.lastDoneAt()
                                    : o.doneAt();
                            if (t == null) {
                                yield null;
                            }
                            latest = latest == null || t.isAfter(latest) ? t : latest;
                        }
                    }
                    yield any ? latest : null;
                }
            };
        }

        /** The controller's awareness; the provider's discovery in its own case, or where it is imputed. */
        private Instant controllerAwareness(ObligationRule r) {
            if (profile == null) {
                return incident.detectedAt();
            }
            Instant aware = facts.controllerAwareAt();
            if (r.imputed() && profile.processorIsAgent()) {
                // the agent's discovery is the principal's, unless the principal knew earlier
                Instant discovered = processorAwareness();
                return aware != null && aware.isBefore(discovered) ? aware : discovered;
            }
            return aware;
        }

        /**
         * When the processor became aware of the breach of this case: the incident's detection, or later for a tenant
         * whose exposures were possible only until the DPO decided they are a breach (spec 1.3, amendment 3).
         */
        private Instant processorAwareness() {
            return facts.processorAwareAt() != null ? facts.processorAwareAt() : incident.detectedAt();
        }

        /**
         * The law's bound of an open-ended duty: its {@code outer_limit} from the clock, or a shorter one its
         * {@code sooner} decisions give (the AI Act's 10 days on a death, 2 on a widespread infringement).
         */
        private Instant outer(Applicable a, ObligationRule r, Instant start) {
            if (r.outerLimit() == null || start == null) {
                return null;
            }
            Instant outer = r.outerLimit().after(start, a.regime().zone());
            for (ObligationRule.Sooner s : r.sooner()) {
                Decision d = decision(r, s.decision());
                Instant sooner = s.due().after(start, a.regime().zone());
                if (d != null && d.value() && sooner.isBefore(outer)) {
                    outer = sooner;
                }
            }
            return outer;
        }

        private Instant due(Applicable a, ObligationRule r, Instant start, Recipient to, DueBasis[] basis,
                String[] note, Instant outer) {
            Duration contract = profile == null || r.holder() != Party.PROCESSOR || !r.contractual() ? null
                    : profile.contractualDelay();
            Instant due = null;
            if (r.due() == null) {
                if (start == null || r.asRequested()) {
                    return null;
                }
                if (contract != null && (outer == null || !outer.isBefore(start.plus(contract)))) {
                    basis[0] = DueBasis.CONTRACT;
                    note[0] = "without undue delay; the DPA's " + contract;
                    return start.plus(contract);
                }
                Instant target = r.target().after(start, a.regime().zone());
                if (outer != null && (outer.isBefore(target) || contract != null)) {
                    // the law's bound comes first (a DPA cannot give more time than the law)
                    basis[0] = DueBasis.STATUTORY;
                    note[0] = "without unreasonable delay, at most " + r.outerLimit();
                    return outer;
                }
                basis[0] = DueBasis.TARGET;
                note[0] = "without undue delay; target " + r.target() + ", not a legal limit"
                        + (r.outerLimit() == null ? "" : "; the law's limit: " + r.outerLimit());
                return target;
            }
            if (start != null) {
                due = r.due().after(start, a.regime().zone());
                basis[0] = DueBasis.STATUTORY;
                note[0] = r.due().text();
                for (ObligationRule.Sooner s : r.sooner()) {
                    Decision d = decision(r, s.decision());
                    Instant sooner = s.due().after(start, a.regime().zone());
                    if (d != null && d.value() && sooner.isBefore(due)) {
                        due = sooner;
                        note[0] = s.due().text() + " (" + s.decision() + ", " + s.source() + ")";
                    }
                }
            }
            if (r.cap() != null) {
                Instant capStart = start(r.cap().clock(), r, to);
                Instant capAt = capStart == null ? null : r.cap().due().after(capStart, a.regime().zone());
                if (capAt != null && r.cap().lapses() && (start != null ? start.isAfter(capAt) : passed(capAt))) {
                    // decided after the cap expired, or still undecided past it: the rule's own period, from the
                    // decision (Delegated Regulation 2025/301 Art. 5(2))
                    capStart = null;
                    note[0] = start == null ? null : r.due().text() + " after " + describe(r.clock(), r)
                            + " (decided after the " + r.cap().due().text() + " limit from "
                            + describe(r.cap().clock(), r) + ")";
                }
                if (capStart != null) {
                    Instant cap = capAt;
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
            if (due != null && r.relief() != null && basis[0] == DueBasis.STATUTORY) {
                due = relieved(r, due, note);
            }
            return due;
        }

        /**
         * A time limit that falls on a weekend day or a holiday of the tenant's country moves to noon of its next
         * working day, for an entity the relief is for (Delegated Regulation 2025/301 Art. 5(4)-(5)); for another,
         * or one whose type is not recorded, it stays, and the note says what the relief would give.
         */
        private Instant relieved(ObligationRule r, Instant due, String[] note) {
            String country = profile == null ? provider.country() : profile.country();
            HolidayCalendar calendar = country == null ? null : rules.holidays().get(country);
            if (calendar == null) {
                // neither its holidays nor its clock known: a relief computed on another country's could be false
                note[0] = note[0] + "; the holidays and time zone of " + (country == null ? "its country" : country)
                        + " are not in compliance-rules/holidays.yaml: a relief for a weekend day or holiday ("
                        + r.relief().source() + ") is not computed";
                return due;
            }
            ZoneId zone = calendar.zone();
            LocalDate day = due.atZone(zone).toLocalDate();
            String unknown = calendar.known(day.getYear()) ? null : "the holidays of " + country + " in "
                    + day.getYear() + " are not in compliance-rules/holidays.yaml: weekends only";
            if (calendar.workingDay(day)) {
                if (unknown != null) {
                    note[0] = note[0] + "; " + unknown;
                }
                return due;
            }
            LocalDate next = day.plusDays(1);
            while (!calendar.workingDay(next)) {
                next = next.plusDays(1);
            }
            Instant noon = next.atTime(12, 0).atZone(zone).toInstant();
            String falls = HolidayCalendar.weekend(day) ? "a weekend day" : "a public holiday in " + country;
            Set<String> sectors = profile == null ? Set.of() : profile.sectors();
            ObligationRule.Relief relief = r.relief();
            String excluded = sectors.stream().filter(relief.excludedSectors()::contains).findFirst().orElse(null);
            boolean eligible = excluded == null && sectors.stream().anyMatch(relief.eligibleSectors()::contains);
            String said = "falls on " + falls + " (" + day + ")" + (unknown == null ? "" : ", " + unknown);
            if (eligible) {
                note[0] = note[0] + "; " + said + ": may be filed by noon of the next working day, " + next + " ("
                        + relief.source() + ")";
                return noon;
            }
            note[0] = note[0] + "; " + said + ": " + (excluded != null ? "no relief for a tenant of sector '"
                    + excluded + "'" : "its type of financial entity is not recorded in the directory (one of "
                    + String.join(", ", new TreeSet<>(relief.eligibleSectors())) + ")") + ", so the time limit is "
                    + "not moved; an entity the relief is for could file by noon of " + next + " ("
                    + relief.source() + ")";
            return due;
        }
    }

    /**
     * Every obligation of the incident, the provider's own first, then each tenant's, in the order of the rule
     * files. {@code completions} by {@link Obligation#key()}.
     */
    public List<Obligation> plan(IncidentFacts incident, ProviderProfile provider, CaseFacts providerFacts,
            List<TenantCase> tenants, Map<String, List<Completion>> completions, Instant now) {
        return planned(incident, provider, providerFacts, tenants, completions, now).obligations();
    }

    /**
     * A plan and when time alone may change it: {@code changesAfter} is the earliest instant, at or after the time
     * planned for, past which the same facts give another plan (an obligation becoming late, a cap lapsing while
     * undecided); null when none. The reminder check plans an incident again then, and not before unless its facts
     * change.
     */
    public record Planned(List<Obligation> obligations, Instant changesAfter) {
    }

    /** {@link #plan} with {@link Planned#changesAfter}. */
    public Planned planned(IncidentFacts incident, ProviderProfile provider, CaseFacts providerFacts,
            List<TenantCase> tenants, Map<String, List<Completion>> completions, Instant now) {
        Instant[] changes = new Instant[1];
        List<Obligation> out = new ArrayList<>(new Case(incident, null, providerFacts, provider, completions, now,
                changes).all(providerRules(provider)));
        for (TenantCase t : tenants) {
            out.addAll(new Case(incident, t.profile(), t.facts(), provider, completions, now, changes)
                    .all(tenantRules(t.profile(), provider)));
        }
        return new Planned(out, changes[0]);
    }

    /** The ids of the regimes of the rules. */
    public List<String> regimes() {
        return rules.regimes().stream().map(Regime::id).toList();
    }

    /** The decisions that matter to a tenant's obligations (null: the provider's own), for validating input. */
    public Set<String> decisions(ControllerProfile profile, ProviderProfile provider) {
        Set<String> names = new TreeSet<>();
        for (Applicable a : profile == null ? providerRules(provider) : tenantRules(profile, provider)) {
            ObligationRule r = a.rule();
            names.addAll(r.decisions());
            r.sooner().forEach(s -> names.add(s.decision()));
            names.addAll(r.exceptions());
            if (r.clock() != null && r.clock().origin() == Clock.Origin.DECISION && r.clock().ref() != null) {
                names.add(r.clock().ref());
            }
        }
        return names;
    }

    private List<Applicable> providerRules(ProviderProfile provider) {
        List<Applicable> out = new ArrayList<>();
        for (Regime g : rules.regimes()) {
            if (provider.regimes().contains(g.id())
                    && g.appliesTo().matches(provider.country(), Set.of(), Set.of(), true)) {
                // not a rule of the regime's tenants (NIS2's for a tenant that is itself an entity)
                g.obligations().stream().filter(r -> r.appliesTo() == null
                        || r.appliesTo().matches(provider.country(), Set.of(), Set.of(), true))
                        .forEach(r -> out.add(new Applicable(g, r)));
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
                boolean narrower = r.appliesTo() == null || p.mapped()
                        && r.appliesTo().matches(p.country(), p.jurisdictions(), p.sectors(), false);
                if (tenant && narrower || processor && r.holder() == Party.PROCESSOR) {
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
            } else if (!p.mapped()) {
                return List.of(new Recipient(kind, null, null, new Note(ReasonCode.CONTROLLER_UNKNOWN,
                        "the tenant is not in the directory: its controller, and so the competent authority, are "
                                + "unknown")));
            } else {
                Set<String> where = new TreeSet<>(p.jurisdictions());
                Set<String> eea = auth.sets().getOrDefault("eea", Set.of());
                Set<String> occurred = new TreeSet<>();
                where.stream().filter(j -> eea.contains(j) || auth.of(kind, j).isPresent()).forEach(occurred::add);
                if ("occurrence".equals(r.recipientFrom()) && !occurred.isEmpty()) {
                    // where the incident occurred: every Member State where the system's users are, each named,
                    // known to authorities.yaml or not
                    countries.addAll(occurred);
                } else if (p.establishment(kind) != null && auth.of(kind, p.establishment(kind)).isPresent()) {
                    countries.add(p.establishment(kind));
                } else {
                    // a controller established elsewhere: every authority where its data subjects are
                    where.stream().filter(j -> auth.of(kind, j).isPresent()).forEach(countries::add);
                }
            }
            List<Recipient> out = new ArrayList<>();
            for (String c : countries) {
                Optional<Authorities.Authority> a = auth.of(kind, c);
                out.add(a.map(x -> new Recipient(kind + ":" + c, x.name(), x.url(), null))
                        .orElse(new Recipient(kind + ":" + c, null, null, new Note(ReasonCode.RECIPIENT_UNKNOWN,
                                "no " + kind + " of " + c + " in compliance-rules/authorities.yaml: find the "
                                        + "competent one"))));
            }
            if (out.isEmpty()) {
                // keyed by the tenant's country when it has one, so that the key stays when authorities.yaml
                // later names the authority (completions recorded against it keep their obligation)
                out.add(new Recipient(p.country() == null ? kind : kind + ":" + p.country(), null, null,
                        new Note(ReasonCode.RECIPIENT_UNKNOWN, "no " + kind + " found for the country "
                                + (p.country() == null ? "(unknown)" : p.country()) + " or the jurisdictions "
                                + p.jurisdictions() + " of the tenant: find the competent one")));
            }
            return out;
        }
        Note unknownController = p != null && !p.mapped() ? new Note(ReasonCode.CONTROLLER_UNKNOWN,
                "the tenant is not in the directory: its controller is unknown") : null;
        return List.of(switch (kind) {
            case "controller", "covered_entity" -> new Recipient(kind,
                    p == null ? null : p.mapped() ? p.legalName() : p.tenant(), null, unknownController);
            case "data_subjects" -> new Recipient(kind, "the persons concerned", null, null);
            case "register" -> new Recipient(kind, "the controller's record of breaches", null, null);
            case "media" -> new Recipient(kind, "prominent media outlets serving the State", null, null);
            case "ai_system_provider" -> new Recipient(kind, "the provider of the high-risk AI system", null, null);
            case "public" -> new Recipient(kind, "the public (a public communication)", null, null);
            case "clients" -> new Recipient(kind, "the financial entity's clients", null, null);
            case "service_recipients" -> new Recipient(kind, "the recipients of the provider's services", null, null);
            default -> auth.named(kind).map(x -> new Recipient(kind, x.name(), x.url(), null))
                    .orElse(new Recipient(kind, null, null, new Note(ReasonCode.RECIPIENT_UNKNOWN,
                            "unknown authority " + kind)));
        });
    }

    private static String describe(Clock c, ObligationRule r) {
        return switch (c.origin()) {
            case PROCESSOR_AWARENESS -> "processor_awareness";
            case CONTROLLER_AWARENESS -> "controller_awareness";
            case DECISION -> "decision '" + (c.ref() != null ? c.ref() : r.decision()) + "'";
            case AFTER -> "after " + c.after();
            case YEAR_END -> "year_end_of controller_awareness";
        };
    }

    private static String notStarted(Clock c, ObligationRule r) {
        return switch (c.origin()) {
            case PROCESSOR_AWARENESS -> "the incident has no detection time";
            case CONTROLLER_AWARENESS, YEAR_END -> "our alert has not been delivered to the controller yet and no "
                    + "earlier awareness is recorded";
            case DECISION -> "the decision '" + (c.ref() != null ? c.ref() : r.decision()) + "' has not been "
                    + "recorded";
            case AFTER -> "the obligation " + c.after() + " has no due time yet";
        };
    }
}
