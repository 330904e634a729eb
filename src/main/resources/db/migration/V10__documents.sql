-- What a controller states of its case (data categories, persons, consequences...), which only it knows; and the
-- issued versions of the documents that keep a history (the authority notification: initial, complementary).

create table case_statement (
    incident_id uuid        not null references incident (id),
    tenant      text        not null,
    body        jsonb       not null,
    recorded_by text        not null,
    recorded_at timestamptz not null,
    primary key (incident_id, tenant)
);

create table document_version (
    id          bigserial primary key,
    incident_id uuid        not null references incident (id),
    tenant      text        not null,
    kind        text        not null,   -- authority-notification
    version     integer     not null,
    phase       text        not null,   -- INITIAL, COMPLEMENTARY
    issued_at   timestamptz not null,
    issued_by   text        not null,
    body        text        not null,   -- the document's JSON as issued
    sha256      text        not null,
    unique (incident_id, tenant, kind, version)
);
