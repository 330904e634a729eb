package app.vigie.incident;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Set;
import java.util.UUID;

/**
 * Told, inside its transaction, that the DPO decided on an incident's possible exposures (spec 1.3, amendment 3):
 * {@code tenants} are those they touch, who must learn the conclusion.
 */
public interface PossibleDecisionListener {
    void possibleDecided(Connection tx, UUID incident, Set<String> tenants, boolean breach, Instant now)
            throws SQLException;
}
