package app.vigie.auditlog.rest;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
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

    /** One (stream, boot). {@code held_back}: accepted records waiting behind a missing seq. */
    public record StreamState(String stream, String boot, long nextSeq, long maxSeq, long accepted, long duplicates,
            long heldBack, long lostGaps, long lostRecords, Instant firstSeenAt, Instant lastSeenAt) {
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @RolesAllowed({Role.R_DPO, Role.R_ANALYST, Role.R_AUDITOR, Role.R_INGEST})
    public List<StreamState> list() throws SQLException {
        return Transactions.run(dataSource, c -> {
            List<StreamState> out = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("""
                    select s.stream, s.boot, s.next_seq, s.max_seq, s.accepted, s.duplicates,
                      %s,
                      (select count(*) from stream_gap g where g.stream_boot_id = s.id),
                      (select coalesce(sum(g.to_seq - g.from_seq + 1), 0) from stream_gap g
                        where g.stream_boot_id = s.id),
                      s.first_seen_at, s.last_seen_at
                    from stream_boot s order by s.stream, s.first_seen_at, s.boot""".formatted(
                    RecordStore.HELD_BACK_OF_S));
                    ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new StreamState(rs.getString(1), rs.getString(2), rs.getLong(3), rs.getLong(4),
                            rs.getLong(5), rs.getLong(6), rs.getLong(7), rs.getLong(8), rs.getLong(9),
                            rs.getTimestamp(10).toInstant(), rs.getTimestamp(11).toInstant()));
                }
            }
            return out;
        });
    }
}
