-- Traces from intake to alert (issue 22, goal 9): the W3C traceparent of the intake transaction that planned an alert
-- (null when tracing is off), so that its deliveries continue that trace. See docs/operations.md, "Traces".
alter table customer_alert add column trace_parent text;
