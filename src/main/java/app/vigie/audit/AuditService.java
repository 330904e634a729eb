package app.vigie.audit;

import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import app.vigie.db.UnitOfWork;
import app.vigie.export.Csv;

/** Reading the audit trail: a page of events, or a selection as CSV for a spreadsheet. */
@ApplicationScoped
public class AuditService {
    /** The most events one CSV export holds. */
    public static final int EXPORT_MAX = 100_000;

    @Inject
    AuditEventRepository events;

    /** The events {@code f} selects, newest first, at most {@code limit}. */
    @UnitOfWork
    public List<AuditEvent> find(AuditFilter f, int limit) {
        return events.find(f, limit);
    }

    /**
     * The events {@code f} selects (at most {@link #EXPORT_MAX}) as CSV ({@code audit-trail.csv}), times in UTC and in
     * {@code zone}.
     */
    @UnitOfWork
    public Csv.Export csv(AuditFilter f, ZoneId zone) {
        DateTimeFormatter local = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss xxx").withZone(zone);
        StringBuilder out = new StringBuilder("id,at_utc,at_local,actor,action,target,before,after\r\n");
        for (AuditEvent e : events.find(f, EXPORT_MAX)) {
            Csv.row(out, List.of(Long.toString(e.id), e.at.toString(), local.format(e.at), e.actor, e.action,
                    e.target, e.before == null ? "" : e.before, e.after == null ? "" : e.after));
        }
        return new Csv.Export("audit-trail.csv", out.toString());
    }
}
