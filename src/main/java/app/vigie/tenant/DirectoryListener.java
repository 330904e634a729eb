package app.vigie.tenant;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;

/**
 * Told, inside the transaction that writes it, that a directory entry was created or changed: alerting gives the
 * alerts still waiting for a channel (a customer affected before it was in the directory) the channels now known.
 */
public interface DirectoryListener {
    /** {@code before}: the entry before the change, null when it is new. */
    void entryWritten(Connection tx, Tenant before, Tenant after, Instant now) throws SQLException;
}
