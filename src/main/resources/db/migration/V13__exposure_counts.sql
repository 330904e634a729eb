-- Per (incident, tenant): how many of the tenant's requests were exposed (as victims) and how many received other
-- tenants' tokens (as cross-tenant readers). Kept as exposures are written (the incident's row lock orders the
-- writers), so that planning customer alerts on every detection commit does not count them again over every
-- exposure of the incident: with one large incident that count made intake slower as the incident grew.
create table incident_tenant_exposure (
    incident_id       uuid   not null references incident (id),
    tenant            text   not null,
    exposed_requests  bigint not null default 0,
    received_requests bigint not null default 0,
    primary key (incident_id, tenant)
);

insert into incident_tenant_exposure (incident_id, tenant, exposed_requests, received_requests)
select incident_id, tenant, sum(exposed), sum(received)
from (select incident_id, victim_tenant as tenant, count(distinct victim_request) as exposed, 0 as received
      from exposure group by 1, 2
      union all
      select incident_id, reader_tenant, 0, count(distinct reader_request)
      from exposure where kind = 'CROSS_TENANT' group by 1, 2) counts
group by 1, 2;
