package app.vigie.compliance.plan;

import java.time.Instant;
import java.util.List;

import app.vigie.compliance.rules.ObligationRule;

/**
 * One duty in an incident: who ({@code holder}, for {@code tenant}, or the provider itself when {@code tenant} is
 * null) must tell whom ({@code recipient}: a code such as {@code supervisory_authority:FR}, {@code ico},
 * {@code controller}; {@code recipientName} for people), whether it applies ({@code condition}), from when
 * ({@code clockStartedAt}) and by when ({@code dueAt} and its {@code dueBasis}), and where it stands.
 */
public record Obligation(String tenant, String regime, String rule, ObligationRule.Kind kind,
        ObligationRule.Party holder, String recipient, String recipientName, String recipientUrl,
        ObligationRule.Trigger trigger, Condition condition, String conditionNote, String clock,
        Instant clockStartedAt, Instant dueAt, DueBasis dueBasis, String dueNote, Status status, String reason,
        Instant doneAt, boolean doneLate, List<Completion> completions, boolean lateReasonsRequired,
        boolean phased, String source, List<String> content) {

    public enum Status { PENDING, DONE, LATE, NOT_REQUIRED }

    /** Whether the trigger holds: MET, NOT_MET (then NOT_REQUIRED), UNDECIDED (planned as if it held). */
    public enum Condition { MET, UNDECIDED, NOT_MET }

    /**
     * STATUTORY: the law's period; CONTRACT: the tenant's agreed delay (when shorter, or for "without undue
     * delay"); TARGET: no fixed period in law ("without undue delay"): the rule's target, not a legal limit.
     */
    public enum DueBasis { STATUTORY, CONTRACT, TARGET }

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
}
