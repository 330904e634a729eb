package app.vigie.rootcause;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;
import java.util.UUID;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import io.quarkus.runtime.Startup;

import app.vigie.compliance.rules.InvalidRules;
import app.vigie.incident.IncidentQueries;
import app.vigie.rootcause.core.HintCatalogue;
import app.vigie.rootcause.core.HintLoader;
import app.vigie.rootcause.core.HintMatcher;

/**
 * The root-cause hints, read and checked at start ({@code vigie.root-causes.file}; unset, ./root-causes/root-causes.yaml
 * where it exists, else the copy the application carries): a broken file stops start-up, naming its line. Matches an
 * incident's findings against them.
 */
@Startup
@Singleton
public class RootCauses {
    private static final Logger LOG = Logger.getLogger(RootCauses.class);
    static final String BUNDLED = "root-causes/root-causes.yaml";

    private final HintCatalogue catalogue;
    private final HintMatcher matcher;
    private final String origin;

    @Inject
    public RootCauses(@ConfigProperty(name = "vigie.root-causes.file") Optional<String> file) {
        String text;
        if (file.isPresent()) {
            origin = file.get();
            text = read(Path.of(origin));
        } else if (Files.isRegularFile(Path.of(BUNDLED))) {
            origin = Path.of(BUNDLED).toAbsolutePath().toString();
            text = read(Path.of(BUNDLED));
        } else {
            origin = BUNDLED + " (inside the application)";
            text = bundled();
        }
        try {
            catalogue = HintLoader.load(origin, text);
        } catch (InvalidRules e) {
            LOG.errorf("Root-cause hints refused, the service does not start: %s", e.getMessage());
            throw e;
        }
        matcher = new HintMatcher(catalogue);
        LOG.infof("Root-cause hints: %d from %s (version %s)", catalogue.hints().size(), origin, catalogue.version());
    }

    public HintCatalogue catalogue() {
        return catalogue;
    }

    /** The hints an incident's findings match, and the findings no hint accounts for. */
    public HintMatcher.Result of(Connection c, UUID incident) throws SQLException {
        HintMatcher.Tally tally = matcher.tally();
        IncidentQueries.findingsBySubject(c, incident, tally::subject);
        return tally.result();
    }

    private static String read(Path p) {
        try {
            return Files.readString(p, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new InvalidRules(p.toString(), 0, "cannot be read: " + e.getMessage());
        }
    }

    private static String bundled() {
        try (InputStream in = RootCauses.class.getClassLoader().getResourceAsStream(BUNDLED)) {
            if (in == null) {
                throw new InvalidRules(BUNDLED, 0, "no root-causes/ directory here and no copy inside the application");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new InvalidRules(BUNDLED, 0, "cannot be read inside the application: " + e.getMessage());
        }
    }
}
