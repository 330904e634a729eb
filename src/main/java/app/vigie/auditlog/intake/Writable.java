package app.vigie.auditlog.intake;

/**
 * What a writer of the audit log may write (issue 41 point 5): an ingest account over HTTP (its {@link IngestScope}),
 * or the ingest account a Kafka topic is bound to. A record it may not write is rejected where it is parsed and kept
 * in the quarantine with the reason.
 */
@FunctionalInterface
public interface Writable {
    /** Why {@code account} may not write a record of this stream and deployment (null: not known); null when it may. */
    String refusal(String stream, String deployment, String account);

    /** Writes nothing, for this reason (a Kafka topic bound to an account that does not exist, say). */
    static Writable nothing(String reason) {
        return (stream, deployment, account) -> reason;
    }
}
