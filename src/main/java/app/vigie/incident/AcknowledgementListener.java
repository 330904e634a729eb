package app.vigie.incident;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.UUID;

/**
 * Told when a controller acknowledges an alert about an incident (its first acknowledgement), inside that
 * transaction (its connection), so that what a listener records of it commits or rolls back with it: the alerts know
 * no listener (compliance records the controller's awareness from it). Each is a CDI bean implementing this
 * interface. {@code what} says which alert and how ("acknowledged alert 12 (portal)").
 */
public interface AcknowledgementListener {

    void acknowledged(Connection tx, UUID incident, String tenant, String what, String by, Instant at)
            throws SQLException;
}
