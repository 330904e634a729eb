-- Obligations: what is recorded of each case; the obligations themselves are computed from these facts and the
-- rules (compliance-rules/), so that a corrected rule corrects every open case. tenant = '' is the provider's own.

create table case_awareness (
    incident_id uuid        not null references incident (id),
    tenant      text        not null,
    aware_at    timestamptz not null,  -- when our alert reached the controller: its clocks start here
    evidence    text        not null,  -- how it is known (acknowledgement, delivery receipt)
    recorded_by text        not null,
    recorded_at timestamptz not null,
    primary key (incident_id, tenant)
);

create table case_decision (
    incident_id   uuid        not null references incident (id),
    tenant        text        not null,
    decision      text        not null,  -- major, serious, significant, unlikely_risk...
    value         boolean     not null,
    decided_at    timestamptz not null,
    justification text        not null,
    recorded_by   text        not null,
    recorded_at   timestamptz not null,
    primary key (incident_id, tenant, decision)
);

create table case_severity (
    incident_id            uuid        not null references incident (id),
    tenant                 text        not null,
    inputs                 jsonb,      -- ENISA's inputs (category, adjustment, ei, confidentiality, ...)
    override_level         text,       -- the controller's decision: LOW, MEDIUM, HIGH, VERY_HIGH
    override_justification text,
    recorded_by            text        not null,
    recorded_at            timestamptz not null,
    primary key (incident_id, tenant),
    check (inputs is not null or override_level is not null),
    check ((override_level is null) = (override_justification is null))
);

create table obligation_completion (
    id           bigserial primary key,
    incident_id  uuid        not null references incident (id),
    tenant       text        not null,
    rule         text        not null,
    recipient    text        not null,
    phase        text,                   -- INITIAL, COMPLEMENTARY for a phased notification
    done_at      timestamptz not null,
    evidence     text        not null,   -- a receipt number, a message id
    late_reasons text,
    recorded_by  text        not null,
    recorded_at  timestamptz not null
);
create index obligation_completion_incident on obligation_completion (incident_id);

-- A reminder before (or at) a deadline, written once: several instances and restarts insert the same key.
create table escalation (
    id          bigserial primary key,
    incident_id uuid        not null references incident (id),
    tenant      text        not null,
    rule        text        not null,
    recipient   text        not null,
    step        text        not null,   -- T-24H, T-6H, T-1H, OVERDUE
    due_at      timestamptz not null,   -- the deadline it counts down to (a moved deadline gets its own steps)
    fire_at     timestamptz not null,   -- when it was due to fire
    fired_at    timestamptz not null,   -- when it was written
    status      text        not null,   -- the obligation's status then: PENDING or LATE
    unique (incident_id, tenant, rule, recipient, step, due_at)
);
create index escalation_incident on escalation (incident_id);
