package app.vigie.auditlog.intake;

import java.util.List;

import app.vigie.audit.AuditTrail;

/**
 * What an ingest account may write (issue 41 point 5): lines whose {@code deployment} is one of {@code deployments}
 * (when not empty) and whose {@code stream} starts with one of {@code streamPrefixes} (when not empty). At least one
 * of the two is set. The same binding decides which streams the account lists ({@code GET /api/streams}) and
 * flushes ({@code POST /api/audit-log/flush}).
 */
public record IngestScope(List<String> deployments, List<String> streamPrefixes) implements Writable {
    /** The most entries of each list, and the longest entry. */
    public static final int MAX_ENTRIES = 100;
    public static final int MAX_LENGTH = 200;

    public IngestScope {
        deployments = deployments == null ? List.of() : List.copyOf(deployments);
        streamPrefixes = streamPrefixes == null ? List.of() : List.copyOf(streamPrefixes);
    }

    /** Whether the account may write, list or flush this stream of this deployment (null: not known). */
    public boolean allows(String stream, String deployment) {
        return refusal(stream, deployment, null) == null;
    }

    /**
     * Why {@code account} may not write a record of this stream and deployment (kept with the line in the
     * quarantine); null when it may.
     */
    @Override
    public String refusal(String stream, String deployment, String account) {
        if (!streamPrefixes.isEmpty()
                && streamPrefixes.stream().noneMatch(p -> stream != null && stream.startsWith(p))) {
            return "stream '" + stream + "' is outside the streams account '" + account + "' may write (prefixes: "
                    + String.join(", ", streamPrefixes) + ")";
        }
        if (!deployments.isEmpty() && !deployments.contains(deployment)) {
            return "deployment '" + deployment + "' is outside the deployments account '" + account
                    + "' may write (deployments: " + String.join(", ", deployments) + ")";
        }
        return null;
    }

    /** The scope as the audit trail keeps it. */
    public String json() {
        StringBuilder b = new StringBuilder("{\"deployments\":");
        list(b, deployments);
        b.append(",\"stream_prefixes\":");
        list(b, streamPrefixes);
        return b.append('}').toString();
    }

    private static void list(StringBuilder b, List<String> l) {
        b.append('[');
        for (int i = 0; i < l.size(); i++) {
            b.append(i == 0 ? "" : ",").append(AuditTrail.quote(l.get(i)));
        }
        b.append(']');
    }
}
