-- compose only: the service's role, made by the owner (the superuser vigie here) if absent, its attributes and password
-- set at every start (a changed db_service_password.txt takes effect). In Kubernetes CloudNativePG makes it
-- (deploy/kubernetes/postgres/cluster.yaml, managed.roles). Its grants follow: service-grants.sql.
do $$
begin
    if not exists (select 1 from pg_roles where rolname = 'vigie_service') then
        create role vigie_service;
    end if;
end $$;
\set service_password `cat /run/secrets/db_service_password`
alter role vigie_service login nosuperuser nocreatedb nocreaterole noreplication nobypassrls noinherit
    password :'service_password';
