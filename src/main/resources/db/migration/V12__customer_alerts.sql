-- Alerts to customers (the processor -> controller notice), written in the same transaction as the incident change
-- that calls for them, and their deliveries: the transactional outbox, one row per alert and channel.

create table customer_alert (
    id                 bigserial primary key,
    incident_id        uuid        not null references incident (id),
    tenant             text        not null,
    phase              text        not null,   -- INITIAL, UPDATE, FINAL
    idempotency_key    text        not null unique,
    created_at         timestamptz not null,
    -- the tenant's exposure when the alert was called for (an UPDATE follows when it grows)
    exposed_requests   bigint      not null,
    received_requests  bigint      not null,
    body               text,                   -- the notice's JSON, fixed at the first delivery: retries send the same
    ack_token          text        not null unique,   -- the capability in the acknowledgement link
    acknowledged_at    timestamptz,
    acknowledged_by    text,
    escalated_at       timestamptz             -- not acknowledged in time: the DPO was told
);
create unique index customer_alert_one_initial on customer_alert (incident_id, tenant) where phase = 'INITIAL';
create unique index customer_alert_one_final on customer_alert (incident_id, tenant) where phase = 'FINAL';
create index customer_alert_incident on customer_alert (incident_id, tenant, id);

create table alert_delivery (
    id              bigserial primary key,
    alert_id        bigint      not null references customer_alert (id),
    channel         text        not null,   -- webhook, email, kafka
    target          text        not null,
    status          text        not null,   -- HELD (waiting for the DPO), PENDING, DELIVERED, DEAD
    attempts        integer     not null default 0,
    next_attempt_at timestamptz not null,
    last_error      text,
    delivered_at    timestamptz,
    updated_at      timestamptz not null
);
create index alert_delivery_due on alert_delivery (next_attempt_at) where status = 'PENDING';
create index alert_delivery_alert on alert_delivery (alert_id);

-- The shared secret a tenant's webhook receiver checks signatures with (made by Vigie, shown to the tenant's DPO).
create table tenant_webhook_secret (
    tenant     text        primary key,
    secret     text        not null,
    created_at timestamptz not null
);

-- a tenant's exposure in an incident, counted at each change (AlertPlanner)
create index exposure_victim_tenant on exposure (incident_id, victim_tenant, victim_request);
create index exposure_reader_tenant on exposure (incident_id, reader_tenant, reader_request);
