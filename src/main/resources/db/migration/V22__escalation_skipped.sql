-- A step reached while the service was down, behind a later step reached too: recorded, not sent (issue 22, goal 8).
alter table escalation add column skipped boolean not null default false;
