package app.vigie.demo;

import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;

import app.vigie.auditlog.IngestService;
import app.vigie.auditlog.intake.IncomingLine;
import app.vigie.auditlog.intake.IngestResult;
import app.vigie.auditlog.intake.Source;
import app.vigie.runtime.engine.Fault;
import app.vigie.runtime.sim.SimulateCommand;
import app.vigie.runtime.sim.Simulation;

/**
 * The demo: with {@code vigie.demo=incident-2026} ({@code VIGIE_DEMO}), the reference runtime runs inside the service
 * once it has started, with every fault on, and its audit log goes straight into the intake, so that a newcomer
 * sees an incident open within seconds. The records are kept like any other (source {@code file}, named
 * {@code demo:<scenario>}); a second start replays the same seed, and every record is then a duplicate.
 */
@ApplicationScoped
public class DemoRunner {
    private static final Logger LOG = Logger.getLogger(DemoRunner.class);
    private static final int BATCH = 5000;

    @ConfigProperty(name = "vigie.demo")
    Optional<String> demo;

    @ConfigProperty(name = "vigie.demo.requests", defaultValue = "2000")
    int requests;

    @ConfigProperty(name = "vigie.demo.tenants", defaultValue = "6")
    int tenants;

    @ConfigProperty(name = "vigie.demo.deployment", defaultValue = "demo-model/prod-eu")
    String deployment;

    @Inject
    IngestService ingest;

    private volatile Thread thread;

    void start(@Observes StartupEvent event) {
        if (demo.isEmpty() || demo.get().isBlank()) {
            return;
        }
        Simulation.Scenario scenario;
        try {
            scenario = SimulateCommand.constant(Simulation.Scenario.class, demo.get());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("vigie.demo: " + e.getMessage(), e);
        }
        Simulation.Options options = new Simulation.Options(scenario, tenants, requests, EnumSet.allOf(Fault.class),
                Set.of(), 2026, deployment, 0.15);
        thread = new Thread(() -> run(options), "vigie-demo");
        thread.setDaemon(true);
        thread.start();
    }

    void stop(@Observes ShutdownEvent event) {
        Thread t = thread;
        if (t != null) {
            t.interrupt();
        }
    }

    private void run(Simulation.Options options) {
        String name = "demo:" + options.scenario().name().toLowerCase(Locale.ROOT).replace('_', '-');
        LOG.infof("Demo: the reference runtime simulates %d requests of %d tenants on deployment %s with every "
                + "fault on; its audit log goes into the intake", options.requests(), options.tenants(),
                options.deployment());
        List<IncomingLine> batch = new ArrayList<>(BATCH);
        long[] position = {0};
        long[] accepted = {0};
        try {
            Simulation.Summary summary = Simulation.run(options, line -> {
                if (Thread.currentThread().isInterrupted()) {
                    throw new IllegalStateException("the service is stopping");
                }
                byte[] b = line.getBytes(StandardCharsets.UTF_8);
                batch.add(new IncomingLine(Source.FILE, name, ++position[0], b, 0, b.length, false));
                if (batch.size() == BATCH) {
                    accepted[0] += send(batch);
                }
            }, null);
            accepted[0] += send(batch);
            LOG.infof("Demo done: %d records accepted; %d responses carried other requests' tokens "
                    + "(see GET /api/incidents)", accepted[0], summary.truth().readers().size());
        } catch (RuntimeException e) {
            LOG.warnf("Demo stopped: %s", e.getMessage());
        }
    }

    private long send(List<IncomingLine> batch) {
        if (batch.isEmpty()) {
            return 0;
        }
        try {
            IngestResult r = ingest.ingest(List.copyOf(batch), 0);
            batch.clear();
            return r.accepted();
        } catch (SQLException e) {
            throw new IllegalStateException("the intake failed: " + e.getMessage(), e);
        }
    }
}
