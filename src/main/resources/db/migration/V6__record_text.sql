comment on column audit_record.body is
  'the record as received: one valid line of page audit log v1 (rows stored before V6 hold its canonical text)';
