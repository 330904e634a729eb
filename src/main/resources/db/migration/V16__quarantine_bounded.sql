-- The quarantine keeps a bounded prefix of each rejected line (64 KiB) with the full length and the SHA-256 of what
-- was received: a 60 MiB line no longer costs 60 MiB per row, nor per list page.
alter table quarantine add column raw_length bigint;
alter table quarantine add column raw_sha256 text;
update quarantine set raw_length = length(raw), raw_sha256 = encode(sha256(raw), 'hex');
update quarantine set raw = substring(raw from 1 for 65536) where length(raw) > 65536;
alter table quarantine alter column raw_length set not null;
alter table quarantine alter column raw_sha256 set not null;
