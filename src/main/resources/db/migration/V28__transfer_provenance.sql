-- Spec v1.1, provenance through KV transfers (docs/page-audit-log.md): the sender's XFER_SEND records as judged on
-- its stream, and the reads of content a transfer written with "sent": true brought. Detection joins the two, in any
-- order of arrival (TransferStore), under a transaction-scoped advisory lock per transferred request.

create table transfer_send (
    stream text not null,
    boot text not null,
    seq bigint not null,
    deployment text not null,
    request text not null,
    tenant text not null,
    from_pos integer not null,
    to_pos integer not null,
    -- positions whose origin is not the request itself: "from SOH to SOH request SOH tenant" joined by STX (an empty
    -- request: never written); identifiers never hold control characters (the intake refuses them)
    foreign_origins text,
    seen_at timestamptz not null,
    primary key (stream, boot, seq)
);
create index transfer_send_request on transfer_send (request);

create table transfer_read (
    -- the first 16 bytes of the SHA-256 of what the read is (deployment, reader, via, positions, shared): a replay,
    -- a later ATTACH or another tensor-parallel rank reading the same is one row
    key uuid primary key,
    deployment text not null,
    reader text not null,
    reader_tenant text not null,
    reader_from integer not null,
    via text not null,
    via_tenant text not null,
    via_from integer not null,
    tokens integer not null,
    shared boolean not null,
    attach_tokens integer not null,
    stream text not null,
    boot text not null,
    seq bigint not null,
    seen_at timestamptz not null,
    -- when Vigie stored it, and whether the check for a missing XFER_SEND (TransferCheck) has looked at it
    stored_at timestamptz not null default now(),
    checked boolean not null default false
);
create index transfer_read_via on transfer_read (via);
create index transfer_read_unchecked on transfer_read (stored_at) where not checked;
-- the retention job deletes a purged boot's reads
create index transfer_read_boot on transfer_read (stream, boot);
