package app.vigie.alert;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.UUID;

/** Queries of customer alerts for the features around them. */
public final class AlertStore {
    private AlertStore() {
    }

    /** The alerts of {@code tenant} in an incident it has not acknowledged yet (FINAL ones ask for nothing). */
    public static int unacknowledged(Connection c, UUID incident, String tenant) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                select count(*) from customer_alert where incident_id = ? and tenant = ? and acknowledged_at is null
                  and phase <> 'FINAL'""")) {
            ps.setObject(1, incident);
            ps.setString(2, tenant);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }
}
