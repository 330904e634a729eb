-- Spec 1.3, amendment 2: a transfer has an id (one per attempt: a retry is a new transfer). The origins of a
-- received position are given by the sends of the same request and transfer; a transfer's sends to another receiver
-- name no victim here. Rows stored before (version 1.1 logs, which had no id) keep a null id and join only each other.
alter table transfer_send add column transfer text;
alter table transfer_read add column via_transfer text;
