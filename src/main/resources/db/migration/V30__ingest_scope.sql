-- Issue 41 point 5: what an ingest account may write. A line is taken from the account only when its deployment is
-- one of ingest_deployments (when set) and its stream starts with one of ingest_stream_prefixes (when set). Both
-- null: the account is not bound (it writes every stream, as before V30, and is shown with a warning).
alter table app_user add column ingest_deployments text[];
alter table app_user add column ingest_stream_prefixes text[];
