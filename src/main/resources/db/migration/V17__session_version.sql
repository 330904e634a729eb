-- Sessions revocable: a dashboard session cookie names the account's session version at sign-in; signing out and a
-- change of password or roles move the version on, and every older cookie is refused.
alter table app_user add column session_version integer not null default 0;
