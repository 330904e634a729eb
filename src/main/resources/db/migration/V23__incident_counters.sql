-- Counters kept as the intake writes, so that listing incidents with their counts (GET /api/incidents, the overview)
-- reads a few rows per incident instead of recounting its exposures, facts and findings on every call (issue 22,
-- goal 2: the whole list at 10,000 incidents and 1,000,000 exposures took 3.3 to 5.8 s, most of it joining every
-- cross-tenant exposure to its reader's facts).

-- The responses api.md counts as leaked, per incident: distinct readers of a cross-tenant exposure whose FINISH says
-- delivered. A reader joins when the second of (its cross-tenant exposure, its delivered FINISH) is written: both
-- writers hold the reader's request_fact row (DetectionStore), so whichever commits second sees the first. A
-- delivered request never becomes undelivered (RequestFacts), so rows are only added.
create table incident_leaked_response (
    incident_id    uuid not null references incident (id),
    reader_request text not null,
    primary key (incident_id, reader_request)
);

insert into incident_leaked_response (incident_id, reader_request)
select distinct e.incident_id, e.reader_request
from exposure e join request_fact f on f.request = e.reader_request
where e.kind = 'CROSS_TENANT' and f.delivered;

-- A tenant read an exposure of the incident (of either kind): the incident's recipient tenants are those marked.
-- Its victim tenants are those with exposed requests.
alter table incident_tenant_exposure add column recipient boolean not null default false;

insert into incident_tenant_exposure as x (incident_id, tenant, recipient)
select distinct incident_id, reader_tenant, true from exposure
on conflict (incident_id, tenant) do update set recipient = true;

-- What the incident list shows of each incident, kept by the triggers below: how many responses leaked (a count of
-- incident_leaked_response) and its victim and recipient tenants (from incident_tenant_exposure: those with exposed
-- requests; those marked recipient). The incident is a personal data breach when it has a victim tenant. A missing
-- row is an incident with none of them. The tenants' rows are written only by transactions that hold the incident's
-- row lock; a leaked response may also be added by one that does not (a FINISH read later), so these counts live
-- apart from the incident's row and each statement takes their rows in one order.
create table incident_counter (
    incident_id       uuid   primary key references incident (id),
    leaked_responses  bigint not null default 0,
    victim_tenants    text[] not null default '{}',
    recipient_tenants text[] not null default '{}'
);

insert into incident_counter (incident_id, leaked_responses, victim_tenants, recipient_tenants)
select i.id, coalesce(l.n, 0), coalesce(t.v, '{}'), coalesce(t.r, '{}')
from incident i
left join (select incident_id, count(*) as n from incident_leaked_response group by 1) l on l.incident_id = i.id
left join (select incident_id,
             array_agg(tenant order by tenant) filter (where exposed_requests > 0) as v,
             array_agg(tenant order by tenant) filter (where recipient) as r
           from incident_tenant_exposure group by 1) t on t.incident_id = i.id
where l.incident_id is not null or t.incident_id is not null;

create function vigie_leaked_added() returns trigger
language plpgsql as $$
begin
    insert into incident_counter as c (incident_id, leaked_responses)
    select incident_id, count(*) from new_leaked group by 1 order by 1
    on conflict (incident_id) do update set leaked_responses = c.leaked_responses + excluded.leaked_responses;
    return null;
end
$$;

create trigger leaked_counted after insert on incident_leaked_response
    referencing new table as new_leaked for each statement execute function vigie_leaked_added();

-- The incidents' tenant lists again from their rows, for the incidents given.
create function vigie_tenants_listed(incidents uuid[]) returns void
language sql as $$
    insert into incident_counter as c (incident_id, victim_tenants, recipient_tenants)
    select incident_id,
      coalesce(array_agg(tenant order by tenant) filter (where exposed_requests > 0), '{}'),
      coalesce(array_agg(tenant order by tenant) filter (where recipient), '{}')
    from incident_tenant_exposure where incident_id = any(incidents) group by 1 order by 1
    on conflict (incident_id) do update set victim_tenants = excluded.victim_tenants,
      recipient_tenants = excluded.recipient_tenants
$$;

create function vigie_tenants_added() returns trigger
language plpgsql as $$
begin
    perform vigie_tenants_listed(array(select distinct incident_id from new_tenants));
    return null;
end
$$;

-- only a tenant that becomes a victim or a recipient changes the lists; counts that grow do not
create function vigie_tenants_changed() returns trigger
language plpgsql as $$
begin
    perform vigie_tenants_listed(array(
        select distinct n.incident_id from new_tenants n join old_tenants o using (incident_id, tenant)
        where (o.exposed_requests > 0) <> (n.exposed_requests > 0) or o.recipient <> n.recipient));
    return null;
end
$$;

create trigger tenants_listed_insert after insert on incident_tenant_exposure
    referencing new table as new_tenants for each statement execute function vigie_tenants_added();
create trigger tenants_listed_update after update on incident_tenant_exposure
    referencing old table as old_tenants new table as new_tenants
    for each statement execute function vigie_tenants_changed();

-- Findings per (incident, rule), kept by triggers on finding: every insert, move (a REJECTED_REQUEST_SERVED whose
-- first rejection turns out to be of another deployment changes incident) and delete is counted, whatever writes it.
-- Writers of an incident's findings hold its row lock (DetectionStore.openIncident), so its counters are not
-- contended by two transactions at once.
create table incident_finding_count (
    incident_id uuid   not null references incident (id),
    rule        text   not null,
    findings    bigint not null,
    primary key (incident_id, rule)
);

insert into incident_finding_count (incident_id, rule, findings)
select incident_id, rule, count(*) from finding group by 1, 2;

create function vigie_findings_added() returns trigger
language plpgsql as $$
begin
    insert into incident_finding_count as c (incident_id, rule, findings)
    select incident_id, rule, count(*) from new_findings group by 1, 2 order by 1, 2
    on conflict (incident_id, rule) do update set findings = c.findings + excluded.findings;
    return null;
end
$$;

create function vigie_findings_removed() returns trigger
language plpgsql as $$
begin
    update incident_finding_count c set findings = c.findings - o.n
    from (select incident_id, rule, count(*) as n from old_findings group by 1, 2) o
    where c.incident_id = o.incident_id and c.rule = o.rule;
    return null;
end
$$;

-- a finding moved to another incident: one row at a time (moves are rare; evidence updates do not fire it)
create function vigie_finding_moved() returns trigger
language plpgsql as $$
begin
    update incident_finding_count set findings = findings - 1
    where incident_id = old.incident_id and rule = old.rule;
    insert into incident_finding_count as c (incident_id, rule, findings) values (new.incident_id, new.rule, 1)
    on conflict (incident_id, rule) do update set findings = c.findings + 1;
    return null;
end
$$;

create trigger finding_counted_insert after insert on finding
    referencing new table as new_findings for each statement execute function vigie_findings_added();
create trigger finding_counted_delete after delete on finding
    referencing old table as old_findings for each statement execute function vigie_findings_removed();
create trigger finding_counted_move after update of incident_id, rule on finding for each row
    when (old.incident_id is distinct from new.incident_id or old.rule is distinct from new.rule)
    execute function vigie_finding_moved();

-- Keyset paging of an incident's exposures and findings (GET .../exposures?after=, .../findings?after=) walks these
-- indexes instead of sorting the whole incident for each page. The exposures' order is by code point (collate "C",
-- whatever the database's collation), so their pair key is now indexed in that collation: the same uniqueness (C is
-- deterministic), and the upsert's ON CONFLICT names no collation, so it still finds it.
create unique index exposure_pair_c on exposure (incident_id, reader_request collate "C", victim_request collate "C");
alter table exposure drop constraint exposure_pair;
alter index exposure_pair_c rename to exposure_pair;
create index finding_incident on finding (incident_id, id);
