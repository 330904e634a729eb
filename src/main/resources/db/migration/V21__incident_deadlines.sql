-- The deadlines of each running incident's open obligations, as its last plan gave them. The reminder check writes
-- them for every running incident each period, an action on a case at once. The overview's summary counts
-- (obligations due within 24 hours, late ones) and its filters read them without planning every incident.
create table incident_deadline (
    incident_id  uuid          primary key references incident (id) on delete cascade,
    -- the due time of every open obligation that has one
    due_at       timestamptz[] not null,
    -- when each open obligation with a period (in law, in a contract, or a target with an outer limit) is late
    late_after   timestamptz[] not null,
    planned_at   timestamptz   not null
);

-- The overview's summary strip, computed after each reminder check over every running incident (counting them takes
-- longer than a page may: 160 ms at 10,000 incidents), read by every view of the overview as one row.
create table overview_summary (
    id                     int         primary key check (id = 1),
    incidents              int         not null,   -- running incidents counted
    due_soon               bigint      not null,   -- open obligations due within 24 hours of computed_at
    late                   bigint      not null,   -- open obligations late at computed_at
    alerts_undelivered     bigint      not null,   -- alerts of running incidents no channel has delivered
    alerts_unacknowledged  bigint      not null,   -- delivered, not acknowledged, not FINAL
    unmapped_tenants       int         not null,   -- affected tenants of running incidents not in the directory
    computed_at            timestamptz not null
);

-- The distinct tenants of the exposure counters, found one index probe each (a loose index scan) instead of a pass
-- over every (incident, tenant) pair: the directory's missing tenants at 10,000 incidents in milliseconds.
create index incident_tenant_exposure_tenant on incident_tenant_exposure (tenant, incident_id);
