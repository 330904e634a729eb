package app.vigie.incident;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.agroal.api.AgroalDataSource;

import app.vigie.audit.AuditTrail;
import app.vigie.db.Transactions;
import app.vigie.db.UnitOfWork;
import app.vigie.incident.IncidentMeasure.Measure;
import app.vigie.problem.ProblemException;

/** What was done about an incident, for the notices and the register: listed, and added with its audit event. */
@ApplicationScoped
public class MeasureService {
    static final int TEXT_MAX = 4000;

    @Inject
    AgroalDataSource dataSource;

    @Inject
    Clock clock;

    /** The measures of an incident, in the order they were taken; 404 when there is no such incident. */
    @UnitOfWork
    public List<Measure> list(String id) throws SQLException {
        UUID uuid = existing(id);
        return IncidentMeasure.of(uuid);
    }

    /**
     * Records a measure taken at {@code takenAt} (RFC 3339; now when absent), as the notices will state it; 400 for
     * a missing or too long text or a time in the future.
     */
    @UnitOfWork
    public Measure add(String id, String takenAt, String text, String actor) throws SQLException {
        String t = text == null ? "" : text.strip();
        if (t.isEmpty() || t.length() > TEXT_MAX) {
            throw new ProblemException(400, "field 'text' is required, at most " + TEXT_MAX + " characters: the "
                    + "measure as the notices will state it");
        }
        Instant now = clock.instant();
        Instant at = now;
        if (takenAt != null && !takenAt.isBlank()) {
            try {
                at = OffsetDateTime.parse(takenAt.strip()).toInstant();
            } catch (DateTimeParseException e) {
                throw new ProblemException(400, "field 'taken_at' must be an RFC 3339 time with its offset, got '"
                        + takenAt + "'");
            }
            if (at.isAfter(now.plus(Duration.ofMinutes(5)))) {
                throw new ProblemException(400, "field 'taken_at' is in the future: " + at);
            }
        }
        UUID uuid = existing(id);
        IncidentMeasure m = new IncidentMeasure();
        m.incidentId = uuid;
        m.takenAt = at;
        m.text = t;
        m.recordedBy = actor;
        m.recordedAt = now;
        m.persist();
        AuditTrail.record(actor, "incident.measure", "incident:" + uuid, null, "{\"taken_at\":\"" + at
                + "\",\"text\":" + AuditTrail.quote(t) + "}");
        return m.view();
    }

    private UUID existing(String id) throws SQLException {
        UUID uuid = IncidentIds.uuid(id);
        boolean exists;
        try (Connection c = Transactions.connection(dataSource)) {
            exists = IncidentQueries.exists(c, uuid);
        }
        if (!exists) {
            throw IncidentIds.notFound(id);
        }
        return uuid;
    }
}
