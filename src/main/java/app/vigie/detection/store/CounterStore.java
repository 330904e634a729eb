package app.vigie.detection.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * Brings the incident counters of V23 back to what the rows say (docs/detection.md, "Counters"): after instances of
 * a version without them wrote records (a rolling upgrade), or after rows were changed by hand. Holds the tables'
 * writers back while it runs (the intake waits, nothing is lost), so that no write lands between a count and its
 * correction.
 */
public final class CounterStore {
    private CounterStore() {
    }

    /** What a recount corrected. */
    public record Recount(long leakedResponsesAdded, long recipientsMarked, long countersCorrected,
            long findingCountsCorrected) {
    }

    public static Recount recount(Connection c) throws SQLException {
        // writers take ROW EXCLUSIVE on these tables; SHARE waits for those under way and holds new ones back
        execute(c, "lock table finding, exposure, request_fact, incident_tenant_exposure, incident_leaked_response,"
                + " incident_counter, incident_finding_count in share mode");
        long leaked = execute(c, """
                insert into incident_leaked_response (incident_id, reader_request)
                select distinct e.incident_id, e.reader_request from exposure e
                join request_fact f on f.request = e.reader_request
                where e.kind = 'CROSS_TENANT' and f.delivered
                on conflict do nothing""");
        long recipients = execute(c, """
                insert into incident_tenant_exposure as x (incident_id, tenant, recipient)
                select distinct incident_id, reader_tenant, true from exposure
                on conflict (incident_id, tenant) do update set recipient = true where not x.recipient""");
        long counters = execute(c, """
                with truth as (
                  select i.id, coalesce(l.n, 0) as n, coalesce(t.v, '{}') as v, coalesce(t.r, '{}') as r
                  from incident i
                  left join (select incident_id, count(*) as n from incident_leaked_response group by 1) l
                    on l.incident_id = i.id
                  left join (select incident_id,
                               array_agg(tenant order by tenant) filter (where exposed_requests > 0) as v,
                               array_agg(tenant order by tenant) filter (where recipient) as r
                             from incident_tenant_exposure group by 1) t on t.incident_id = i.id)
                insert into incident_counter as n (incident_id, leaked_responses, victim_tenants, recipient_tenants)
                select id, n, v, r from truth
                where n > 0 or v <> '{}' or r <> '{}' or exists (select 1 from incident_counter x where x.incident_id = id)
                on conflict (incident_id) do update set leaked_responses = excluded.leaked_responses,
                  victim_tenants = excluded.victim_tenants, recipient_tenants = excluded.recipient_tenants
                where (n.leaked_responses, n.victim_tenants, n.recipient_tenants)
                  is distinct from (excluded.leaked_responses, excluded.victim_tenants, excluded.recipient_tenants)""");
        long findings = execute(c, """
                with truth as (
                  select k.incident_id, k.rule, coalesce(f.n, 0) as n
                  from (select incident_id, rule from incident_finding_count
                        union select incident_id, rule from finding) k
                  left join (select incident_id, rule, count(*) as n from finding group by 1, 2) f
                    on f.incident_id = k.incident_id and f.rule = k.rule)
                insert into incident_finding_count as x (incident_id, rule, findings)
                select incident_id, rule, n from truth
                on conflict (incident_id, rule) do update set findings = excluded.findings
                where x.findings <> excluded.findings""");
        return new Recount(leaked, recipients, counters, findings);
    }

    private static long execute(Connection c, String sql) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            return ps.executeLargeUpdate();
        }
    }
}
