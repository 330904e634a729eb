-- Storage limitation (GDPR Art. 5(1)(e)) of Vigie's own data: what the retention job (app.vigie.retention) needs to
-- tell what it may delete, and what it leaves behind (docs/operations.md, "Retention").

-- The deployment of a (stream, boot): that of the first record accepted for it (a boot serves one deployment).
-- Null for boots made before V25 until the retention job reads it from the boot's first stored record.
alter table stream_boot add column deployment text;
-- When the retention job deleted the boot's records and detector snapshot. The row stays (its counts, its gaps):
-- a record of the boot that comes later is rejected with this date as its reason instead of judged on nothing.
alter table stream_boot add column purged_at timestamptz;
-- Set with purged_at, cleared once every segment of the boot is deleted (a boot of a week holds millions of records:
-- they go a bounded chunk per transaction).
alter table stream_boot add column purge_pending boolean not null default false;
-- No index on last_seen_at: the intake moves it on every chunk, and an indexed column would make each of those
-- updates a non-HOT one (a new entry in every index of stream_boot); the hourly job scans the table instead.

-- When detection last wrote a request's facts. Not indexed, so that the intake's upsert stays a HOT update; the job
-- scans for old rows.
alter table request_fact add column touched_at timestamptz not null default now();

-- Where a request was first served (an ALLOC or ATTACH, or a FINISH delivered with output): the boot a
-- REJECTED_REQUEST_SERVED finding rests on besides the boot of the rejection.
alter table request_fact add column served_stream text;
alter table request_fact add column served_boot text;

-- The boots an incident rests on, recorded by detection in the transaction that writes what they gave: the boot of
-- each finding, every boot where a read of one of its exposures was judged, and the boot that served a rejected
-- request. The retention job keeps these boots' records while the incident keeps its evidence, and the evidence
-- check replays exactly them. Incidents detected before V25 get the boots of their findings.
create table incident_evidence_boot (
    incident_id uuid not null references incident (id),
    stream      text not null,
    boot        text not null,
    primary key (incident_id, stream, boot)
);
create index incident_evidence_boot_stream on incident_evidence_boot (stream, boot);
insert into incident_evidence_boot (incident_id, stream, boot)
select distinct incident_id, stream, boot from finding;

-- When the incident was closed (its evidence is kept for vigie.retention.incident-evidence after it).
alter table incident add column closed_at timestamptz;
update incident set closed_at = updated_at where status = 'CLOSED';

-- A delivered alert's body, once past vigie.retention.alert-bodies, is replaced by the SHA-256 of the text kept (the
-- notice before each channel put in the acknowledgement link): it identifies which text was sent, without Vigie
-- keeping it. body_purged_at tells such an alert from one whose body is not made yet (body null, to be sent).
alter table customer_alert add column body_sha256 text;
alter table customer_alert add column body_purged_at timestamptz;
