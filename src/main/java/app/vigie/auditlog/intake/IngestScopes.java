package app.vigie.auditlog.intake;

import java.sql.SQLException;
import java.util.Optional;

/**
 * Where the intake learns what an account may write (issue 41 point 5); the accounts (app.vigie.security) answer.
 */
public interface IngestScopes {
    /**
     * What {@code account} may write, list and flush; empty when everything ({@code admin}: the account holds the
     * admin role).
     */
    Optional<IngestScope> of(String account, boolean admin) throws SQLException;
}
