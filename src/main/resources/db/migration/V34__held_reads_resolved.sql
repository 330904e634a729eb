-- Spec 1.3, amendment 5: a read of received positions that no send of its transfer covers is resolved at the next
-- flush (explicit, or the stream-gap timeout): those positions are judged as in version 1 and the receiving request
-- raises TRANSFER_SEND_MISSING. "checked" now means resolved; resolved_ranges keeps the via positions judged so
-- ([from, to) pairs, flattened): a fact of time, which the evidence check applies again to the kept records.
alter table transfer_read add column resolved_ranges integer[];
-- The check this replaces (TransferCheck) marked the reads it looked at without judging any position: each is
-- resolved again at the next flush or gap timeout (a covered read is only marked, with no range).
update transfer_read set checked = false where checked;
