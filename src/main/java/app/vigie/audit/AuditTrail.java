package app.vigie.audit;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;

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

    public static void record(Connection c, String actor, String action, String target, String beforeJson,
            String afterJson) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                insert into audit_event (at, actor, action, target, before, after)
                values (?, ?, ?, ?, ?::jsonb, ?::jsonb)""")) {
            ps.setTimestamp(1, Timestamp.from(Instant.now()));
            ps.setString(2, actor);
            ps.setString(3, action);
            ps.setString(4, target);
            ps.setString(5, beforeJson);
            ps.setString(6, afterJson);
            ps.executeUpdate();
        }
    }
}
