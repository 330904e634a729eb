-- Spec 1.3, amendment 4 (chains): a position received and sent on again keeps the origin it had where it was
-- received, through any number of hops. A send whose origins name positions received by another transfer is
-- referenced from that transfer here, so that a send arriving later finds the reads whose chain passes through it.
create table transfer_send_ref (
    -- the referencing send (transfer_send's key), and its request and transfer
    stream text not null,
    boot text not null,
    seq bigint not null,
    request text not null,
    transfer text,
    -- the transfer whose received positions that send holds (null transfer: one written without id)
    ref_request text not null,
    ref_transfer text
);
create index transfer_send_ref_ref on transfer_send_ref (ref_request);
-- the retention job deletes a purged boot's rows
create index transfer_send_ref_boot on transfer_send_ref (stream, boot);

-- What a flush judged as in version 1 at a hop further down a chain (amendment 4 with amendment 5): "request SOH tenant
-- SOH transfer SOH from SOH to" in reader positions, joined by STX (transfer ETX: none)
alter table transfer_read add column resolved_hops text;
