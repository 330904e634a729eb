package app.vigie.compliance.rules;

import java.util.List;

/**
 * One duty of a regime: who ({@code holder}) must tell whom ({@code recipient}), on what {@code trigger}, by when
 * ({@code clock} + {@code due}, or without undue delay aiming at {@code target}), with what content, and the legal
 * source. See compliance-rules/README.md.
 */
public record ObligationRule(String id, Kind kind, Party holder, String recipient, Trigger trigger, String decision,
        Clock clock, Delay due, Delay target, boolean contractual, Cap cap, List<Sooner> sooner, String late,
        boolean phased, String source, List<String> content, String note) {

    public enum Kind {
        PROCESSOR_ALERT, AUTHORITY_NOTIFICATION, EARLY_WARNING, INTERMEDIATE_REPORT, FINAL_REPORT,
        DATA_SUBJECT_COMMUNICATION, REGISTER_ENTRY,
        /** The regime sets no duty ({@code note} says why): the obligation is NOT_REQUIRED. */
        NONE
    }

    public enum Party { PROCESSOR, CONTROLLER }

    public enum Trigger {
        ALWAYS,
        /** Unless the controller records that the breach is unlikely to result in a risk. */
        RISK,
        /** When the severity is High or Very high (ENISA's suggestion or the controller's decision). */
        HIGH_RISK,
        /** A fact only the holder can establish, named by {@code decision}. */
        DECISION
    }

    /** A second limit from another origin; the earlier due time wins (DORA: 4 h after classification, 24 h after awareness at most). */
    public record Cap(Clock clock, Delay due) {
    }

    /** A shorter period where the holder records {@code decision} (AI Act: 10 days on a death, 2 on a widespread infringement). */
    public record Sooner(String decision, Delay due, String source) {
    }

    /** Without a fixed period: "without undue delay" (a target, not a legal limit). */
    public boolean undueDelay() {
        return due == null;
    }
}
