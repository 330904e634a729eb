package app.vigie.detection;

import java.time.Duration;
import java.util.Optional;

import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Detection's limits and memory (docs/detection.md). */
@ConfigMapping(prefix = "vigie.detection")
public interface DetectionConfig {

    /** A detector unused this long leaves memory (its snapshot stays; it is rebuilt when a record comes). */
    @WithDefault("1H")
    Duration idleEviction();

    /** A detector's state is saved every this many records. */
    @WithDefault("50000")
    long snapshotEvery();

    /** The memory the freed page tables of one detector may take before the oldest leave. */
    @WithDefault("16M")
    MemorySize freedTablesBudget();

    /** The memory detectors may take; a quarter of the heap when unset. */
    Optional<MemorySize> memoryBudget();

    /** The largest pool a CONFIG may declare, in slots (DetectorLimits). */
    @WithDefault("134217728")
    long maxPoolSlots();

    /** The most logical pages the tables of one boot's live requests may hold together (DetectorLimits). */
    @WithDefault("16777216")
    long maxTableEntries();

    /** The most requests of one boot that may hold a page table at once (DetectorLimits). */
    @WithDefault("262144")
    int maxLiveRequests();

    /** How often the detectors' memory is checked against {@link #memoryBudget()} (a scheduler's period). */
    @WithDefault("5s")
    String memoryCheckEvery();

    /**
     * Retired (docs/operations.md): read no more, kept so that a configuration that still sets them starts as it did
     * (a mapping refuses a key of its prefix that it does not know).
     */
    Optional<String> transferSendTimeout();

    /** Retired, as {@link #transferSendTimeout()}. */
    Optional<String> transferCheckEvery();
}
