-- A delivery's claim: the sender that holds it records its outcome only while the claim is its own (a claim that
-- lapsed and was taken again by another sender cannot be overwritten by the first one's late answer).
alter table alert_delivery add column claim_id uuid;
create index customer_alert_tenant on customer_alert (tenant, id);
