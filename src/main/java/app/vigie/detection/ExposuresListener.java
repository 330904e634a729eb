package app.vigie.detection;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * What detection tells the features above it: the exposures of incidents changed. Called inside the transaction that
 * stored the change, with its connection, so that what a listener writes (the alert outbox) commits or rolls back
 * with it. Detection knows no listener; each is a CDI bean implementing this interface.
 */
public interface ExposuresListener {

    /**
     * @param touched per incident, the tenants whose exposures changed in this transaction; never empty (no change,
     *        no call)
     */
    void exposuresChanged(Connection tx, Map<UUID, Set<String>> touched, Instant at) throws SQLException;
}
