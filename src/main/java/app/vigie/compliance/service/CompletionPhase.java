package app.vigie.compliance.service;

import java.util.Locale;

import app.vigie.compliance.plan.Obligation;
import app.vigie.problem.ProblemException;

/** Which completion of an obligation a new one is: its phase, and whether it may be recorded at all. */
final class CompletionPhase {
    private CompletionPhase() {
    }

    /**
     * INITIAL then COMPLEMENTARY for a phased notification; nothing for the others, once, or as many times as a
     * repeatable report is made (DORA's updated intermediate reports).
     */
    static String of(Obligation o, String given) {
        String p = given == null ? null : given.strip().toUpperCase(Locale.ROOT);
        if (!o.phased()) {
            if (p != null) {
                throw new ProblemException(400, o.rule() + " is not phased: give no 'phase'");
            }
            if (!o.completions().isEmpty() && !o.repeatable()) {
                throw new ProblemException(409, o.rule() + " toward " + o.recipient() + " is already recorded done ("
                        + o.completions().get(0).doneAt() + ", " + o.completions().get(0).evidence() + ")");
            }
            return null;
        }
        String expected = o.completions().isEmpty() ? "INITIAL" : "COMPLEMENTARY";
        if (p == null) {
            return expected;
        }
        if (!p.equals("INITIAL") && !p.equals("COMPLEMENTARY")) {
            throw new ProblemException(400, "'phase' must be INITIAL or COMPLEMENTARY");
        }
        if (!p.equals(expected)) {
            throw new ProblemException(409, o.completions().isEmpty()
                    ? "the first notification of " + o.rule() + " is the INITIAL one"
                    : "the INITIAL notification of " + o.rule() + " is already recorded: the next are COMPLEMENTARY");
        }
        return p;
    }
}
