package app.vigie.auditlog.rest;

import java.sql.SQLException;
import java.util.List;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import io.agroal.api.AgroalDataSource;

import app.vigie.auditlog.store.RecordStore;
import app.vigie.db.Transactions;
import app.vigie.security.Role;

/** {@code GET /api/streams}: intake progress of every (stream, boot): applied, held back, lost. */
@Path("/api/streams")
public class StreamResource {

    @Inject
    AgroalDataSource dataSource;

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR, Role.R_INGEST})
    public List<RecordStore.StreamState> list() throws SQLException {
        return Transactions.run(dataSource, RecordStore::streams);
    }
}
