package app.vigie.auditlog.intake;

import java.util.List;

/** The outcomes of a batch of lines, in the order of the lines, and how many blank lines were skipped. */
public record IngestResult(List<LineOutcome> outcomes, int blank) {

    public long count(LineOutcome.Status status) {
        return outcomes.stream().filter(o -> o.status() == status).count();
    }

    public long accepted() {
        return outcomes.stream().filter(LineOutcome::accepted).count();
    }

    public List<LineOutcome> rejected() {
        return outcomes.stream().filter(o -> o.status() == LineOutcome.Status.REJECTED).toList();
    }
}
