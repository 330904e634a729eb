-- Accepted records are kept in segments instead of a row each: the lines of one (stream, boot) accepted in one
-- transaction, in seq order, LZ4-compressed. A row per record cost PostgreSQL more than everything else in the intake
-- (a heap tuple, a primary-key entry and WAL per record); a segment costs that once for up to 4096 records, and the
-- lines compress 2.5 to 7 times. Lookups by seq stay bounded: a segment never spans more than 4096 seqs, so the
-- segments holding seq n start within (n - 4096, n].
create table record_segment (
    stream_boot_id bigint      not null,
    first_seq      bigint      not null,
    last_seq       bigint      not null,  -- last_seq - first_seq < 4096
    records        integer     not null,
    seqs           bigint[],              -- the seq of each line, in order; null when they are first_seq..last_seq
    source         text        not null,  -- http, kafka or file
    received_at    timestamptz not null,
    codec          text        not null,  -- lz4: an LZ4 block of raw_length bytes once decompressed, the lines as
                                          -- received in seq order, each preceded by its length (unsigned LEB128);
                                          -- one: a single line as received (the rows of audit_record before V7)
    raw_length     integer     not null,
    data           bytea       not null,
    primary key (stream_boot_id, first_seq),
    check (last_seq >= first_seq and last_seq - first_seq < 4096),
    check (codec in ('lz4', 'one'))
);
-- The data is compressed already: PostgreSQL must not try again.
alter table record_segment alter column data set storage external;

insert into record_segment (stream_boot_id, first_seq, last_seq, records, seqs, source, received_at, codec,
                            raw_length, data)
select stream_boot_id, seq, seq, 1, null, source, received_at, 'one', octet_length(convert_to(body, 'UTF8')),
       convert_to(body, 'UTF8')
from audit_record;

drop table audit_record;
