-- Storage limitation (GDPR Art. 5(1)(e)) of Vigie's own data: what the retention job (app.vigie.retention) needs to
-- tell what it may delete, and what it leaves behind (docs/operations.md, "Retention").

-- The deployment of a (stream, boot): that of the first record accepted for it (a boot serves one deployment).
-- Null for boots made before V25 until the retention job reads it from the boot's first stored record.
alter table stream_boot add column deployment text;
-- When the retention job deleted the boot's records and detector snapshot. The row stays (its counts, its gaps):
-- a record of the boot that comes later is rejected with this date as its reason instead of judged on nothing.
alter table stream_boot add column purged_at timestamptz;
-- No index on last_seen_at: the intake moves it on every chunk, and an indexed column would make each of those
-- updates a non-HOT one (a new entry in every index of stream_boot); the hourly job scans the table instead.

-- When detection last wrote a request's facts. Not indexed, so that the intake's upsert stays a HOT update; the job
-- scans for old rows.
alter table request_fact add column touched_at timestamptz not null default now();

-- When the incident was closed (its evidence is kept for vigie.retention.incident-evidence after it).
alter table incident add column closed_at timestamptz;
update incident set closed_at = updated_at where status = 'CLOSED';

-- A delivered alert's body, once past vigie.retention.alert-bodies, is replaced by its SHA-256: what was sent can
-- still be matched against the copy the customer received, without Vigie keeping the text.
alter table customer_alert add column body_sha256 text;
alter table customer_alert add column body_purged_at timestamptz;
