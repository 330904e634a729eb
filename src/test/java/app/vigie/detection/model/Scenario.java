package app.vigie.detection.model;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import app.vigie.auditlog.intake.CanonicalJson;
import app.vigie.auditlog.record.AuditRecord;

/**
 * A generated scenario.
 *
 * @param ops what it was interpreted from (the first op is the world)
 * @param log every record written, each (stream, boot) in seq order, seq gap-free from 1 (CONFIG is seq 1)
 * @param deliveries what arrives at the detector, in order; the last one is always a {@link Delivery.Flush}
 */
public record Scenario(List<Op> ops, List<AuditRecord> log, List<Delivery> deliveries) {

    /** The ops, the log as NDJSON lines (numbered in the deliveries as #i, 0-based) and the deliveries. */
    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("Scenario\nops:");
        for (Op op : ops) {
            b.append(' ').append(op.code()).append('/').append(op.a()).append('/').append(op.b()).append('/')
                    .append(op.c());
        }
        b.append("\nlog (").append(log.size()).append(" records):\n");
        Map<AuditRecord, Integer> index = new IdentityHashMap<>();
        for (int i = 0; i < log.size(); i++) {
            index.put(log.get(i), i);
            b.append(CanonicalJson.of(log.get(i))).append('\n');
        }
        b.append("deliveries:\n");
        for (Delivery d : deliveries) {
            if (d instanceof Delivery.Batch batch) {
                b.append("  batch");
                for (AuditRecord r : batch.records()) {
                    b.append(" #").append(index.get(r));
                }
                b.append('\n');
            } else {
                b.append("  flush\n");
            }
        }
        return b.toString();
    }
}
