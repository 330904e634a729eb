-- An exposure is counted once per (incident, reader, victim) across streams (page-audit-log.md, "Clarifications
-- (2026-12-03)"): a position read on two streams (tensor-parallel ranks, prefill and decode pools) or by two ATTACHes
-- counts once, so tokens is the size of the union of the positions. Until now one row was kept per stream and the
-- API added them up, counting such positions twice.
--
-- positions: the reader's logical positions last written by the victim, as flat half-open ranges
-- {start0, end0, start1, end1, ...}, sorted and disjoint; tokens = their size.
alter table exposure add column positions integer[];

-- Rows written before this migration have no positions (they were not kept): they become one row per pair whose
-- tokens is the largest count of one stream (a lower bound of the union; the sum the API showed was an upper bound).
-- New reads of such a pair add their positions, and tokens never goes below that bound (docs/detection.md).
update exposure e set first_seen_at = x.f, last_seen_at = x.l
from (select incident_id, reader_request, victim_request, min(first_seen_at) f, max(last_seen_at) l
      from exposure group by 1, 2, 3) x
where x.incident_id = e.incident_id and x.reader_request = e.reader_request and x.victim_request = e.victim_request;

delete from exposure e using exposure o
where o.incident_id = e.incident_id and o.reader_request = e.reader_request and o.victim_request = e.victim_request
  and (o.tokens > e.tokens or (o.tokens = e.tokens and o.id < e.id));

-- dropping the columns drops the old unique key (incident, reader, victim, stream, boot) with them
alter table exposure drop column stream, drop column boot;
alter table exposure add constraint exposure_pair unique (incident_id, reader_request, victim_request);

-- REJECTED_REQUEST_SERVED findings are looked up by request (their subject) when later facts complete them or an
-- earlier rejection moves them (DetectionStore.completeRaised), whichever incident holds them.
create index finding_rejected_served_subject on finding (subject) where rule = 'REJECTED_REQUEST_SERVED';

-- The union of two position sets (flat, sorted, disjoint [start, end) ranges), as Ranges.union does it in Java: the
-- exposure upsert unites the stored positions with a transaction's in one statement, without reading the rows back
-- while the incident is locked. A null (a row from before V14) is the empty set.
create function vigie_ranges_union(a integer[], b integer[]) returns integer[]
language plpgsql immutable parallel safe as $$
declare
    na  integer := coalesce(array_length(a, 1), 0);
    nb  integer := coalesce(array_length(b, 1), 0);
    i   integer := 1;
    j   integer := 1;
    n   integer := 0;
    s   integer;
    e   integer;
    res integer[] := '{}';
begin
    while i <= na or j <= nb loop
        if j > nb or (i <= na and a[i] <= b[j]) then
            s := a[i]; e := a[i + 1]; i := i + 2;
        else
            s := b[j]; e := b[j + 1]; j := j + 2;
        end if;
        if n > 0 and s <= res[n] then
            if e > res[n] then
                res[n] := e;
            end if;
        else
            res := res || s || e;
            n := n + 2;
        end if;
    end loop;
    return res;
end
$$;

-- How many positions a set holds.
create function vigie_ranges_size(r integer[]) returns integer
language sql immutable parallel safe as $$
    select coalesce(sum(r[2 * k] - r[2 * k - 1]), 0)::integer
    from generate_series(1, coalesce(array_length(r, 1), 0) / 2) as k
$$;
