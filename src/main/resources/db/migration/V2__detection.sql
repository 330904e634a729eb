-- Detection: incidents per deployment, their findings and exposures, and what is known of each request across
-- streams (for REJECTED_REQUEST_SERVED and the delivery of exposures).

create table incident (
    id                uuid primary key,
    deployment        text        not null,
    status            text        not null,  -- OPEN, TRIAGED, CONFIRMED, DISMISSED, CLOSED
    status_reason     text,
    detected_at       timestamptz not null,  -- when Vigie first recorded a finding of it
    first_exposure_at timestamptz,           -- earliest ts of an ATTACH that judged an exposure
    last_exposure_at  timestamptz,
    updated_at        timestamptz not null
);
-- at most one incident per deployment that is not closed: findings join it
create unique index incident_open_per_deployment on incident (deployment) where status <> 'CLOSED';
create index incident_detected on incident (detected_at desc);

create table finding (
    id          bigserial primary key,
    incident_id uuid        not null references incident (id),
    rule        text        not null,
    deployment  text        not null,
    subject     text        not null,  -- request id, or stream@boot for rules counted per (stream, boot)
    stream      text        not null,
    boot        text        not null,
    first_seq   bigint      not null,
    last_seq    bigint      not null,
    detail      text        not null,
    seen_at     timestamptz not null,  -- ts of the record that raised it
    recorded_at timestamptz not null,
    unique (incident_id, rule, subject)
);

-- one row per (reader, victim) and stream: tokens is that stream's count; the API sums the streams
create table exposure (
    id             bigserial primary key,
    incident_id    uuid        not null references incident (id),
    kind           text        not null,  -- CROSS_TENANT or INTRA_TENANT
    reader_request text        not null,
    reader_tenant  text        not null,
    victim_request text        not null,
    victim_tenant  text        not null,
    stream         text        not null,
    boot           text        not null,
    tokens         integer     not null,
    first_seen_at  timestamptz not null,
    last_seen_at   timestamptz not null,
    unique (incident_id, reader_request, victim_request, stream, boot)
);
create index exposure_reader on exposure (reader_request);

create table request_fact (
    request             text primary key,
    tenant              text,
    rejected            boolean not null default false,
    rejected_deployment text,
    rejected_stream     text,
    rejected_boot       text,
    rejected_seq        bigint,
    rejected_at         timestamptz,
    served              boolean not null default false,
    finished            boolean not null default false,
    delivered           boolean,            -- of the last FINISH seen
    delivered_output    boolean not null default false,
    served_finding      boolean not null default false  -- REJECTED_REQUEST_SERVED already raised
);
create index request_fact_rejected on request_fact (request) where rejected;

alter table quarantine add column stage text not null default 'intake';  -- intake, or apply (impossible in state)
