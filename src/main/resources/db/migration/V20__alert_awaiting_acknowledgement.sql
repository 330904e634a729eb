-- The delivery worker asks, four times a second, which alerts have waited too long for their acknowledgement
-- (DeliveryStore.escalate). Without an index that is a scan of every alert ever made (60 ms at 160,000 alerts);
-- with it, a range of the few still waiting, oldest first.
create index customer_alert_awaiting_ack on customer_alert (created_at)
    where acknowledged_at is null and escalated_at is null and phase <> 'FINAL';
