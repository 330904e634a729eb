-- Intake of the page audit log: streams and their cursors, accepted records, lost gaps, the quarantine.
-- Every timestamp is timestamptz and written in UTC.

create table stream_boot (
    id            bigserial primary key,
    stream        text        not null,
    boot          text        not null,
    next_seq      bigint      not null default 1,  -- the next seq to apply; all below are applied or lost
    max_seq       bigint      not null default 0,  -- the highest accepted seq
    accepted      bigint      not null default 0,  -- accepted records (applied, pending or lost behind nothing)
    duplicates    bigint      not null default 0,
    first_seen_at timestamptz not null,
    last_seen_at  timestamptz not null,
    unique (stream, boot)
);

create table audit_record (
    stream_boot_id bigint      not null references stream_boot (id),
    seq            bigint      not null,
    type           text        not null,
    ts             timestamptz not null,
    body           text        not null,  -- canonical JSON of the record (known fields only)
    source         text        not null,  -- http, kafka or file
    received_at    timestamptz not null,
    primary key (stream_boot_id, seq)
);

create table stream_gap (
    id             bigserial primary key,
    stream_boot_id bigint      not null references stream_boot (id),
    from_seq       bigint      not null,
    to_seq         bigint      not null,
    cause          text        not null,  -- FLUSH or TIMEOUT
    declared_at    timestamptz not null
);
create index stream_gap_stream_boot on stream_gap (stream_boot_id);

create table quarantine (
    id          bigserial primary key,
    received_at timestamptz not null,
    source      text        not null,  -- http, kafka or file
    source_name text        not null,  -- http: batch id; kafka: topic-partition; file: file name
    position    bigint      not null,  -- http and file: 1-based line; kafka: offset
    reason      text        not null,
    raw         bytea       not null,  -- the line exactly as received
    stream      text,
    boot        text,
    seq         bigint,
    unique (source, source_name, position)
);
create index quarantine_received on quarantine (received_at desc, id desc);

create table app_user (
    username      text primary key,
    password_hash text        not null,
    roles         text[]      not null,
    tenant        text,
    created_at    timestamptz not null,
    updated_at    timestamptz not null
);

-- Every state change: who, when, what, before and after. Append-only.
create table audit_event (
    id      bigserial primary key,
    at      timestamptz not null,
    actor   text        not null,
    action  text        not null,
    target  text        not null,
    before  jsonb,
    after   jsonb
);
create index audit_event_at on audit_event (at desc);
