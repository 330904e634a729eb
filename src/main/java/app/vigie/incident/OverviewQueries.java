package app.vigie.incident;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The dashboard overview's read model: the open incidents a filter selects (by the deadlines their last plan saved),
 * how many, and the tenants of open incidents the directory does not know. Read by the overview's service
 * ({@code compliance.service.CaseService.openIncidents}) and the summary the reminder check saves.
 */
public final class OverviewQueries {
    private OverviewQueries() {
    }

    /**
     * Which open incidents the overview shows, by the deadlines their last plan saved ({@code incident_deadline}):
     * all; those with an obligation due within a day; those with an obligation late.
     */
    public enum OpenFilter {
        ALL(""),
        DUE_SOON(" and exists (select 1 from incident_deadline d, unnest(d.due_at) t where d.incident_id = i.id"
                + " and t > ? and t <= ?)"),
        LATE(" and exists (select 1 from incident_deadline d, unnest(d.late_after) t where d.incident_id = i.id"
                + " and t < ?)");

        final String where;

        OpenFilter(String where) {
            this.where = where;
        }

        /** The filter's parameters at {@code now} ({@code soon}: how far ahead "due soon" looks). */
        Object[] params(Instant now, Duration soon) {
            return switch (this) {
                case ALL -> new Object[0];
                case DUE_SOON -> new Object[] {Timestamp.from(now), Timestamp.from(now.plus(soon))};
                case LATE -> new Object[] {Timestamp.from(now)};
            };
        }
    }

    /** Where the overview lists incidents: neither closed nor dismissed. */
    private static final String OPEN = " where i." + IncidentQueries.RUNNING;

    /** A page of the open incidents {@code filter} selects, newest first. */
    public static List<IncidentView> listOpen(Connection c, OpenFilter filter, Instant now, Duration soon, int limit,
            int offset) throws SQLException {
        return IncidentQueries.page(c, OPEN + filter.where, limit, offset, filter.params(now, soon));
    }

    /**
     * The tenants exposed in, or receiving in, an open incident that the directory does not know (their controllers
     * are unknown), by id. The distinct tenants are found one index probe each, then each is kept when it is not in
     * the directory and has an open incident.
     */
    public static List<String> unmappedTenants(Connection c) throws SQLException {
        List<String> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                with recursive t(tenant) as (
                  (select tenant from incident_tenant_exposure order by tenant limit 1)
                  union all
                  select (select x.tenant from incident_tenant_exposure x where x.tenant > t.tenant
                          order by x.tenant limit 1)
                  from t where t.tenant is not null)
                select t.tenant from t where t.tenant is not null
                  and not exists (select 1 from tenant d where d.id = t.tenant)
                  and exists (select 1 from incident_tenant_exposure x join incident i on i.id = x.incident_id
                              where x.tenant = t.tenant and i.%s)
                order by t.tenant collate "C\"""".formatted(IncidentQueries.RUNNING));
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    /** How many open incidents {@code filter} selects. */
    public static int countOpen(Connection c, OpenFilter filter, Instant now, Duration soon) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("select count(*) from incident i" + OPEN + filter.where)) {
            int k = 1;
            for (Object p : filter.params(now, soon)) {
                ps.setObject(k++, p);
            }
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }
}
