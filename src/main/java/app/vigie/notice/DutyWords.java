package app.vigie.notice;

import java.util.Optional;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import app.vigie.compliance.plan.Obligation;
import app.vigie.compliance.rules.Authorities;
import app.vigie.compliance.rules.ObligationRule;
import app.vigie.compliance.service.ComplianceRules;

/**
 * An obligation and a detector finding in words, for documents and pages alike: the duty's title (its kind, from
 * templates/notices/words.yaml), its legal reference in the language (from the compliance rules), its recipient (an
 * authority's name, or the words for a kind of recipient), and what a finding means. One vocabulary, edited by the
 * legal team, so that a page never says a duty otherwise than the documents do.
 */
@Singleton
public class DutyWords {
    @Inject
    Words words;

    @Inject
    ComplianceRules rules;

    /** The duty's title: its kind in words ("Notification à l'autorité"). */
    public String title(Obligation o, String lang) {
        return words.of(lang, "kind", o.kind().name());
    }

    /** The duty's legal reference in the language ("RGPD, art. 33, par. 1, 3 et 4"). */
    public String reference(Obligation o, String lang) {
        return reference(o, rules.rules().obligation(o.rule()), lang);
    }

    static String reference(Obligation o, Optional<ObligationRule> rule, String lang) {
        return rule.map(r -> r.sources().getOrDefault(lang, r.source())).orElse(o.source());
    }

    /**
     * An obligation's recipient for a page: an authority's name in the language; a controller's (or covered entity's)
     * name as the directory gives it; else the words for its kind of recipient in the language (the planner's
     * {@code recipientName} of those is English).
     */
    public String recipient(Obligation o, String lang) {
        boolean party = "controller".equals(o.recipient()) || "covered_entity".equals(o.recipient());
        return party && o.recipientName() != null ? o.recipientName() : recipient(o.recipient(), lang);
    }

    /** A recipient's code ({@code supervisory_authority:FR}, {@code ico}, {@code data_subjects}) in a language. */
    public String recipient(String code, String lang) {
        int colon = code.indexOf(':');
        Optional<Authorities.Authority> a = colon < 0 ? rules.rules().authorities().named(code)
                : rules.rules().authorities().of(code.substring(0, colon), code.substring(colon + 1));
        if (a.isPresent()) {
            return a.get().name(lang);
        }
        return words.has(lang, "recipient", code) ? words.of(lang, "recipient", code)
                : words.of(lang, "recipient", "unknown");
    }

    /** A decision's words in a language ("the incident is significant (NIS2)"). */
    public String decision(String name, String lang) {
        return words.of(lang, "decision", name);
    }

    /** What a detector finding's rule means, in a sentence without its first capital. */
    public String finding(String rule, String lang) {
        return words.of(lang, "finding", rule);
    }
}
