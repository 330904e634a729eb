package app.vigie.compliance.plan;

import java.time.Instant;
import java.util.List;

import app.vigie.compliance.rules.ObligationRule;

/**
 * One duty in an incident: who ({@code holder}, for {@code tenant}, or the provider itself when {@code tenant} is
 * null) must tell whom ({@code recipient}: a code such as {@code supervisory_authority:FR}, {@code ico},
 * {@code controller}; {@code recipientName} for people), whether it applies ({@code condition}), from when
 * ({@code clockStartedAt}) and by when ({@code dueAt} and its {@code dueBasis}; {@code outerLimitAt}, the law's
 * bound of an open-ended duty whose {@code dueAt} is a target), and where it stands ({@code status}, with
 * {@code reasonCode} and {@code reason} when something stands in the way or makes it not required).
 */
public record Obligation(String tenant, String regime, String rule, ObligationRule.Kind kind,
        ObligationRule.Party holder, String recipient, String recipientName, String recipientUrl,
        ObligationRule.Trigger trigger, Condition condition, String conditionNote, String clock,
        Instant clockStartedAt, Instant dueAt, DueBasis dueBasis, String dueNote, Instant outerLimitAt,
        Status status, ReasonCode reasonCode, String reason, Instant doneAt, boolean doneLate,
        List<Completion> completions, boolean lateReasonsRequired, boolean phased, boolean repeatable, String source,
        List<String> content) {

    public enum Status { PENDING, DONE, LATE, NOT_REQUIRED }

    /** Whether the trigger holds: MET, NOT_MET (then NOT_REQUIRED), UNDECIDED (planned as if it held). */
    public enum Condition { MET, UNDECIDED, NOT_MET }

    /**
     * STATUTORY: the law's period; CONTRACT: the tenant's agreed delay (when shorter, or for "without undue
     * delay"); TARGET: no fixed period in law ("without undue delay"): the rule's target, not a legal limit.
     */
    public enum DueBasis { STATUTORY, CONTRACT, TARGET }

    /**
     * Why an obligation is not required, or what stands in its way; the wording for people is in the templates
     * (documents) and in {@code reason} (the API, in English).
     */
    public enum ReasonCode {
        /** Its law was not in force on the day of detection (or its transposition in the Member State). */
        NOT_IN_FORCE,
        /** Whether the Member State's transposition is in force is not known: planned as if it were. */
        TRANSPOSITION_UNKNOWN,
        /** The incident was dismissed. */
        DISMISSED,
        /** The regime sets no duty (its rule says why). */
        NO_DUTY,
        /** The tenant was not exposed in the way the rule concerns (it only received others' tokens). */
        NOT_EXPOSED,
        /** The holder recorded the rule's exception (unlikely to result in a risk, low probability...). */
        EXCEPTION_RECORDED,
        /** The severity that counts is below high. */
        BELOW_HIGH_RISK,
        /** The holder decided that the rule's fact does not hold. */
        DECIDED_NOT,
        /** Two recorded facts contradict each other (an exception recorded with a high severity): planned as due. */
        CONTRADICTION,
        /** The severity is not assessed or a decision not recorded: planned as if it held. */
        AWAITING_DECISION,
        /** The tenant is not in the directory: its controller, and so its own duties, are unknown. */
        CONTROLLER_UNKNOWN,
        /** The recipient authority is not known to compliance-rules/. */
        RECIPIENT_UNKNOWN,
        /** Its clock has not started. */
        CLOCK_NOT_STARTED
    }

    /** Identifies the obligation within its incident: tenant (empty for the provider), rule, recipient. */
    public String key() {
        return key(tenant, rule, recipient);
    }

    public static String key(String tenant, String rule, String recipient) {
        return (tenant == null ? "" : tenant) + "|" + rule + "|" + recipient;
    }

    /** Whether it still asks for action (escalations go to these). */
    public boolean open() {
        return status == Status.PENDING || status == Status.LATE;
    }

    /** The instant after which it is late: the outer limit where the due time is only a target, else the due time. */
    public Instant lateAfter() {
        return lateAfter(dueBasis, dueAt, outerLimitAt);
    }

    /** {@link #lateAfter()} from its parts, for the planner that judges the status before the obligation exists. */
    static Instant lateAfter(DueBasis basis, Instant due, Instant outer) {
        return basis == DueBasis.TARGET && outer != null ? outer : due;
    }

    /**
     * The status to say to a person: past a target the law does not bound (no period in law, no outer limit),
     * {@code TARGET_PASSED}, not {@code LATE}: nothing tells a DPO the law was broken when it sets no period.
     */
    public String statusWord() {
        return status == Status.LATE && !bound() ? "TARGET_PASSED" : status.name();
    }

    /**
     * Whether a period binds it (in law, in a contract, or a target's outer limit), so that past {@link #lateAfter()}
     * it is late; false for a target the law does not bound.
     */
    public boolean bound() {
        return dueBasis != DueBasis.TARGET || outerLimitAt != null;
    }

    /** When it was last done (a repeatable report's latest), or null. */
    public Instant lastDoneAt() {
        return completions.isEmpty() ? doneAt : completions.get(completions.size() - 1).doneAt();
    }
}
