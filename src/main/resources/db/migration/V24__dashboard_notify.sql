-- Open dashboards learn of a change when it commits (issue 22, goal 4): every statement that changes what the
-- overview shows (incidents, their counters, findings, exposures, audit events, reminders) queues a notification on
-- channel vigie_dashboard. PostgreSQL delivers it at commit, once per transaction (identical notifications are
-- folded), to every instance listening (DashboardEvents), whichever instance wrote. A rolled-back transaction
-- notifies nothing. The instances' periodic check stays as the fallback when the listening connection is lost.
-- A statement that changed no row (an insert whose rows all existed) notifies nothing: each trigger names its rows
-- changed_rows, and the function looks at them.
create function vigie_dashboard_changed() returns trigger
language plpgsql as $$
begin
    if exists (select 1 from changed_rows) then
        perform pg_notify('vigie_dashboard', '');
    end if;
    return null;
end
$$;

create trigger dashboard_incident_insert after insert on incident
    referencing new table as changed_rows for each statement execute function vigie_dashboard_changed();
create trigger dashboard_incident_update after update on incident
    referencing new table as changed_rows for each statement execute function vigie_dashboard_changed();
create trigger dashboard_counter_insert after insert on incident_counter
    referencing new table as changed_rows for each statement execute function vigie_dashboard_changed();
create trigger dashboard_counter_update after update on incident_counter
    referencing new table as changed_rows for each statement execute function vigie_dashboard_changed();
create trigger dashboard_finding_insert after insert on finding
    referencing new table as changed_rows for each statement execute function vigie_dashboard_changed();
create trigger dashboard_finding_update after update on finding
    referencing new table as changed_rows for each statement execute function vigie_dashboard_changed();
create trigger dashboard_exposure_insert after insert on exposure
    referencing new table as changed_rows for each statement execute function vigie_dashboard_changed();
create trigger dashboard_exposure_update after update on exposure
    referencing new table as changed_rows for each statement execute function vigie_dashboard_changed();
create trigger dashboard_audit_insert after insert on audit_event
    referencing new table as changed_rows for each statement execute function vigie_dashboard_changed();
create trigger dashboard_escalation_insert after insert on escalation
    referencing new table as changed_rows for each statement execute function vigie_dashboard_changed();
