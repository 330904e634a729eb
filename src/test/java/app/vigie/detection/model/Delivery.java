package app.vigie.detection.model;

import java.util.List;

import app.vigie.auditlog.record.AuditRecord;

/** What arrives at the detector, in order: a batch of records, or an explicit flush. */
public sealed interface Delivery {

    /** Records posted together, in this order (any stream, any seq order, possibly duplicates). */
    record Batch(List<AuditRecord> records) implements Delivery {
    }

    /** An explicit flush: every missing seq range is declared lost (spec, Envelope). */
    record Flush() implements Delivery {
    }
}
