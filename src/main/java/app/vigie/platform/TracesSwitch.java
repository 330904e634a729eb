package app.vigie.platform;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.quarkus.runtime.StartupEvent;

/** Tells {@link Traces} at start whether traces are exported. */
@ApplicationScoped
public class TracesSwitch {
    @ConfigProperty(name = "quarkus.otel.sdk.disabled", defaultValue = "false")
    boolean disabled;

    void start(@Observes StartupEvent event) {
        Traces.exported(!disabled);
    }
}
