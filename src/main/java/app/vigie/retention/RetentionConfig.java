package app.vigie.retention;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * How long Vigie keeps its own data (GDPR Art. 5(1)(e), storage limitation; docs/operations.md, "Retention"). No
 * article sets these periods; for data processed for customers they follow the customers' instructions and the
 * contract (Art. 28(3)(a), (g)). The defaults are a starting point to agree with them and the DPO.
 */
@ConfigMapping(prefix = "vigie.retention")
public interface RetentionConfig {

    /**
     * The records of a (stream, boot) are deleted once it has been silent this long, unless its deployment has a
     * running incident, or an incident keeping its evidence ({@link #incidentEvidence()}) rests on it.
     */
    @WithDefault("P30D")
    Duration records();

    /** What detection knows of a request (its tenant, rejection, delivery), unless an incident still cites it. */
    @WithDefault("P30D")
    Duration requestFacts();

    /** Rejected records kept with their reason. */
    @WithDefault("P90D")
    Duration quarantine();

    /** The text of an alert delivered on every channel; its SHA-256 stays. */
    @WithDefault("P90D")
    Duration alertBodies();

    /** How long after it is closed an incident keeps its evidence (the records and request facts it rests on). */
    @WithDefault("P1826D")
    Duration incidentEvidence();

    /** Boots, or rows of the other kinds, deleted per transaction. */
    @WithDefault("500")
    int batch();

    /**
     * How often the job runs on each instance (an instance finding another at work skips its turn). Read by
     * {@link RetentionService}'s schedule; declared here so that it is documented with the others. {@code off}
     * stops the job (the API's run still works).
     */
    @WithDefault("1h")
    String every();

    /** A period as ISO-8601 in days when it is whole days ({@code P30D}; {@link Duration#toString} says PT720H). */
    static String iso(Duration d) {
        return d.toSeconds() % 86_400 == 0 && d.getNano() == 0 ? "P" + d.toDays() + "D" : d.toString();
    }
}
