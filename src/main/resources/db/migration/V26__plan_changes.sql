-- The reminder check plans only the running incidents whose plan may have changed (issue 22, goal 1): at 10,000
-- incidents, planning every one every 30 seconds took 2.3 s of the 2 cores, and the overview's p99 with it.
-- An incident is planned again when
--   * it has no saved deadlines yet, or they were saved under other rules, provider profile or escalation steps
--     (incident_deadline.planned_with; null: saved by another path than the check, which plans it again);
--   * time reaches its check_at: the next escalation step of an open obligation, or the instant past which time
--     alone changes its plan (a deadline passing, a cap lapsing while undecided); null: nothing timed is left;
--   * one of its facts changed: a row in plan_change, written by the triggers below in the transaction that changes
--     the fact, so that no writer (today's or a later one) can forget it. The check deletes the rows it read for the
--     incidents it planned, in the transaction that saves their plans: a change committed meanwhile keeps its row and
--     is planned at the next check, whatever order transactions commit in.
-- Every instance also plans every running incident at its first check and then every
-- vigie.compliance.full-check-every (a net under this, and for a new version of the planner).
alter table incident_deadline add column check_at timestamptz, add column planned_with text;

create table plan_change (
    seq         bigserial primary key,
    incident_id uuid not null
);

-- the case's facts people record, and the exposure counters (only when a tenant becomes exposed or a recipient)
create function vigie_plan_changed() returns trigger
language plpgsql as $$
begin
    insert into plan_change (incident_id)
    values (case when tg_op = 'DELETE' then old.incident_id else new.incident_id end);
    return null;
end
$$;

create trigger plan_awareness after insert or update or delete on case_awareness
    for each row execute function vigie_plan_changed();
create trigger plan_decision after insert or update or delete on case_decision
    for each row execute function vigie_plan_changed();
create trigger plan_severity after insert or update or delete on case_severity
    for each row execute function vigie_plan_changed();
create trigger plan_completion after insert or update or delete on obligation_completion
    for each row execute function vigie_plan_changed();
create trigger plan_exposure_insert after insert on incident_tenant_exposure
    for each row when (new.exposed_requests > 0 or new.received_requests > 0)
    execute function vigie_plan_changed();
create trigger plan_exposure_update after update on incident_tenant_exposure
    for each row when ((old.exposed_requests > 0) <> (new.exposed_requests > 0)
                       or (old.received_requests > 0) <> (new.received_requests > 0)
                       or old.incident_id <> new.incident_id or old.tenant <> new.tenant)
    execute function vigie_plan_changed();
create trigger plan_exposure_delete after delete on incident_tenant_exposure
    for each row execute function vigie_plan_changed();

-- the incident's own row: its status, the reason of a dismissal, its detection time
create function vigie_plan_incident_changed() returns trigger
language plpgsql as $$
begin
    insert into plan_change (incident_id) values (new.id);
    return null;
end
$$;

create trigger plan_incident after update on incident
    for each row when (old.status is distinct from new.status or old.status_reason is distinct from new.status_reason
                       or old.detected_at is distinct from new.detected_at)
    execute function vigie_plan_incident_changed();

-- an alert delivered starts the controller's clock
create function vigie_plan_alert_delivered() returns trigger
language plpgsql as $$
begin
    insert into plan_change (incident_id)
    select incident_id from customer_alert
    where id = case when tg_op = 'DELETE' then old.alert_id else new.alert_id end;
    return null;
end
$$;

create trigger plan_delivery_insert after insert on alert_delivery
    for each row when (new.status = 'DELIVERED') execute function vigie_plan_alert_delivered();
create trigger plan_delivery_update after update on alert_delivery
    for each row when (new.status = 'DELIVERED' and (old.status is distinct from new.status
                       or old.delivered_at is distinct from new.delivered_at))
    execute function vigie_plan_alert_delivered();
create trigger plan_delivery_delete after delete on alert_delivery
    for each row when (old.status = 'DELIVERED') execute function vigie_plan_alert_delivered();

-- a directory entry (the controller's country, sectors, DPA delay...) plans every incident the tenant is in
create function vigie_plan_tenant_changed() returns trigger
language plpgsql as $$
begin
    insert into plan_change (incident_id)
    select distinct incident_id from incident_tenant_exposure
    where tenant in (case when tg_op = 'INSERT' then null else old.id end,
                     case when tg_op = 'DELETE' then null else new.id end);
    return null;
end
$$;

create trigger plan_tenant after insert or update or delete on tenant
    for each row execute function vigie_plan_tenant_changed();
