-- The audit trail is append-only: no update, no delete (a superuser can still disable the trigger; the
-- database's own logs are the record of that).
create function audit_event_append_only() returns trigger language plpgsql as $$
begin
    raise exception 'the audit trail is append-only: % refused', tg_op;
end $$;
create trigger audit_event_append_only before update or delete on audit_event
    for each row execute function audit_event_append_only();
create index audit_event_actor on audit_event (actor, id);
create index audit_event_action on audit_event (action, id);
create index audit_event_target on audit_event (target text_pattern_ops);
