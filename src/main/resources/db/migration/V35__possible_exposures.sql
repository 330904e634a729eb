-- Spec 1.3, amendment 3 (send windows). A send's XFER_DONE tells the writes other requests made to its slots while the
-- transport read them: stored as a send marked possible, whose origins are those writers (runs that may overlap).
alter table transfer_send add column possible boolean not null default false;

-- Exposures that only such a write gives: the content read is uncertain. Kept apart from the certain ones in
-- "exposure", so that every count, classification and document made from that table stays of certain exposures; a
-- pair (incident, reader, victim) is in one table at most: once one read of it is certain, its row moves to
-- "exposure" with every position read (page-audit-log.md, amendment 3: certain as soon as one position is).
create table possible_exposure (
    incident_id    uuid        not null references incident (id),
    kind           text        not null,  -- CROSS_TENANT or INTRA_TENANT
    reader_request text        not null,
    reader_tenant  text        not null,
    victim_request text        not null,
    victim_tenant  text        not null,
    positions      integer[]   not null,  -- [from, to) pairs, flattened (as exposure.positions, V14)
    tokens         integer     not null,
    first_seen_at  timestamptz not null,
    last_seen_at   timestamptz not null,
    primary key (incident_id, reader_request, victim_request)
);
