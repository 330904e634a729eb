package app.vigie.auditlog.rest;

import java.util.concurrent.atomic.AtomicLong;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import app.vigie.auditlog.IngestConfig;

/**
 * The bytes the HTTP intake's requests in progress hold, together, within {@code vigie.ingest.max-buffered-bytes}: a
 * request takes its window before it reads its body and gives it back when it ends, so that slow or many requests
 * cannot fill the heap (issue 41).
 */
@ApplicationScoped
public class IntakeBuffers {
    private final AtomicLong held = new AtomicLong();

    @Inject
    IngestConfig config;

    @Inject
    MeterRegistry meters;

    @PostConstruct
    void meters() {
        if (config.windowBytes() < (2 << 20)) {
            throw new IllegalStateException("vigie.ingest.window-bytes must be at least 2 MiB (2097152), got "
                    + config.windowBytes());
        }
        Gauge.builder("vigie.intake.buffered", held, AtomicLong::get).baseUnit("bytes")
                .description("Bytes the HTTP intake's requests in progress hold for their bodies").register(meters);
    }

    /** Takes {@code bytes} if they fit; false (nothing taken) when they do not. */
    public boolean take(long bytes) {
        long max = config.maxBufferedBytes();
        while (true) {
            long now = held.get();
            if (now + bytes > max) {
                return false;
            }
            if (held.compareAndSet(now, now + bytes)) {
                return true;
            }
        }
    }

    public void giveBack(long bytes) {
        held.addAndGet(-bytes);
    }

    /** Bytes held now. */
    public long held() {
        return held.get();
    }
}
