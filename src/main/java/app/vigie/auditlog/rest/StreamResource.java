package app.vigie.auditlog.rest;

import java.sql.SQLException;
import java.util.List;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import app.vigie.auditlog.IngestService;
import app.vigie.auditlog.store.RecordStore;
import app.vigie.security.Role;

/** {@code GET /api/streams}: intake progress of every (stream, boot): applied, held back, lost. */
@Path("/api/streams")
public class StreamResource {

    @Inject
    IngestService intake;

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR, Role.R_INGEST})
    public List<RecordStore.StreamState> list() throws SQLException {
        return intake.streams();
    }
}
