package app.vigie.audit;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Reads the audit trail, newest first, with filters; {@code before} pages back through it by id. */
public final class AuditEvents {
    private AuditEvents() {
    }

    /** One state change: who, when, what, on what, the state before and after (JSON text, null when none). */
    public record Event(long id, Instant at, String actor, String action, String target, String before,
            String after) {
    }

    /**
     * The filters, each optional: {@code actor} and {@code action} exact, {@code target} a prefix (incident:ID
     * gives the incident's own events and its tenants'), {@code from} inclusive and {@code to} exclusive,
     * {@code before} an id to page back from.
     */
    public record Filter(String actor, String action, String target, Instant from, Instant to, Long before) {
    }

    public static List<Event> find(Connection c, Filter f, int limit) throws SQLException {
        List<Event> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                select id, at, actor, action, target, before::text, after::text from audit_event
                where (?::text is null or actor = ?) and (?::text is null or action = ?)
                  and (?::text is null or target like ? escape '\\')
                  and (?::timestamptz is null or at >= ?) and (?::timestamptz is null or at < ?)
                  and (?::bigint is null or id < ?)
                order by id desc limit ?""")) {
            int i = 1;
            i = pair(ps, i, f.actor());
            i = pair(ps, i, f.action());
            String like = f.target() == null ? null
                    : f.target().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%";
            ps.setString(i++, like);
            ps.setString(i++, like);
            Timestamp from = f.from() == null ? null : Timestamp.from(f.from());
            Timestamp to = f.to() == null ? null : Timestamp.from(f.to());
            ps.setTimestamp(i++, from);
            ps.setTimestamp(i++, from);
            ps.setTimestamp(i++, to);
            ps.setTimestamp(i++, to);
            ps.setObject(i++, f.before());
            ps.setObject(i++, f.before());
            ps.setInt(i, limit);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new Event(rs.getLong(1), rs.getTimestamp(2).toInstant(), rs.getString(3),
                            rs.getString(4), rs.getString(5), rs.getString(6), rs.getString(7)));
                }
            }
        }
        return out;
    }

    private static int pair(PreparedStatement ps, int i, String value) throws SQLException {
        ps.setString(i, value);
        ps.setString(i + 1, value);
        return i + 2;
    }
}
