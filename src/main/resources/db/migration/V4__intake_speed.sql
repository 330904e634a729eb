-- The foreign key check costs a query per inserted record; the cursor row is always created first in the same
-- transaction by the intake, which is the only writer of audit_record.
alter table audit_record drop constraint audit_record_stream_boot_id_fkey;
