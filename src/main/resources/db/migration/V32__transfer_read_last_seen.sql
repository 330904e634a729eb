-- Spec 1.3, amendment 7: every ATTACH that judges an exposure counts for last_exposure_at, reads of received
-- positions too. A read made again by a later ATTACH is still one row (the earliest occurrence, the evidence);
-- last_seen_at is the latest ATTACH that made it.
alter table transfer_read add column last_seen_at timestamptz;
update transfer_read set last_seen_at = seen_at;
alter table transfer_read alter column last_seen_at set not null;
