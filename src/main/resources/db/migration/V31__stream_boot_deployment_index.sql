-- The intake counts the (stream, boot) pairs of a deployment before it adds one (vigie.ingest.max-boots-per-deployment,
-- issue 41): a hostile runtime cannot make it keep an unbounded number of boots.
create index if not exists stream_boot_deployment on stream_boot (deployment);
