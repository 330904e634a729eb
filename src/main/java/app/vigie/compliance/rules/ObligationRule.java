package app.vigie.compliance.rules;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One duty of a regime: who ({@code holder}) must tell whom ({@code recipient}), on what {@code trigger}, by when
 * ({@code clock} + {@code due}, or without undue delay aiming at {@code target}, bounded by {@code outerLimit}), with
 * what content, during which period of application ({@code inForce}), and the legal source. See
 * compliance-rules/README.md.
 *
 * @param decisions for trigger {@code decision}: the facts the holder decides, all of which must hold
 * @param assumeHeld whether an undecided {@code decisions} is planned as if it held (the default) or as if not
 * @param unless decisions that, one of them recorded true, make the duty not required ({@code unlikely_risk} for
 *        trigger {@code risk} unless the rule names its own exception, such as HIPAA's low probability of
 *        compromise)
 * @param asRequested the period is the one the recipient sets in its request (NIS2's intermediate report)
 * @param repeatable several completions are expected (DORA's updated intermediate reports); an {@code after:}
 *        clock then starts at the latest
 * @param imputed the controller's clock starts at the processor's discovery when the processor is its agent
 *        (HIPAA: a business associate acting as the covered entity's agent)
 * @param exposure which affected tenants it concerns: {@code victim} (their tokens were read by others),
 *        {@code recipient} (they received others' tokens); a tenant exposed both ways matches either
 * @param recipientFrom for authorities chosen by country: {@code establishment} (the tenant's country, else every
 *        country of its jurisdictions) or {@code occurrence} (every country of its jurisdictions, where the
 *        incident occurred, else its country)
 * @param appliesTo a further condition on the tenant beyond the regime's (the AI Act's provider and deployer), or
 *        null
 * @param sources the legal citation in each language ({@code source} is the English one)
 * @param notes {@code note} in each language
 * @param relief a time limit that falls on a weekend day or holiday moves to noon of the next working day (DORA's
 *        reports, Delegated Regulation 2025/301 Art. 5(4)), or null
 */
public record ObligationRule(String id, Kind kind, Party holder, String recipient, Trigger trigger,
        List<String> decisions, boolean assumeHeld, List<String> unless, Clock clock, Delay due, boolean asRequested,
        Delay target, Delay outerLimit, boolean contractual, Cap cap, List<Sooner> sooner, String late,
        boolean phased, boolean repeatable, boolean imputed, Set<String> exposure, String recipientFrom,
        Applicability appliesTo, InForce inForce, String source, Map<String, String> sources, List<String> content,
        String note, Map<String, String> notes, Relief relief) {

    public enum Kind {
        PROCESSOR_ALERT, AUTHORITY_NOTIFICATION, EARLY_WARNING, INTERMEDIATE_REPORT, PROGRESS_REPORT, FINAL_REPORT,
        DATA_SUBJECT_COMMUNICATION, MEDIA_NOTICE, REGISTER_ENTRY, DOCUMENTATION,
        /** To the holder's own customers (DORA Art. 19(3)'s clients, NIS2 Art. 23(1)'s recipients of the services). */
        RECIPIENT_NOTICE,
        /** The regime sets no duty ({@code note} says why): the obligation is NOT_REQUIRED. */
        NONE
    }

    public enum Party { PROCESSOR, CONTROLLER }

    public enum Trigger {
        ALWAYS,
        /** Unless the holder records that the breach is unlikely to result in a risk (or the rule's own exception). */
        RISK,
        /** When the severity is High or Very high (ENISA's suggestion or the controller's decision). */
        HIGH_RISK,
        /** Facts only the holder can establish, named by {@code decisions}. */
        DECISION
    }

    /** Recorded true, this decision switches a {@code risk} trigger off unless the rule names another. */
    public static final String UNLIKELY_RISK = "unlikely_risk";

    /**
     * A second limit from another origin; the earlier due time wins (DORA: 4 h after classification, 24 h after
     * awareness at most). {@code lapses}: the cap binds only a decision made before it expires; once it has expired
     * undecided, the rule's own period runs from a later decision (Delegated Regulation 2025/301 Art. 5(2)).
     */
    public record Cap(Clock clock, Delay due, boolean lapses) {
    }

    /** A shorter period where the holder records {@code decision} (AI Act: 10 days on a death, 2 on a widespread infringement). */
    public record Sooner(String decision, Delay due, String source) {
    }

    /**
     * The working-day relief: for a tenant whose sectors include one of {@code eligibleSectors} and none of
     * {@code excludedSectors}; for others it is said, not applied.
     */
    public record Relief(Set<String> eligibleSectors, Set<String> excludedSectors, String source) {
    }

    /** Without a fixed period: "without undue delay" (a target, not a legal limit). */
    public boolean undueDelay() {
        return due == null;
    }

    /** The first decision of a {@code decision} trigger (the one a {@code clock: decision} waits for), or null. */
    public String decision() {
        return decisions.isEmpty() ? null : decisions.get(0);
    }

    /** The decisions that switch it off: {@code unless}, or {@value #UNLIKELY_RISK} for a {@code risk} trigger. */
    public List<String> exceptions() {
        return !unless.isEmpty() ? unless : trigger == Trigger.RISK ? List.of(UNLIKELY_RISK) : List.of();
    }
}
