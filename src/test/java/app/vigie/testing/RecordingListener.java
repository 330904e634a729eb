package app.vigie.testing;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import app.vigie.auditlog.AppliedRecordListener;
import app.vigie.auditlog.record.AuditRecord;

/** Records, in order, what the sequencer applied and the gaps it declared lost, for the tests to check. */
@ApplicationScoped
public class RecordingListener implements AppliedRecordListener {
    private final List<AuditRecord> applied = new ArrayList<>();
    private final List<String> gaps = new ArrayList<>();

    @Override
    public synchronized void applied(Connection tx, AuditRecord record) {
        applied.add(record);
    }

    @Override
    public synchronized void gapLost(Connection tx, String stream, String boot, long fromSeq, long toSeq) {
        gaps.add(stream + "/" + boot + ":" + fromSeq + "-" + toSeq);
    }

    /** The seqs applied on one stream, in the order applied. */
    public synchronized List<Long> appliedSeqs(String stream) {
        return applied.stream().filter(r -> r.stream().equals(stream)).map(AuditRecord::seq).toList();
    }

    public synchronized List<String> gaps(String streamPrefix) {
        return gaps.stream().filter(g -> g.startsWith(streamPrefix)).toList();
    }

    public synchronized List<AuditRecord> all() {
        return new ArrayList<>(applied);
    }
}
