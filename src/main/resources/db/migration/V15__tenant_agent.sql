-- HIPAA, 45 CFR 164.404(a)(2): a business associate acting as the covered entity's agent (federal common law of
-- agency) has its discovery imputed to the covered entity, whose own 60 days then run from it.
alter table tenant add column processor_is_agent boolean not null default false;
