package app.vigie.auditlog.intake;

import java.sql.SQLException;
import java.util.Optional;

/**
 * Where the intake learns what an account may write (issue 41 point 5); the accounts (app.vigie.security) answer.
 */
public interface IngestScopes {
    /**
     * What {@code account} may write, list and flush; empty when everything ({@code admin}: the account holds the
     * admin role).
     */
    Optional<IngestScope> of(String account, boolean admin) throws SQLException;

    /**
     * What the records of Kafka topic {@code topic} may write, the topic being bound to ingest account
     * {@code account} ({@code vigie.kafka.topic-accounts}): as {@link #of} for that account (null: everything), read
     * again for each batch; nothing when no account of that name holds the ingest or admin role.
     */
    Writable ofTopic(String topic, String account) throws SQLException;
}
