-- The latest state of each (stream, boot) detector, taken every vigie.detection.snapshot-every records in the
-- transaction that applied them: a restart restores it and replays only the records after it.
create table detector_snapshot (
    stream   text        not null,
    boot     text        not null,
    seq      bigint      not null,  -- every record up to this seq is in the state
    state    bytea       not null,  -- StreamDetector.snapshot, deflated
    taken_at timestamptz not null,
    primary key (stream, boot)
);
