package app.vigie.audit;

import java.time.Instant;

import io.quarkus.narayana.jta.QuarkusTransaction;

/** Appends to the audit trail: every state change, who did it, when, and the state before and after (JSON). */
public final class AuditTrail {
    private AuditTrail() {
    }

    /** A JSON string literal of {@code s} ({@code null} for null), for the before and after documents. */
    public static String quote(String s) {
        if (s == null) {
            return "null";
        }
        StringBuilder b = new StringBuilder("\"");
        for (char ch : s.toCharArray()) {
            switch (ch) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                default -> {
                    if (ch < 0x20) {
                        b.append(String.format("\\u%04x", (int) ch));
                    } else {
                        b.append(ch);
                    }
                }
            }
        }
        return b.append('"').toString();
    }

    /**
     * Appends one event, in the transaction in progress (a {@code @UnitOfWork} service's or a
     * {@link app.vigie.db.Transactions} run's: the same connection).
     */
    public static void record(String actor, String action, String target, String beforeJson, String afterJson) {
        if (!QuarkusTransaction.isActive()) {
            // the event and its change commit together or not at all: there is no event outside a transaction
            throw new IllegalStateException("audit event " + action + " on " + target + " written outside the "
                    + "transaction of its change");
        }
        AuditEvent e = new AuditEvent();
        e.at = Instant.now();
        e.actor = actor;
        e.action = action;
        e.target = target;
        e.before = beforeJson;
        e.after = afterJson;
        e.persist();
    }
}
