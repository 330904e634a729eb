-- What the service's role may do, as in embedded mode (EmbeddedDatabase): read and write the rows of every table and
-- use every sequence the owner makes, now and in later migrations; nothing more. It owns nothing and is no superuser,
-- so it can neither disable the append-only triggers (ALTER TABLE needs ownership), nor TRUNCATE audit_event (no
-- TRUNCATE privilege), nor create or drop anything.
--
-- Run as the owner (vigie), after the migrations, at every rollout (it is idempotent): the init container "grants"
-- of deploy/kubernetes/base/deployment.yaml, the one-shot "db-roles" of deploy/compose/compose.yaml.
-- DeployRolesTest applies this file to a real PostgreSQL and attacks as the service's role.
grant connect, temporary on database vigie to vigie_service;
grant usage on schema public to vigie_service;
-- already so since PostgreSQL 15; said here so that no older default lets the service create tables in public
revoke create on schema public from public;
grant select, insert, update, delete on all tables in schema public to vigie_service;
grant usage, select, update on all sequences in schema public to vigie_service;
-- the tables and sequences of later migrations (made by the owner) get the same, and only that
alter default privileges for role vigie in schema public
    grant select, insert, update, delete on tables to vigie_service;
alter default privileges for role vigie in schema public
    grant usage, select, update on sequences to vigie_service;
-- the migrations' history is the owner's: the service only reads it (quarkus.flyway.validate-at-start)
revoke insert, update, delete on flyway_schema_history from vigie_service;
