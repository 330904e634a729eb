package app.vigie.incident;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.UUID;

/**
 * Told when an incident's status changed, inside the transaction of the change (its connection), so that what a
 * listener writes commits or rolls back with it. The incident lifecycle knows no listener; each is a CDI bean
 * implementing this interface.
 */
public interface IncidentStatusListener {

    void statusChanged(Connection tx, UUID incident, IncidentStatus from, IncidentStatus to, Instant at)
            throws SQLException;
}
