-- Measures taken in an incident (for the notices and the register), and the violation register (GDPR Art.
-- 33(5)): append-only and hash-chained, each entry's hash = SHA-256(previous hash, its exact text).

create table incident_measure (
    id          bigserial primary key,
    incident_id uuid        not null references incident (id),
    taken_at    timestamptz not null,
    text        text        not null,
    recorded_by text        not null,
    recorded_at timestamptz not null
);
create index incident_measure_incident on incident_measure (incident_id);

create table register_entry (
    id          bigserial primary key,
    controller  text        not null,  -- the tenant whose register it is, or '' for the provider's own
    incident_id uuid        not null references incident (id),
    recorded_at timestamptz not null,
    recorded_by text        not null,
    body        text        not null,  -- the entry (JSON), exactly as hashed
    prev_hash   text        not null,  -- 64 zeros for the first entry
    hash        text        not null unique
);
create index register_entry_incident on register_entry (incident_id);
create index register_entry_controller on register_entry (controller);

-- Append-only: no update, no delete (verify still catches a change made around this, e.g. by a superuser).
create function register_entry_append_only() returns trigger language plpgsql as $$
begin
    raise exception 'the violation register is append-only: % refused', tg_op;
end $$;
create trigger register_entry_append_only before update or delete on register_entry
    for each row execute function register_entry_append_only();
