-- Acknowledgement links: the database keeps the SHA-256 of a link's token, never the token (new links derive it
-- from the service's key; links already sent keep working, looked up by the hash of what they present).
update customer_alert set ack_token = encode(sha256(convert_to(ack_token, 'UTF8')), 'hex');
-- Webhook secrets: after a rotation, the previous secret keeps signing beside the new one until previous_until, so
-- that a receiver can switch without losing an alert.
alter table tenant_webhook_secret add column previous_secret text;
alter table tenant_webhook_secret add column previous_until timestamptz;
