package app.vigie.auditlog.rest;

import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.SecurityContext;

import app.vigie.auditlog.IngestService;
import app.vigie.auditlog.intake.IngestScope;
import app.vigie.auditlog.intake.IngestScopes;
import app.vigie.auditlog.store.RecordStore;
import app.vigie.security.Role;

/**
 * {@code GET /api/streams}: intake progress of every (stream, boot): applied, held back, lost; for an ingest account
 * bound to its streams, of those only.
 */
@Path("/api/streams")
public class StreamResource {

    @Inject
    IngestService intake;

    @Inject
    IngestScopes scopes;

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR, Role.R_INGEST})
    public List<RecordStore.StreamState> list(@Context SecurityContext who) throws SQLException {
        // an ingest account bound to its streams lists those only; the staff roles see every stream
        Optional<IngestScope> scope = CallerScope.of(scopes, who, true);
        return scope.isPresent() ? intake.streams(scope.get()) : intake.streams();
    }
}
