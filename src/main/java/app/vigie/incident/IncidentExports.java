package app.vigie.incident;

import java.util.List;

import app.vigie.export.Csv;

/**
 * An incident's findings and exposures as CSV for a spreadsheet: the same files from the incident page's download
 * and inside the regulator pack. Times in UTC (RFC 3339), as the API gives them.
 */
public final class IncidentExports {
    private IncidentExports() {
    }

    /** The findings with their evidence: where (stream, boot, seq range), what (the detector's detail). */
    public static String findingsCsv(List<FindingView> findings) {
        StringBuilder out = new StringBuilder();
        Csv.row(out, List.of("id", "rule", "subject", "deployment", "stream", "boot", "first_seq", "last_seq",
                "seen_at_utc", "recorded_at_utc", "detail"));
        for (FindingView f : findings) {
            Csv.row(out, List.of(Long.toString(f.id()), f.rule(), nz(f.subject()), nz(f.deployment()),
                    nz(f.stream()), nz(f.boot()), Long.toString(f.firstSeq()), Long.toString(f.lastSeq()),
                    nz(f.seenAt()), nz(f.recordedAt()), nz(f.detail())));
        }
        return out.toString();
    }

    /**
     * Every exposure: whose request was read by which request, how many tokens, whether it was delivered, and whether
     * it is possible only (spec 1.3, amendment 3: the content read is uncertain).
     */
    public static String exposuresCsv(List<ExposureView> exposures) {
        StringBuilder out = new StringBuilder();
        Csv.row(out, List.of("kind", "victim_tenant", "victim_request", "reader_tenant", "reader_request", "tokens",
                "first_seen_at_utc", "delivered", "possible"));
        for (ExposureView e : exposures) {
            Csv.row(out, List.of(e.kind(), e.victimTenant(), e.victimRequest(), e.readerTenant(), e.readerRequest(),
                    Long.toString(e.tokens()), nz(e.firstSeenAt()), delivered(e.delivered()),
                    e.possible() ? "yes" : "no"));
        }
        return out.toString();
    }

    /** A response's fate: delivered to its client, contained (never delivered), or not known yet. */
    public static String delivered(Boolean delivered) {
        return delivered == null ? "unknown" : delivered ? "yes" : "no";
    }

    private static String nz(Object o) {
        return o == null ? "" : o.toString();
    }
}
