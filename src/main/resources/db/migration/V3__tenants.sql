-- The tenant directory: each tenant (the account name in the logs) mapped to its controller.
create table tenant (
    id              text primary key,
    legal_name      text        not null,
    country         text        not null,  -- ISO 3166-1 alpha-2
    company_id      text,                  -- e.g. SIREN, company number
    dpo_name        text,
    dpo_email       text,
    dpo_phone       text,
    alert_channels  jsonb       not null default '[]',  -- [{"type": "webhook|email|kafka", "target": "..."}]
    alert_delay     text,                  -- contractual processor-to-controller delay (ISO-8601 duration)
    jurisdictions   text[]      not null default '{}',
    sectors         text[]      not null default '{}',
    source          text        not null,  -- api or file
    created_at      timestamptz not null,
    updated_at      timestamptz not null
);
