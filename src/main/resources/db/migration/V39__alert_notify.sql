-- The alert sender wakes when a delivery is written (issue 45, goal 8), whichever instance wrote it: every statement
-- that inserts alert deliveries queues a notification on channel vigie_alerts, delivered at commit, once per
-- transaction, to every instance listening (AlertDelivery). A rolled-back transaction notifies nothing. The writing
-- instance also wakes its own sender at commit without a round trip; the sender's poll stays the fallback (retries,
-- a lost listening connection).
create function vigie_alerts_written() returns trigger
language plpgsql as $$
begin
    if exists (select 1 from written_rows) then
        perform pg_notify('vigie_alerts', '');
    end if;
    return null;
end
$$;

create trigger alert_delivery_insert after insert on alert_delivery
    referencing new table as written_rows for each statement execute function vigie_alerts_written();
