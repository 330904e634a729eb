-- The requests each incident counts, one row per (incident, role, request): its victims (requests whose tokens
-- another request read, either kind) and its cross-tenant readers. incident_tenant_exposure's exposed_requests and
-- received_requests are the counts of these rows per tenant. A writer adds its requests with ON CONFLICT DO NOTHING
-- and counts only the rows it inserted: two transactions bringing the same request count it once (the second waits
-- for the first's row), without holding the incident's row for the whole of their work (issue 22, goal 5: the
-- intake's transactions on one incident then overlap; DetectionStore.write).
create table incident_request (
    incident_id uuid not null references incident (id),
    role        char(1) not null check (role in ('V', 'R')),  -- V: victim, R: cross-tenant reader
    request     text not null,
    tenant      text not null,
    primary key (incident_id, role, request)
);

insert into incident_request (incident_id, role, request, tenant)
select distinct incident_id, 'V', victim_request, victim_tenant from exposure
on conflict do nothing;

insert into incident_request (incident_id, role, request, tenant)
select distinct incident_id, 'R', reader_request, reader_tenant from exposure where kind = 'CROSS_TENANT'
on conflict do nothing;
