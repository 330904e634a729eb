-- The provider's identity as the DPO records it on the settings page (one row): it replaces the environment's
-- values (VIGIE_PROVIDER_NAME, VIGIE_PROVIDER_CONTACT...) once saved, without a restart.
create table provider_settings (
    id smallint primary key check (id = 1),
    legal_name text not null,
    address text,
    dpo_name text,
    dpo_email text,
    contact text not null,
    registration text,
    updated_by text not null,
    updated_at timestamptz not null
);
