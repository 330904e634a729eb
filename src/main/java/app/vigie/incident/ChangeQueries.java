package app.vigie.incident;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The dashboard's change channel: PostgreSQL's notifications that V24's triggers send when what the dashboard shows
 * changed, and the fingerprint read when nobody listens. Read by {@link IncidentChanges} only.
 */
public final class ChangeQueries {
    private ChangeQueries() {
    }

    /** The channel V24's triggers notify when what the dashboard shows changed. */
    public static final String CHANGES = "vigie_dashboard";

    /**
     * A mark that changes whenever what the dashboard shows may have: incidents (count, last update), findings,
     * exposures, audit events, escalations.
     */
    public static String changeMark(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                select (select count(*) from incident) || '/' || coalesce((select max(updated_at) from incident)::text, '')
                    || '/' || coalesce((select max(id) from finding), 0) || '/' || coalesce((select max(id) from exposure), 0)
                    || '/' || coalesce((select max(id) from audit_event), 0) || '/' || coalesce((select max(id) from escalation), 0)""");
                ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getString(1);
        }
    }
}
