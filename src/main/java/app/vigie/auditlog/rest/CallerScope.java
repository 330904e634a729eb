package app.vigie.auditlog.rest;

import java.sql.SQLException;
import java.util.Optional;

import jakarta.ws.rs.core.SecurityContext;

import app.vigie.auditlog.intake.IngestScope;
import app.vigie.auditlog.intake.IngestScopes;
import app.vigie.security.Role;

/** The streams the caller of an intake endpoint may write, list and flush (issue 41 point 5). */
final class CallerScope {
    private CallerScope() {
    }

    /**
     * What the caller may act on (empty: every stream). With {@code staffSeeAll} (listing and flushing), an account
     * that holds the dpo, analyst or auditor role acts on every stream whatever its scope.
     */
    static Optional<IngestScope> of(IngestScopes scopes, SecurityContext who, boolean staffSeeAll)
            throws SQLException {
        if (staffSeeAll && (who.isUserInRole(Role.R_DPO) || who.isUserInRole(Role.R_ANALYST)
                || who.isUserInRole(Role.R_AUDITOR))) {
            return Optional.empty();
        }
        return scopes.of(who.getUserPrincipal().getName(), who.isUserInRole(Role.R_ADMIN));
    }
}
